// Messages in four languages: one JSON catalogue per language (src/locales/), CLDR plural forms through
// Intl.PluralRules, numbers through Intl.NumberFormat. The language comes from the switcher's saved choice
// (localStorage), else the browser's preferred languages, else English. English is in the bundle (it is also
// the fallback); the others are separate chunks fetched when chosen (locales/check.ts type-checks them all).
import en from "./locales/en.json";

export const LANGS = ["en", "ru", "uk", "pl"] as const;
export type Lang = (typeof LANGS)[number];
export type MessageId = keyof typeof en;
/** A plain message, or plural forms by CLDR category (`other` is required). */
export type Message = string | { zero?: string; one?: string; two?: string; few?: string; many?: string; other: string };
export type Params = Record<string, string | number>;

const STORE_KEY = "dicehall.lang";
type Catalogue = Record<MessageId, Message>;
const LOADERS: Record<Lang, () => Promise<{ default: unknown }>> = {
  en: async () => ({ default: en }),
  ru: () => import("./locales/ru.json"),
  uk: () => import("./locales/uk.json"),
  pl: () => import("./locales/pl.json"),
};
const CATALOGUES: Partial<Record<Lang, Catalogue>> = { en };

function isLang(x: unknown): x is Lang {
  return typeof x === "string" && (LANGS as readonly string[]).includes(x);
}

/** The saved choice, else the first of the browser's languages we have (ru-RU → ru), else English. */
export function pickLanguage(saved: string | null, preferred: readonly string[]): Lang {
  if (isLang(saved)) return saved;
  for (const tag of preferred) {
    const base = tag.toLowerCase().split("-")[0];
    if (isLang(base)) return base;
  }
  return "en";
}

function savedLanguage(): string | null {
  try {
    return localStorage.getItem(STORE_KEY);
  } catch {
    return null;
  }
}

let lang: Lang = pickLanguage(savedLanguage(), navigator.languages ?? [navigator.language]);
let plurals = new Intl.PluralRules(lang);
let numbers = new Intl.NumberFormat(lang);

export function currentLanguage(): Lang {
  return lang;
}

/** Fetch a language's catalogue (once); English if it cannot be had (offline). */
async function load(l: Lang): Promise<Lang> {
  if (CATALOGUES[l]) return l;
  try {
    CATALOGUES[l] = (await LOADERS[l]()).default as Catalogue;
    return l;
  } catch {
    return "en";
  }
}

/** Load the chosen language before the first render. */
export async function initLanguage(): Promise<void> {
  lang = await load(lang);
  plurals = new Intl.PluralRules(lang);
  numbers = new Intl.NumberFormat(lang);
  document.documentElement.lang = lang;
}

/** Switch and remember the language; the caller re-renders the page. */
export async function setLanguage(wanted: Lang): Promise<void> {
  const next = await load(wanted);
  lang = next;
  plurals = new Intl.PluralRules(lang);
  numbers = new Intl.NumberFormat(lang);
  document.documentElement.lang = lang;
  try {
    localStorage.setItem(STORE_KEY, lang);
  } catch {
    // private mode: the choice lasts for this page only
  }
}

export function formatNumber(n: number): string {
  return numbers.format(n);
}

/** Items joined as the language joins a list ("1 and 5", "1 и 5", "1 i 5"). */
export function formatList(items: string[]): string {
  return new Intl.ListFormat(lang, { style: "long", type: "conjunction" }).format(items);
}

/** How long ago a unix time was, in the language's words ("5 minutes ago", "5 минут назад"); null under a minute. */
export function formatAgo(unixSeconds: number, now = Date.now() / 1000): string | null {
  const rtf = new Intl.RelativeTimeFormat(lang, { numeric: "always" });
  const s = Math.round(unixSeconds - now);
  if (Math.abs(s) < 60) return null;
  if (Math.abs(s) < 3600) return rtf.format(Math.round(s / 60), "minute");
  if (Math.abs(s) < 86400) return rtf.format(Math.round(s / 3600), "hour");
  return new Intl.DateTimeFormat(lang, { dateStyle: "medium", timeStyle: "short" }).format(new Date(unixSeconds * 1000));
}

function render(msg: Message, params: Params): string {
  let text: string;
  if (typeof msg === "string") text = msg;
  else {
    const n = Number(params.n ?? 0);
    text = msg[plurals.select(n)] ?? msg.other;
  }
  return text.replace(/\{(\w+)\}/g, (whole, key: string) => {
    const v = params[key];
    if (v === undefined) return whole;
    return typeof v === "number" ? numbers.format(v) : v;
  });
}

/** The message `id` in the current language (English if a catalogue lacks it), with `{name}` parameters;
 * numbers are formatted for the language and `n` picks the plural form. */
export function t(id: MessageId, params: Params = {}): string {
  return render(CATALOGUES[lang]?.[id] ?? en[id], params);
}

/** For ids built from server data (rule options, presets, error codes, bots): `fallback` when unknown. */
export function tKey(id: string, fallback: string, params: Params = {}): string {
  const msg = (CATALOGUES[lang] as Record<string, Message> | undefined)?.[id] ?? (en as Record<string, Message>)[id];
  return msg === undefined ? fallback : render(msg, params);
}

export function hasKey(id: string): boolean {
  return id in en;
}

/** The language names for the switcher, each in its own language (known without loading the catalogues). */
const NAMES: Record<Lang, string> = { en: "English", ru: "Русский", uk: "Українська", pl: "Polski" };
export function languageName(l: Lang): string {
  return NAMES[l];
}

document.documentElement.lang = lang;
