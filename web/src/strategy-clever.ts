// "/strategy/clever": where Clever's master bot's points come from (docs/strategy.md, "Clever"). Two bar pictures
// (points by area and foxes, points by round: each bar named and numbered, the colour only a help), then the
// tables: every table size's areas, the rounds with their bonuses, the dice colours, +1 and re-roll, and the first
// round's choices that matter most. Every number comes from GET /api/strategy/clever; the views are pure functions
// of it.
import "./strategy.css";
import "./strategy-clever.css";
import { api, type CleverStrategyData, type Interval } from "./api";
import { clear, h } from "./dom";
import { currentLanguage, formatNumber, t, tKey, type MessageId } from "./i18n";

const AREAS = ["yellow", "blue", "green", "orange", "purple"] as const;
// The ids written out, so that the catalogue check finds each one used.
const ROW: Record<string, MessageId> = {
  yellow: "strategy.clever.row.yellow",
  blue: "strategy.clever.row.blue",
  green: "strategy.clever.row.green",
  orange: "strategy.clever.row.orange",
  purple: "strategy.clever.row.purple",
  fox_points: "strategy.clever.row.fox_points",
  foxes: "strategy.clever.row.foxes",
  total: "strategy.clever.row.total",
};
const COL: Record<string, MessageId> = {
  round: "strategy.clever.col.round",
  gained: "strategy.clever.col.gained",
  total: "strategy.clever.col.total",
  plus_gained: "strategy.clever.col.plus_gained",
  plus_used: "strategy.clever.col.plus_used",
  reroll_gained: "strategy.clever.col.reroll_gained",
  reroll_used: "strategy.clever.col.reroll_used",
  die: "strategy.clever.col.die",
  offered: "strategy.clever.col.offered",
  picked: "strategy.clever.col.picked",
  share: "strategy.clever.col.share",
  worth: "strategy.clever.col.worth",
  plus_more: "strategy.clever.col.plus_more",
  plus_use: "strategy.clever.col.plus_use",
  reroll_more: "strategy.clever.col.reroll_more",
  reroll_use: "strategy.clever.col.reroll_use",
  when: "strategy.clever.col.when",
  best: "strategy.clever.col.best",
  second: "strategy.clever.col.second",
  per_100: "strategy.clever.col.per_100",
  margin: "strategy.clever.col.margin",
};
const DIE: Record<string, MessageId> = {
  white: "strategy.clever.die.white",
  yellow: "strategy.clever.die.yellow",
  blue: "strategy.clever.die.blue",
  green: "strategy.clever.die.green",
  orange: "strategy.clever.die.orange",
  purple: "strategy.clever.die.purple",
};
const SITUATION: Record<string, MessageId> = {
  roll1: "strategy.clever.situation.roll1",
  roll2: "strategy.clever.situation.roll2",
  roll3: "strategy.clever.situation.roll3",
  passive: "strategy.clever.situation.passive",
  plus: "strategy.clever.situation.plus",
  bonus: "strategy.clever.situation.bonus",
  other: "strategy.clever.situation.other",
};
const CHOICE: Record<string, MessageId> = {
  pick: "strategy.clever.choice.pick",
  plus: "strategy.clever.choice.plus",
  cross: "strategy.clever.choice.cross",
  black: "strategy.clever.choice.black",
  reroll: "strategy.clever.choice.reroll",
  forfeit: "strategy.clever.choice.forfeit",
  stop: "strategy.clever.choice.stop",
  pass: "strategy.clever.choice.pass",
};
/** A message by its table (unknown keys, from a newer file: the key itself). */
const say = (ids: Record<string, MessageId>, key: string, params = {}): string => (key in ids ? t(ids[key], params) : key);
const LETTER_DIE: Record<string, string> = { W: "white", Y: "yellow", B: "blue", G: "green", O: "orange", P: "purple" };
const LETTER_AREA: Record<string, string> = { Y: "yellow", B: "blue", G: "green", O: "orange", P: "purple" };

export const fixed = (v: number, digits: number): string =>
  new Intl.NumberFormat(currentLanguage(), { minimumFractionDigits: digits, maximumFractionDigits: digits }).format(v);

/** "52.4 ± 0.2": a mean and its 95 % interval's half-width. */
export const pm = (e: Interval, digits = 1): string => `${fixed(e.mean, digits)} ± ${fixed((e.high - e.low) / 2, digits)}`;

/** A choice of the first-round table in words ("the white die → yellow", "re-roll"; "pick:Y:Y@r2c3": "the yellow
 * die, row 2, column 3", where only the cell tells two choices apart). */
export function choiceWords(full: string): string {
  const [code, cell] = full.split("@");
  const words = choice(code);
  return cell ? t("strategy.clever.choice.cell", { choice: words, row: cell[1], column: cell[3] }) : words;
}

function choice(code: string): string {
  const [kind, a, b] = code.split(":");
  if (kind === "pick" && a !== "W") return tKey(`clever.die.${LETTER_DIE[a]}`, a);
  if (kind === "pick" || kind === "plus") return say(CHOICE, kind, { die: tKey(`clever.die.${LETTER_DIE[a]}`, a), area: tKey(`clever.area.${LETTER_AREA[b]}`, b) });
  if (kind === "cross" || kind === "black") return say(CHOICE, kind, { area: tKey(`clever.area.${LETTER_AREA[a]}`, a) });
  return say(CHOICE, kind);
}

export interface Bar {
  name: string;
  value: number;
  /** The bar's colour class (an area's colour, the foxes'). */
  tone: string;
  interval?: Interval;
  /** The bar split by where its points came from (each part's tone and points). */
  parts?: { tone: string; name: string; value: number }[];
}

/** Named, numbered bars in a list (the bars themselves are a picture for the eye, hidden from screen readers). */
export function barChart(caption: string, bars: Bar[], testid: string, legend: HTMLElement | null = null): HTMLElement {
  const top = Math.max(...bars.map((b) => b.value), 1);
  const width = (v: number): string => `width:${((100 * Math.max(v, 0)) / top).toFixed(2)}%`;
  const label = (b: Bar): string =>
    t("strategy.clever.page.bar", { name: b.name, value: fixed(b.value, 1) }) + (b.parts ? ` (${b.parts.map((p) => `${p.name} ${fixed(p.value, 1)}`).join(", ")})` : "");
  return h(
    "figure",
    { class: "clever-bars", "data-testid": testid },
    h("figcaption", null, caption),
    legend,
    h(
      "ul",
      null,
      bars.map((b) =>
        h(
          "li",
          { "aria-label": label(b) },
          h("span", { class: "bar-name", "aria-hidden": "true" }, b.name),
          h(
            "span",
            { class: "bar-track", "aria-hidden": "true" },
            b.parts ? b.parts.map((p) => h("span", { class: `bar tone-${p.tone}`, style: width(p.value) })) : h("span", { class: `bar tone-${b.tone}`, style: width(b.value) }),
          ),
          h("span", { class: "bar-value", "aria-hidden": "true" }, b.interval ? pm(b.interval) : fixed(b.value, 1)),
        ),
      ),
    ),
  );
}

export function areaBars(d: CleverStrategyData): HTMLElement {
  const a = d.tables["1"].areas;
  const bars: Bar[] = AREAS.map((k) => ({ name: say(ROW, k), value: a[k].mean, tone: k, interval: a[k] }));
  bars.push({ name: t("strategy.clever.row.fox_points"), value: a.fox_points.mean, tone: "fox", interval: a.fox_points });
  return barChart(t("strategy.clever.page.area_bars"), bars, "clever-area-bars");
}

const PART_TONES = [...AREAS, "fox"] as const;
const partName = (tone: string): string => say(ROW, tone === "fox" ? "fox_points" : tone);

/** Points gained each round, each bar split by area and foxes (the split named in a legend and in each bar's
 * name for screen readers). */
export function roundBars(d: CleverStrategyData): HTMLElement {
  const s = d.tables["1"].rounds;
  const legend = h(
    "p",
    { class: "bar-legend small", "aria-hidden": "true" },
    PART_TONES.map((tone) => h("span", null, h("span", { class: `swatch tone-${tone}` }), partName(tone))),
  );
  return barChart(
    t("strategy.clever.page.round_bars"),
    s.gained.map((e, r) => ({
      name: t("strategy.clever.page.round_label", { n: r + 1 }),
      value: e.mean,
      tone: "round",
      interval: e,
      parts: PART_TONES.map((tone, k) => ({ tone, name: partName(tone), value: s.areas[r][k] })),
    })),
    "clever-round-bars",
    legend,
  );
}

/** A table in a box that scrolls sideways on a narrow screen (focusable: axe's scrollable-region-focusable). */
function table(caption: string, head: string[], rows: (string | HTMLElement)[][], testid: string, note: string, extra = ""): HTMLElement {
  return h(
    "div",
    { class: "clever-table-block" },
    h(
      "div",
      { class: "strategy-table-scroll", tabindex: 0, role: "region", "aria-label": caption },
      h(
        "table",
        { class: `strategy-grid-table clever-table ${extra}`.trim(), "data-testid": testid },
        h("caption", null, caption),
        h("thead", null, h("tr", null, head.map((c) => h("th", { scope: "col" }, c)))),
        h("tbody", null, rows.map(([first, ...rest]) => h("tr", null, h("th", { scope: "row" }, first), rest.map((c) => h("td", null, c))))),
      ),
    ),
    h("p", { class: "muted small" }, note),
  );
}

export function areaTable(d: CleverStrategyData): HTMLElement {
  const sizes = Object.keys(d.tables);
  const head = [t("strategy.clever.col.area"), ...sizes.map((n) => (n === "1" ? t("strategy.clever.col.solo") : t("strategy.clever.col.players", { n: Number(n) })))];
  const keys = [...AREAS, "fox_points", "foxes", "total"];
  const rows = keys.map((k) => [say(ROW, k), ...sizes.map((n) => pm(d.tables[n].areas[k], k === "foxes" ? 2 : 1))]);
  return table(t("strategy.clever.areas.title"), head, rows, "clever-areas", t("strategy.clever.areas.note"));
}

export function roundTable(d: CleverStrategyData): HTMLElement {
  const s = d.tables["1"];
  const cols = ["round", "gained", "total", "plus_gained", "plus_used", "reroll_gained", "reroll_used"];
  const b = s.bonuses;
  const rows = s.rounds.gained.map((e, r) => [
    formatNumber(r + 1),
    pm(e),
    fixed(s.rounds.total[r], 1),
    ...[b.plus_gained, b.plus_used, b.reroll_gained, b.reroll_used].map((x) => fixed(x[r], 2)),
  ]);
  return table(t("strategy.clever.rounds.title"), cols.map((c) => say(COL, c)), rows, "clever-rounds", t("strategy.clever.rounds.note"));
}

export function colourTable(d: CleverStrategyData): HTMLElement {
  const cols = ["die", "offered", "picked", "share", "worth"];
  const rows = [...d.colours]
    .sort((x, y) => y.edge.mean - x.edge.mean)
    .map((c) => [
      h("span", null, h("span", { class: `swatch tone-${c.die}`, "aria-hidden": "true" }), say(DIE, c.die)),
      fixed(c.offered_per_game, 1),
      fixed(c.picked_per_game, 1),
      `${fixed(100 * c.pick_share, 0)} %`,
      pm(c.edge, 2),
    ]);
  return table(t("strategy.clever.colours.title"), cols.map((c) => say(COL, c)), rows, "clever-colours", t("strategy.clever.colours.note"));
}

function used(e: Interval & { per_game: number }): string {
  return e.per_game ? `${pm(e)} (${fixed(e.per_game, 2)})` : "—";
}

export function actionTable(d: CleverStrategyData): HTMLElement {
  const cols = ["round", "plus_more", "plus_use", "reroll_more", "reroll_use"];
  const rows = d.actions.plus.map((p, r) => [formatNumber(r + 1), fixed(p.mean, 1), used(d.used.plus[r]), fixed(d.actions.reroll[r].mean, 1), used(d.used.reroll[r])]);
  return table(t("strategy.clever.actions.title"), cols.map((c) => say(COL, c)), rows, "clever-actions", t("strategy.clever.actions.note"));
}

export function firstRoundTable(d: CleverStrategyData): HTMLElement {
  const f = d.first_round;
  const cols = ["when", "best", "second", "per_100", "margin"];
  const rows = f.choices.map((c) => [say(SITUATION, c.situation), choiceWords(c.best), choiceWords(c.second), fixed(c.per_100_games, 1), fixed(c.margin, 1)]);
  return table(
    t("strategy.clever.first.title", { cut: fixed(f.cut, 1) }),
    cols.map((c) => say(COL, c)),
    rows,
    "clever-first",
    t("strategy.clever.first.note", { share: fixed(100 * f.shown_share, 0) }),
    "choices",
  );
}

export function cleverStrategyBody(d: CleverStrategyData): HTMLElement[] {
  return [
    h("p", { class: "strategy-intro", "data-testid": "clever-intro" }, t("strategy.clever.page.intro", { games: d.tables["1"].games, tables: d.tables["2"]?.games ?? 0 })),
    h("div", { class: "clever-pictures" }, areaBars(d), roundBars(d)),
    areaTable(d),
    roundTable(d),
    colourTable(d),
    actionTable(d),
    firstRoundTable(d),
  ];
}

export function renderCleverStrategy(app: HTMLElement): () => void {
  const body = h("div", { class: "clever-strategy-body" }, h("p", { class: "muted", role: "status" }, t("strategy.clever.page.loading")));
  app.append(h("section", { class: "card strategy-page", "data-testid": "clever-strategy-page" }, h("h1", null, t("strategy.clever.page.title")), body));
  let alive = true;
  api
    .cleverStrategy()
    .then((d) => {
      if (!alive) return;
      clear(body);
      body.append(...cleverStrategyBody(d));
    })
    .catch(() => {
      if (!alive) return;
      clear(body);
      body.append(h("p", { class: "error", role: "alert" }, t("strategy.clever.page.failed")));
    });
  return () => {
    alive = false;
  };
}
