// The Clever game-over card: the winner (or the solo score and its rating), and each player's areas, foxes and
// total side by side (a column per player: four fit a phone), with the tie-break when there is one.
import type { View } from "../api";
import { h } from "../dom";
import { formatNumber, t } from "../i18n";
import { read, type SheetModel } from "./clever-model";
import { areaWord, ratingText, tieBreakText } from "./clever-words";

export function cleverSummary(state: View, name: (seat: number) => string): { headline: string; body: HTMLElement } {
  const m = read(state);
  const solo = m.sheets.length === 1;
  const headline = solo ? t("clever.over.solo", { total: m.sheets[0]?.total ?? 0 }) : m.winners.length === 1 ? t("clever.over.winner", { name: name(m.winners[0]) }) : t("clever.over.winners", { names: m.winners.map(name).join(", ") });
  const areas = ["yellow", "blue", "green", "orange", "purple"] as const;
  // a column per player (at most four: it fits a phone), a row per area, then foxes and the total
  const win = (i: number): string => (m.winners.includes(i) ? "winner" : "");
  const row = (label: string, cls: string, cell: (s: SheetModel) => string | HTMLElement): HTMLElement =>
    h("tr", { class: cls }, h("th", { scope: "row" }, label), m.sheets.map((s, i) => h("td", { class: win(i), "data-seat": i }, cell(s))));
  const table = h(
    "table",
    { class: "clever-results", "data-testid": "results" },
    h("thead", null, h("tr", null, h("th", null, ""), m.sheets.map((_, i) => h("th", { scope: "col", class: win(i) }, name(i))))),
    h(
      "tbody",
      null,
      areas.map((a) => row(areaWord(a), `area-${a}`, (s) => formatNumber(s.areas[a]))),
      row(t("clever.over.foxes"), "foxes", (s) => t("clever.over.fox_points", { n: s.foxes, low: Math.min(...areas.map((a) => s.areas[a])), points: s.foxPoints })),
      row(t("clever.over.total"), "total", (s) => h("b", null, formatNumber(s.total))),
    ),
  );
  const body = h("div", { class: "clever-summary" }, table);
  if (solo) body.append(h("p", { class: "rating", "data-testid": "rating" }, ratingText(m)));
  const tie = tieBreakText(m, name);
  if (tie) body.append(h("p", { class: "tie-break", "data-testid": "tie-break" }, tie));
  return { headline, body };
}
