// "/strategy/thousand": classic Dice 1000's solved strategy (docs/strategy.md). The map (own × opponent's score) shows
// either the chance to win at the start of the turn or the smallest turn total to bank with k dice in hand, for the
// mover's situation (no bolts or falls, one bolt short of the penalty, one fall short of 0); a cell hovered, focused
// or tapped is said in words beside it (aria-live). Below: how the situations change the answer, the barrel's map,
// the opening turn, and the map as a table. Every number comes from GET /api/strategy/thousand.
import "./strategy.css";
import { api, type Estimate, type ExactHouseRow, type HouseRules, type Practical, type StrategyData, type StrategyMapData } from "./api";
import { append, clear, h } from "./dom";
import { currentLanguage, formatList, formatNumber, t, tKey, type MessageId } from "./i18n";
import { BANK_STOPS, css, ramp, StrategyMap, WIN_STOPS } from "./strategy-map";

type Kind = "win" | "bank";
const SITUATIONS = ["plain", "bolts", "falls"] as const;
/** A box a wide table scrolls in: focusable, so that the keyboard scrolls it too (axe: scrollable-region-focusable). */
const scroller = (): Record<string, string | number> => ({ class: "strategy-table-scroll", tabindex: 0, role: "region", "aria-label": t("strategy.page.scroll") });
type Situation = (typeof SITUATIONS)[number];

export const pct = (w: number): string => `${formatNumber(Math.round(w * 1000) / 10)} %`;
const BANK_TOP = 600;
/** The colour scale of win chances spans 20–80 % (the map's range: 28–72 % on classic), so that neighbours differ. */
const WIN_LO = 0.2;
const WIN_SPAN = 0.6;
const winShade = (w: number): number => (w - WIN_LO) / WIN_SPAN;

function pitOf(d: StrategyData, score: number): number[] | null {
  return d.rules.pits.find(([lo, hi]) => score >= lo && score < hi) ?? null;
}

/** The totals above the threshold where optimal play rolls, as "300–320, 555 and 605". */
function rollsWords(ranges: number[][]): string {
  return formatList(ranges.map(([a, b]) => (a === b ? formatNumber(a) : `${formatNumber(a)}–${formatNumber(b)}`)));
}

/** Runs of totals without `skip` (the total that would land on the dump truck: said once, not on every line). */
function without(ranges: number[][], skip: number | null): number[][] {
  return ranges.flatMap(([a, b]) => (skip === null || skip < a || skip > b ? [[a, b]] : [a < skip ? [a, skip - 5] : null, b > skip ? [skip + 5, b] : null].filter((r): r is number[] => r !== null)));
}

/** What to do with `n` dice in hand at cell (i, j) of `m`, in words; `dumpTotal`: the turn total that would land
 * on the dump truck (left out of the exceptions, said once below them). */
export function adviceWords(m: StrategyMapData, i: number, j: number, n: number, dumpTotal: number | null = null): string {
  const bank = m.bank[i][j][n - 1];
  if (bank === null) return t("strategy.page.bank_never", { n });
  const but = without(m.rolls_above[i][j][n - 1], dumpTotal);
  return t("strategy.page.bank_at", { n, total: bank }) + (but.length ? t("strategy.page.but_roll", { totals: rollsWords(but) }) : "");
}

function situationWords(d: StrategyData, s: Situation): string {
  const r = d.rules;
  return t(`strategy.page.situation.${s}` as MessageId, { bolts: Math.max(r.bolts_count - 1, 0), penalty: r.bolt_penalty, falls: Math.max(r.barrel_falls_to_zero - 1, 0) });
}

const fixed = (v: number, digits: number): string => formatNumber(Math.round(v * 10 ** digits) / 10 ** digits);

/** "51.2 %" with its interval "49.8–52.6" under it. */
function estimate(e: Estimate, scale: number, digits: number, unit: string): (HTMLElement | string)[] {
  return [`${fixed(e.value * scale, digits)}${unit}`, h("br"), h("span", { class: "muted small" }, `${fixed(e.low * scale, digits)}–${fixed(e.high * scale, digits)}`)];
}

/** The house rules compared: every preset's first-player edge, length and barrel / dump-truck figures; then how
 * often each house rule decided the game. Under each preset its exact row (bot:optimal valued by the exact table,
 * with the table's own first-player chance beside the simulated one), or "not solved yet" where no table is. */
function houseRulesTable(hr: HouseRules, first: number): HTMLElement {
  const cols: MessageId[] = ["strategy.page.house.preset", "strategy.page.house.first", "strategy.page.house.solver_first", "strategy.page.house.turns", "strategy.page.house.dump", "strategy.page.house.fall", "strategy.page.house.falls"];
  const decidedCols: MessageId[] = ["strategy.page.house.preset", "strategy.page.house.decided.dump", "strategy.page.house.decided.fall", "strategy.page.house.decided.pit_refused", "strategy.page.house.decided.pit"];
  const rate = (e: Estimate, shown: boolean) => h("td", null, shown ? estimate(e, 100, 1, " %") : "—");
  const exactOf = new Map(hr.exact.map((ex) => [ex.preset, ex]));
  const unsolved = new Set(hr.unsolved);
  const presetName = (p: string) => tKey(`preset.thousand.${p}`, p);
  // the preset's name is the row above's: said to a screen reader (which may read the row alone), not shown again
  const exactName = (p: string) => h("th", { scope: "row" }, h("span", { class: "sr-only" }, `${presetName(p)}: `), t("strategy.page.house.exact_row"));
  const exactTr = (p: string, solved: boolean, cells: HTMLElement[]) =>
    h("tr", { "data-preset": "exact", "data-rules": p, class: solved ? "exact-row" : "exact-row unsolved" }, exactName(p), cells);
  const tooLarge = new Set(hr.too_large ?? []);
  const notSolved = (p: string, span: number, why: MessageId) => exactTr(p, false, [h("td", { colspan: span, class: "muted unsolved" }, h("span", null, t(why)))]);
  const exactRows = (p: string, span: number, cells: (ex: ExactHouseRow) => HTMLElement[]): HTMLElement[] => {
    const ex = exactOf.get(p);
    if (ex) return [exactTr(p, true, cells(ex))];
    if (tooLarge.has(p)) return [notSolved(p, span, "strategy.page.house.too_large")];
    return unsolved.has(p) ? [notSolved(p, span, "strategy.page.house.unsolved")] : [];
  };
  const effects = hr.presets.flatMap((r) => [
    h(
      "tr",
      { "data-preset": r.preset },
      h("th", { scope: "row" }, presetName(r.preset)),
      rate(r.first_player_wins, true),
      h("td", null, "—"),
      h("td", null, estimate(r.turns, 1, 1, "")),
      rate(r.games_with_dump_truck, r.dump_truck),
      rate(r.games_with_barrel_fall, r.barrel !== "none"),
      h("td", null, r.barrel !== "none" ? fixed(r.barrel_falls_per_game, 2) : "—"),
    ),
    ...exactRows(r.preset, cols.length - 1, (ex) => [
      rate(ex.first_player_wins, true),
      h("td", { "data-testid": "strategy-house-solver-first" }, `${fixed(100 * ex.solver_first_player_wins, 2)} %`),
      h("td", null, estimate(ex.turns, 1, 1, "")),
      rate(ex.games_with.dump_truck, r.dump_truck),
      rate(ex.games_with.barrel, r.barrel !== "none"),
      h("td", null, r.barrel !== "none" ? fixed(ex.barrel_falls_per_game, 2) : "—"),
    ]),
  ]);
  const decided = hr.presets.flatMap((r) => [
    h(
      "tr",
      { "data-preset": r.preset },
      h("th", { scope: "row" }, presetName(r.preset)),
      rate(r.decided_by.dump_truck, r.dump_truck),
      rate(r.decided_by.barrel, r.barrel !== "none"),
      rate(r.games_with_pit_refusal, r.pits.length > 0),
      rate(r.decided_by.pit, r.pits.length > 0),
    ),
    ...exactRows(r.preset, decidedCols.length - 1, (ex) => [
      rate(ex.decided_by.dump_truck, r.dump_truck),
      rate(ex.decided_by.barrel, r.barrel !== "none"),
      rate(ex.games_with.pit, r.pits.length > 0),
      rate(ex.decided_by.pit, r.pits.length > 0),
    ]),
  ]);
  const swing = (e: (Estimate & { n: number }) | null): string => (e === null ? "—" : `${fixed(100 * e.value, 2)} (${fixed(100 * e.low, 2)}…${fixed(100 * e.high, 2)})`);
  // the title above the box, not a caption inside it: on a phone the table scrolls sideways, its title must not
  const table = (testid: string, title: string, heads: MessageId[], rows: HTMLElement[]) => [
    h("p", { class: "strategy-table-title", id: `${testid}-title`, "data-testid": `${testid}-title` }, title),
    h(
      "div",
      scroller(),
      h(
        "table",
        { class: "strategy-grid-table house-rules", "data-testid": testid, "aria-labelledby": `${testid}-title` },
        h("thead", null, h("tr", null, heads.map((c) => h("th", { scope: "col" }, t(c))))),
        h("tbody", null, rows),
      ),
    ),
  ];
  return h(
    "div",
    null,
    table("strategy-house-rules", t("strategy.page.house.title", { games: hr.games }), cols, effects),
    table("strategy-house-decided", t("strategy.page.house.decided_title", { games: hr.games }), decidedCols, decided),
    h("p", { class: "muted small" }, t("strategy.page.house.decided_note")),
    hr.exact.map((ex) =>
      h("p", { class: "muted small", "data-testid": "strategy-house-swing", "data-rules": ex.preset }, t("strategy.page.house.exact_note", { preset: presetName(ex.preset), games: ex.games, dump: swing(ex.swing.dump_truck), fall: swing(ex.swing.barrel), pit: swing(ex.swing.pit) })),
    ),
    h("p", { class: "muted small" }, t("strategy.page.house.note", { first: pct(first) })),
  );
}

const RULE_COLUMNS: MessageId[] = ["strategy.page.rule.col.play", "strategy.page.rule.col.wins", "strategy.page.rule.col.games"];

/** A percentage with exactly one decimal ("48.0", not "48"): the interval's two ends read alike. */
const tenths = (v: number): string => new Intl.NumberFormat(currentLanguage(), { minimumFractionDigits: 1, maximumFractionDigits: 1 }).format(v);

/** A bot of the measured rows in words: the rule, another set of its numbers, a single threshold, the expert. */
function ruleRowName(bot: string, rule: Practical["rule"], barrel: number | null): string {
  const [kind, ...nums] = bot.split(":");
  const n = nums.map(Number);
  if (kind === "practical") return t("strategy.page.rule.row.practical");
  if (kind === "single") return t("strategy.page.rule.row.single", { threshold: n[0], few: n[1] });
  if (kind === "rule" && n[0] === rule.threshold && n[1] === rule.few && n[2] === barrel) return t("strategy.page.rule.row.no_climb");
  if (kind === "expert") return t("strategy.page.rule.row.expert");
  return bot;
}

/** "A rule to remember": the practical rule in words and what it costs against perfect play, beside other rules. */
export function practicalSection(p: Practical, dump: number | null, barrel: number | null): HTMLElement {
  const r = p.rule;
  return h(
    "section",
    { class: "strategy-rule", "aria-labelledby": "strategy-rule-title", "data-testid": "strategy-rule" },
    h("h2", { id: "strategy-rule-title" }, t("strategy.page.rule.title")),
    h("p", { class: "strategy-rule-text", "data-testid": "strategy-rule-text" }, h("strong", null, t("strategy.page.rule.text", { many: r.few + 1, threshold: r.threshold, few: r.few, climb: r.climb }))),
    h("p", { class: "small" }, t("strategy.page.rule.forced", { dump: dump ?? 0 })),
    h(
      "div",
      scroller(),
      h(
        "table",
        { class: "strategy-grid-table strategy-rule-table", "data-testid": "strategy-rule-table" },
        h("caption", null, t("strategy.page.rule.caption")),
        h("thead", null, h("tr", null, RULE_COLUMNS.map((c) => h("th", { scope: "col" }, t(c))))),
        h(
          "tbody",
          null,
          p.rows.map((row) =>
            h(
              "tr",
              { "data-bot": row.bot },
              h("th", { scope: "row" }, ruleRowName(row.bot, r, barrel)),
              h("td", null, pct(row.wins / row.games), h("br"), h("span", { class: "muted small" }, `${tenths(row.ci95[0] * 100)}–${tenths(row.ci95[1] * 100)}`)),
              h("td", null, formatNumber(row.games)),
            ),
          ),
        ),
      ),
    ),
    h("p", { class: "muted small" }, t("strategy.page.rule.note")),
  );
}

export function renderStrategy(app: HTMLElement): () => void {
  let data: StrategyData | null = null;
  let kind: Kind = "win";
  let dice = 5;
  let situation: Situation = "plain";
  let at: [number, number] = [0, 0];
  let map: StrategyMap | null = null;

  const kindBox = h("div", { class: "seg", role: "radiogroup", "aria-labelledby": "strategy-kind-label" });
  const diceBox = h("div", { class: "seg", role: "radiogroup", "aria-labelledby": "strategy-dice-label" });
  const sitSelect = h("select", { id: "strategy-situation", "data-testid": "strategy-situation" });
  const mapBox = h("div", { class: "strategy-map-box", "data-testid": "strategy-map-box" }, h("p", { class: "muted" }, t("strategy.page.loading")));
  const details = h("div", { class: "strategy-details", "aria-live": "polite", tabindex: 0, role: "region", "aria-label": t("strategy.page.details"), "data-testid": "strategy-details" });
  const legend = h("div", { class: "strategy-legend small", "data-testid": "strategy-legend" });
  const notes = h("section", { class: "strategy-notes", "data-testid": "strategy-notes" });
  const tableBox = h("details", { class: "strategy-table" });
  const ruleBox = h("div", { "data-testid": "strategy-rule-box" });
  const intro = h("p", { class: "strategy-intro" });

  app.append(
    h(
      "section",
      { class: "card strategy-page", "data-testid": "strategy-page" },
      h("h1", null, t("strategy.page.title")),
      intro,
      h(
        "div",
        { class: "strategy-controls" },
        h("div", { class: "control" }, h("span", { id: "strategy-kind-label", class: "label" }, t("strategy.page.map_label")), kindBox),
        h("div", { class: "control" }, h("span", { id: "strategy-dice-label", class: "label" }, t("strategy.page.dice_label")), diceBox),
        h("div", { class: "control" }, h("label", { for: "strategy-situation", class: "label" }, t("strategy.page.situation_label")), sitSelect),
      ),
      h("div", { class: "strategy-body" }, h("div", { class: "strategy-side" }, details, legend), mapBox),
      tableBox,
      ruleBox,
      notes,
    ),
  );

  const radio = (box: HTMLElement, name: string, value: string, label: string, checked: boolean, pick: () => void): void => {
    const id = `strategy-${name}-${value}`;
    box.append(h("input", { type: "radio", name: `strategy-${name}`, id, value, checked, "data-testid": id, onchange: pick }), h("label", { for: id }, label));
  };

  const current = (): StrategyMapData => (data as StrategyData).situations[situation];

  const showCell = (i: number, j: number): void => {
    if (!data) return;
    at = [i, j];
    const d = data;
    const m = current();
    const own = d.scores[i];
    const opp = d.scores[j];
    const facts: string[] = [t("strategy.page.position", { own, opp })];
    const pit = pitOf(d, own);
    if (d.rules.barrel !== null && own === d.rules.barrel) facts.push(t("strategy.page.on_barrel", { need: d.rules.target - own }));
    else if (pit) facts.push(t("strategy.page.in_pit", { high: pit[1] }));
    if (d.rules.barrel !== null && opp === d.rules.barrel) facts.push(t("strategy.page.opp_barrel"));
    if (situation !== "plain") facts.push(situationWords(d, situation));
    const dumpTotal = d.rules.dump_truck !== null && own < d.rules.dump_truck ? d.rules.dump_truck - own : null;
    const dumped = m.rolls_above[i][j].some((runs) => runs.some(([a, b]) => dumpTotal !== null && a <= dumpTotal && dumpTotal <= b));
    clear(details);
    append(details, [
      h("p", { class: "strategy-position", "data-testid": "strategy-position" }, facts.join(" ")),
      h("p", { class: "strategy-win" }, t("strategy.page.win"), " ", h("strong", { "data-testid": "strategy-win" }, pct(m.win[i][j]))),
      h("p", { class: "label" }, t("strategy.page.todo")),
      h(
        "ul",
        { class: "strategy-advice", "data-testid": "strategy-advice" },
        [5, 4, 3, 2, 1].map((n) => h("li", { class: kind === "bank" && n === dice ? "chosen" : "", "data-dice": n }, adviceWords(m, i, j, n, dumpTotal))),
      ),
      dumpTotal !== null && dumped ? h("p", { class: "muted" }, t("strategy.page.note.dump", { dump: d.rules.dump_truck ?? 0 })) : null,
    ]);
  };

  const cellText = (m: StrategyMapData, i: number, j: number): string => {
    if (kind === "win") return formatNumber(Math.round(m.win[i][j] * 100));
    const b = m.bank[i][j][dice - 1];
    return (b === null ? "—" : formatNumber(b)) + ((m.mixed[i][j] >> (dice - 1)) & 1 ? "*" : "");
  };

  const drawTable = (d: StrategyData, m: StrategyMapData): void => {
    clear(tableBox);
    append(tableBox, [
      h("summary", null, t("strategy.page.table")),
      h(
        "div",
        scroller(),
        h(
          "table",
          { class: "strategy-grid-table", "data-testid": "strategy-table" },
          h("caption", null, mapName()),
          h("thead", null, h("tr", null, h("th", { scope: "col" }, t("strategy.page.you_opp")), d.scores.map((s) => h("th", { scope: "col" }, formatNumber(s))))),
          h("tbody", null, d.scores.map((s, i) => h("tr", null, h("th", { scope: "row" }, formatNumber(s)), d.scores.map((_, j) => h("td", null, cellText(m, i, j)))))),
        ),
      ),
    ]);
  };

  const mapName = (): string => (kind === "win" ? t("strategy.page.map_name.win") : t("strategy.page.map_name.bank", { n: dice })) + ` (${situationWords(data as StrategyData, situation)})`;

  const drawLegend = (d: StrategyData): void => {
    clear(legend);
    const stops = kind === "win" ? WIN_STOPS : BANK_STOPS;
    const swatches = [0, 0.25, 0.5, 0.75, 1].map((f) =>
      h("span", { class: "swatch-item" }, h("span", { class: "swatch", style: `background:${css(ramp(stops, f))}` }), kind === "win" ? `${formatNumber(Math.round((WIN_LO + f * WIN_SPAN) * 100))} %` : formatNumber(f * BANK_TOP)),
    );
    append(legend, [
      h("p", null, t(kind === "win" ? "strategy.page.legend.win" : "strategy.page.legend.bank")),
      h("p", { class: "swatches", "aria-hidden": "true" }, swatches),
      h(
        "p",
        { class: "keys" },
        h("span", null, h("span", { class: "frame-key pit", "aria-hidden": "true" }), t("strategy.page.legend.pit", { pits: formatList(d.rules.pits.map(([lo, hi]) => `${formatNumber(lo)}–${formatNumber(hi - 5)}`)) })),
        d.rules.barrel === null ? null : h("span", null, " ", h("span", { class: "frame-key barrel", "aria-hidden": "true" }), t("strategy.page.legend.barrel", { barrel: d.rules.barrel })),
      ),
    ]);
  };

  const drawMap = (): void => {
    if (!data) return;
    const d = data;
    const m = current();
    map = new StrategyMap(
      {
        scores: d.scores,
        cell: (i, j) => {
          if (kind === "win") return { text: cellText(m, i, j), fill: ramp(WIN_STOPS, winShade(m.win[i][j])) };
          const b = m.bank[i][j][dice - 1];
          return { text: cellText(m, i, j), fill: b === null ? [255, 255, 255] : ramp(BANK_STOPS, b / BANK_TOP) };
        },
        label: (i, j) => {
          // the visible number is part of the name (axe: label-content-name-mismatch)
          const words = { own: d.scores[i], opp: d.scores[j], text: cellText(m, i, j) };
          if (kind === "win") return t("strategy.page.cell.win", words);
          return t(m.bank[i][j][dice - 1] === null ? "strategy.page.cell.never" : "strategy.page.cell.bank", words);
        },
        pits: d.rules.pits,
        barrel: d.rules.barrel,
        name: mapName(),
      },
      showCell,
    );
    clear(mapBox);
    mapBox.append(map.svg);
    drawLegend(d);
    drawTable(d, m);
    showCell(...at);
  };

  const redraw = (): void => {
    drawMap();
    drawNotes();
    for (const input of diceBox.querySelectorAll("input")) (input as HTMLInputElement).disabled = kind !== "bank";
  };

  const drawNotes = (): void => {
    if (!data) return;
    const d = data;
    const r = d.rules;
    const plain = d.situations.plain;
    const compare = (s: Situation): string => {
      const other = d.situations[s];
      let lower = 0;
      let higher = 0;
      plain.bank.forEach((row, i) =>
        row.forEach((cell, j) => {
          const a = cell[dice - 1] ?? Infinity;
          const b = other.bank[i][j][dice - 1] ?? Infinity;
          if (b < a) lower++;
          else if (b > a) higher++;
        }),
      );
      return t("strategy.page.note.compare", { situation: situationWords(d, s), n: dice, lower, higher, cells: d.scores.length ** 2 });
    };
    clear(notes);
    const barrel = d.on_barrel;
    append(notes, [
      h("h2", null, t("strategy.page.notes")),
      h("ul", null, [
        h("li", null, t("strategy.page.note.pit", { pits: formatList(r.pits.map(([lo, hi]) => `${formatNumber(lo)}–${formatNumber(hi - 5)}`)) })),
        r.barrel === null ? null : h("li", null, t("strategy.page.note.barrel", { barrel: r.barrel, need: r.target - r.barrel })),
        r.dump_truck === null ? null : h("li", null, t("strategy.page.note.dump", { dump: r.dump_truck })),
        h("li", { "data-testid": "strategy-note-bolts" }, compare("bolts")),
        h("li", { "data-testid": "strategy-note-falls" }, compare("falls")),
      ]),
      barrel === null
        ? null
        : h(
            "div",
            scroller(),
            h(
              "table",
              { class: "strategy-grid-table", "data-testid": "strategy-barrel" },
              h("caption", null, t("strategy.page.barrel_map", { barrel: r.barrel ?? 0 })),
              h("thead", null, h("tr", null, h("th", { scope: "col" }, t("strategy.page.opponent_has")), d.scores.map((s) => h("th", { scope: "col" }, formatNumber(s))))),
              h(
                "tbody",
                null,
                barrel.rows.map((row, k) =>
                  h("tr", null, h("th", { scope: "row" }, t("strategy.page.barrel_row", { attempt: row.attempt, n: row.falls })), barrel.win[k].map((w) => h("td", { style: `background:${css(ramp(WIN_STOPS, winShade(w) * 0.5))}` }, formatNumber(Math.round(w * 100))))),
                ),
              ),
            ),
          ),
      houseRulesTable(d.house_rules, d.first_player),
      h(
        "div",
        scroller(),
        h(
          "table",
          { class: "strategy-grid-table", "data-testid": "strategy-opening" },
          h("caption", null, t("strategy.page.opening", { need: r.open_min })),
          h("thead", null, h("tr", null, h("th", { scope: "col" }, t("strategy.page.opponent_has")), d.scores.map((s) => h("th", { scope: "col" }, formatNumber(s))))),
          h(
            "tbody",
            null,
            [5, 4, 3, 2, 1].map((n) =>
              h("tr", null, h("th", { scope: "row" }, t("strategy.page.dice_row", { n })), d.opening.bank.map((b) => h("td", null, b[n - 1] === null ? "—" : formatNumber(b[n - 1] as number)))),
            ),
            h("tr", null, h("th", { scope: "row" }, t("strategy.page.win_row")), d.opening.win.map((w) => h("td", null, formatNumber(Math.round(w * 100))))),
          ),
        ),
      ),
    ]);
  };

  radio(kindBox, "kind", "win", t("strategy.page.map.win"), true, () => ((kind = "win"), redraw()));
  radio(kindBox, "kind", "bank", t("strategy.page.map.bank"), false, () => ((kind = "bank"), redraw()));
  for (const n of [5, 4, 3, 2, 1]) radio(diceBox, "dice", String(n), formatNumber(n), n === 5, () => ((dice = n), redraw()));

  let alive = true;
  api
    .strategy()
    .then((d) => {
      if (!alive) return;
      data = d;
      intro.textContent = `${t("strategy.page.intro", { first: pct(d.first_player) })} ${t("strategy.page.hint")}`;
      ruleBox.append(practicalSection(d.practical, d.rules.dump_truck, d.rules.barrel));
      for (const s of SITUATIONS) sitSelect.append(h("option", { value: s }, situationWords(d, s)));
      sitSelect.addEventListener("change", () => {
        situation = sitSelect.value as Situation;
        redraw();
      });
      redraw();
    })
    .catch(() => {
      if (!alive) return;
      clear(mapBox);
      mapBox.append(h("p", { class: "error", role: "alert" }, t("strategy.page.failed")));
    });
  return () => {
    alive = false;
  };
}
