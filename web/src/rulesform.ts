// The house-rules form: options grouped by topic in collapsed sections whose summary says what differs from the
// preset; pits edited as a list of ranges; every value checked as you type (bounds from the rules metadata, then
// the server's POST /api/rules/check when it has one).
import type { RuleOption } from "./api";
import { h } from "./dom";
import { formatNumber, t, tKey } from "./i18n";

/** Topics of each game's options, in the order shown; options of no topic land in "other". */
const GROUPS: Record<string, [string, string[]][]> = {
  thousand: [
    ["goal", ["target", "roll_off"]],
    ["opening", ["open_min", "open_fail_every", "open_fail_penalty"]],
    ["scoring", ["scoring", "golden_win", "free_set_aside", "max_rolls", "pair_reroll", "skip_on_zero_first"]],
    ["hot", ["hot_dice", "reconfirm_hot"]],
    ["pits", ["pits"]],
    ["others", ["overtake_penalty", "dump_truck", "dump_truck_score", "exact_reset"]],
    ["bolts", ["bolts", "bolts_count", "bolt_penalty", "bolts_everywhere"]],
    [
      "barrel",
      ["barrel", "barrel_score", "barrel_cap", "barrel_exact", "barrel_attempts", "barrel_fall_penalty", "barrel_falls_to_zero", "barrel_knock", "open_points_limit", "open_point_penalty", "open_fall_limit"],
    ],
  ],
  clever: [["rounds", ["rounds", "passive_fallback", "auto_single_choice"]]],
  wurf: [["wurf", ["match", "dice_per_player", "arena"]]],
};

/** A value the player typed that cannot be sent (the message is in the page's language). */
export class RuleInputError extends Error {
  constructor(
    readonly option: string,
    message: string,
  ) {
    super(message);
  }
}

export const optionName = (game: string, key: string): string => tKey(`rule.${game}.${key}.name`, key.replace(/_/g, " "));
export const optionDoc = (game: string, opt: RuleOption): string => tKey(`rule.${game}.${opt.key}.doc`, opt.doc);
export const choiceName = (game: string, key: string, choice: string): string => tKey(`rule.${game}.${key}.choice.${choice}`, choice);

/** An option's value in words: on/off, a number, a choice's name, ranges as "200–300". */
export function ruleValue(game: string, key: string, v: unknown): string {
  if (v === true) return t("rules.on");
  if (v === false) return t("rules.off");
  if (typeof v === "number") return formatNumber(v);
  if (typeof v === "string") return choiceName(game, key, v);
  if (Array.isArray(v)) {
    if (!v.length) return t("rules.none");
    return v.map((x) => (Array.isArray(x) && x.length === 2 ? `${formatNumber(x[0])}–${formatNumber(x[1])}` : ruleValue(game, key, x))).join(", ");
  }
  return String(v);
}

interface Field {
  opt: RuleOption;
  el: HTMLElement;
  error: HTMLElement;
  read(): unknown;
  /** Put a value (one the server gave) into the input. */
  write(v: unknown): void;
}

function checkNumber(opt: RuleOption, raw: string, integer: boolean): number {
  if (raw.trim() === "" || !Number.isFinite(Number(raw))) throw new RuleInputError(opt.key, t("rules.err.number"));
  const v = Number(raw);
  if (integer && !Number.isInteger(v)) throw new RuleInputError(opt.key, t("rules.err.integer"));
  if (typeof opt.min === "number" && v < opt.min) throw new RuleInputError(opt.key, t("rules.err.min", { min: opt.min }));
  if (typeof opt.max === "number" && v > opt.max) throw new RuleInputError(opt.key, t("rules.err.max", { max: opt.max }));
  if (typeof opt.step === "number" && opt.step > 0 && Math.abs(((v - (opt.min ?? 0)) / opt.step) % 1) > 1e-9)
    throw new RuleInputError(opt.key, t("rules.err.step", { step: opt.step }));
  return v;
}

const isRangeList = (v: unknown): boolean => Array.isArray(v) && v.every((x) => Array.isArray(x) && x.length === 2 && x.every((n) => typeof n === "number"));

/** Pits (or any list of [low, high) ranges): one row per range with two numbers, add and remove buttons. */
function rangeList(game: string, opt: RuleOption, id: string): { input: HTMLElement; read(): unknown; write(v: unknown): void } {
  const list = h("div", { class: "ranges", id, "data-key": opt.key, role: "group", "aria-label": optionName(game, opt.key) });
  const addRow = (low: number | string, high: number | string): void => {
    const step = String(opt.step ?? 1);
    const lo = h("input", { type: "number", class: "range-low", step, min: opt.min ?? null, max: opt.max ?? null, inputmode: "numeric", value: String(low), "aria-label": t("rules.range_from") });
    const hi = h("input", { type: "number", class: "range-high", step, min: opt.min ?? null, max: opt.max ?? null, inputmode: "numeric", value: String(high), "aria-label": t("rules.range_to") });
    const row = h("div", { class: "range-row" }, lo, h("span", null, "–"), hi);
    const del = h("button", { type: "button", class: "btn icon", "aria-label": t("rules.range_remove"), title: t("rules.range_remove") }, "✕");
    del.addEventListener("click", () => {
      row.remove();
      list.dispatchEvent(new Event("input", { bubbles: true }));
    });
    row.append(del);
    list.insertBefore(row, add);
  };
  const add = h("button", { type: "button", class: "btn small-btn range-add" }, t("rules.range_add"));
  add.addEventListener("click", () => {
    // A new range where none is yet (the first free hundred from 100 up, clear of the others), so that adding
    // one does not start with an error.
    const taken = [...list.querySelectorAll(".range-row")].map((row) => [Number((row.querySelector(".range-low") as HTMLInputElement).value), Number((row.querySelector(".range-high") as HTMLInputElement).value)]);
    let low = 100;
    while (taken.some(([lo, hi]) => low <= hi && low + 100 >= lo)) low += 100;
    addRow(low, low + 100);
    list.dispatchEvent(new Event("input", { bubbles: true }));
  });
  list.append(add);
  const write = (v: unknown): void => {
    for (const row of [...list.querySelectorAll(".range-row")]) row.remove();
    for (const [lo, hi] of v as number[][]) addRow(lo, hi);
  };
  write(opt.value);
  return {
    input: list,
    write,
    read: () => {
      const rows = [...list.querySelectorAll(".range-row")];
      if (typeof opt.max_items === "number" && rows.length > opt.max_items) throw new RuleInputError(opt.key, t("rules.err.max_items", { n: opt.max_items }));
      return rows.map((row) => {
        const lo = checkNumber(opt, (row.querySelector(".range-low") as HTMLInputElement).value, true);
        const hi = checkNumber(opt, (row.querySelector(".range-high") as HTMLInputElement).value, true);
        if (hi <= lo) throw new RuleInputError(opt.key, t("rules.err.range", { low: lo, high: hi }));
        return [lo, hi];
      });
    },
  };
}

function field(game: string, opt: RuleOption): Field {
  const id = `opt-${opt.key}`;
  const doc = optionDoc(game, opt);
  const label = h("label", { for: id, title: doc }, h("span", { class: "opt-name" }, optionName(game, opt.key)), h("span", { class: "opt-doc" }, doc));
  const error = h("p", { class: "opt-error", role: "alert", hidden: true, "data-error-for": opt.key });
  const typ = (opt.type || "").toLowerCase();
  let input: HTMLElement;
  let read: () => unknown;
  let write: (v: unknown) => void;
  let cls = "opt";
  if (typeof opt.value === "boolean" || typ === "bool") {
    const box = h("input", { id, type: "checkbox", name: opt.key, "data-key": opt.key, checked: Boolean(opt.value) });
    return { opt, error, el: h("div", { class: "opt opt-bool", "data-opt": opt.key }, box, label, error), read: () => box.checked, write: (v) => (box.checked = Boolean(v)) };
  } else if (opt.choices && opt.choices.length) {
    const sel = h("select", { id, name: opt.key, "data-key": opt.key }, opt.choices.map((c) => h("option", { value: c, selected: c === opt.value }, choiceName(game, opt.key, c))));
    input = sel;
    read = () => sel.value;
    write = (v) => (sel.value = String(v));
  } else if (typeof opt.value === "number" || typ === "int" || typ === "float") {
    const integer = typ === "int" || (typ !== "float" && Number.isInteger(opt.value));
    const num = h("input", { id, type: "number", name: opt.key, "data-key": opt.key, value: String(opt.value ?? ""), step: opt.step ?? (integer ? "1" : "any"), inputmode: integer ? "numeric" : "decimal", min: opt.min ?? null, max: opt.max ?? null });
    input = num;
    read = () => checkNumber(opt, num.value, integer);
    write = (v) => (num.value = String(v));
  } else if (isRangeList(opt.value)) {
    const ranges = rangeList(game, opt, id);
    input = ranges.input;
    read = ranges.read;
    write = ranges.write;
    cls = "opt opt-ranges";
  } else if (typeof opt.value === "string") {
    const txt = h("input", { id, type: "text", name: opt.key, "data-key": opt.key, value: opt.value });
    input = txt;
    read = () => txt.value;
    write = (v) => (txt.value = String(v));
  } else {
    // A value of another shape (none today): edited as JSON text.
    const txt = h("input", { id, type: "text", name: opt.key, "data-key": opt.key, value: JSON.stringify(opt.value), spellcheck: false });
    input = txt;
    write = (v) => (txt.value = JSON.stringify(v));
    read = () => {
      try {
        return JSON.parse(txt.value);
      } catch {
        throw new RuleInputError(opt.key, t("rules.err.json"));
      }
    };
  }
  return { opt, error, el: h("div", { class: cls, "data-opt": opt.key }, label, input, error), read, write };
}

export interface RulesForm {
  el: HTMLElement;
  /** The options that differ from the preset; throws RuleInputError (and shows it) on a bad value. */
  overrides(): Record<string, unknown>;
  /** Show errors (from the server's check or a refused create); an empty list clears them. */
  showErrors(errors: { option: string | null; message: string }[]): void;
  /** Offer the values the server fitted (`rules`, from its check) to the options left as they were. */
  offerFitted(rules: Record<string, unknown>, overrides: Record<string, unknown>): void;
}

/** `fixed`: options every table here has (the catalogue's live_overrides), neither shown nor sent. */
export function rulesForm(game: string, options: RuleOption[], onChange: () => void, fixed: string[] = []): RulesForm {
  const fields = options.filter((o) => !fixed.includes(o.key)).map((o) => field(game, o));
  const byKey = new Map(fields.map((f) => [f.opt.key, f]));
  const general = h("p", { class: "opt-error", role: "alert", hidden: true, "data-testid": "rules-error" });
  const groups = [...(GROUPS[game] ?? [])];
  const grouped = new Set(groups.flatMap(([, keys]) => keys));
  const rest = fields.map((f) => f.opt.key).filter((k) => !grouped.has(k));
  if (rest.length) groups.push(["other", rest]);
  const sections: { details: HTMLDetailsElement; diff: HTMLElement; keys: string[] }[] = [];
  const offer = h("div", { class: "rules-offer", "data-testid": "rules-offer", role: "status", hidden: true });
  const el = h("div", { class: "rules-groups", "data-testid": "rules" }, general, offer);

  for (const [topic, keys] of groups) {
    const present = keys.filter((k) => byKey.has(k));
    if (!present.length) continue;
    const diff = h("span", { class: "diff" });
    const details = h(
      "details",
      { class: "rule-group", "data-topic": topic },
      h("summary", null, h("span", { class: "group-name" }, tKey(`rules.group.${topic}`, topic)), diff),
      h("div", { class: "rules-grid" }, present.map((k) => (byKey.get(k) as Field).el)),
    );
    sections.push({ details, diff, keys: present });
    el.append(details);
  }

  const changedKeys = (): Set<string> => {
    const out = new Set<string>();
    for (const f of fields) {
      try {
        if (JSON.stringify(f.read()) !== JSON.stringify(f.opt.value)) out.add(f.opt.key);
      } catch {
        out.add(f.opt.key);
      }
    }
    return out;
  };
  const markChanged = (): void => {
    const changed = changedKeys();
    for (const f of fields) f.el.classList.toggle("changed", changed.has(f.opt.key));
    for (const s of sections) {
      const names = s.keys.filter((k) => changed.has(k)).map((k) => optionName(game, k));
      s.diff.textContent = names.length ? t("rules.differs", { list: names.join(", ") }) : t("rules.as_preset");
      s.details.classList.toggle("changed", names.length > 0);
    }
  };

  const showErrors = (errors: { option: string | null; message: string }[]): void => {
    for (const f of fields) {
      f.error.hidden = true;
      f.el.classList.remove("invalid");
    }
    general.hidden = true;
    const generalMessages: string[] = [];
    for (const e of errors) {
      const f = e.option ? byKey.get(e.option) : undefined;
      if (!f) {
        generalMessages.push(e.option ? `${optionName(game, e.option)}: ${e.message}` : e.message);
        continue;
      }
      f.error.textContent = e.message;
      f.error.hidden = false;
      f.el.classList.add("invalid");
      const section = sections.find((s) => s.keys.includes(f.opt.key));
      if (section) section.details.open = true;
    }
    if (generalMessages.length) {
      general.textContent = generalMessages.join(" · ");
      general.hidden = false;
    }
  };

  const overrides = (): Record<string, unknown> => {
    const out: Record<string, unknown> = {};
    const errors: RuleInputError[] = [];
    for (const f of fields) {
      try {
        const v = f.read();
        if (JSON.stringify(v) !== JSON.stringify(f.opt.value)) out[f.opt.key] = v;
      } catch (err) {
        if (err instanceof RuleInputError) errors.push(err);
        else throw err;
      }
    }
    if (errors.length) {
      showErrors(errors.map((e) => ({ option: e.option, message: e.message })));
      throw errors[0];
    }
    return out;
  };

  const offerFitted = (rules: Record<string, unknown>, sent: Record<string, unknown>): void => {
    const moved = fields.filter((f) => !(f.opt.key in sent) && f.opt.key in rules && JSON.stringify(rules[f.opt.key]) !== JSON.stringify(f.opt.value));
    offer.hidden = moved.length === 0;
    if (!moved.length) return offer.replaceChildren();
    const items = moved.map((f) =>
      h("li", { "data-key": f.opt.key }, h("b", null, optionName(game, f.opt.key)), " ", h("s", null, ruleValue(game, f.opt.key, f.opt.value)), " → ", h("span", null, ruleValue(game, f.opt.key, rules[f.opt.key]))),
    );
    const accept = h("button", { type: "button", class: "btn primary", "data-testid": "rules-offer-accept" }, t("rules.fitted_accept"));
    accept.addEventListener("click", () => {
      for (const f of moved) f.write(rules[f.opt.key]);
      offer.hidden = true;
      offer.replaceChildren();
      el.dispatchEvent(new Event("input")); // marked as changed, checked again
    });
    offer.replaceChildren(h("p", null, t("rules.fitted", { n: moved.length })), h("ul", null, items), accept);
  };

  el.addEventListener("input", () => {
    markChanged();
    onChange();
  });
  el.addEventListener("change", markChanged);
  markChanged();
  return { el, overrides, showErrors, offerFitted };
}
