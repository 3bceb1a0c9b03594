// The game-over card's "How well each player chose": each player's mean loss per decision with its band (the
// server sends the band with the analysis totals; the limits live in dicehall/core/proficiency.py only) and the
// decision that cost the player most, linked to the analysis board at that step. While the server is still
// analysing, the box says so; it fills in when the one GET .../analysis answers (as the analysis page waits).
import { api, type AnalysisResult, type AnalysisTotals } from "./api";
import { h } from "./dom";
import { apiErrorText } from "./errors";
import { formatNumber, t, type MessageId } from "./i18n";

const BAND_ID = {
  expert: "proficiency.band.expert",
  good: "proficiency.band.good",
  learning: "proficiency.band.learning",
} as const satisfies Record<NonNullable<AnalysisTotals["band"]>, MessageId>;

/** The analysis page at step `k` of a table (analysis.ts reads `?step=`). */
export function analysisStepUrl(tableId: string, k: number): string {
  return `/table/${tableId}/analysis?step=${k}`;
}

/** A loss: two decimals, or two significant digits below 0.1 (a strong player's mean loss per decision in win-%
 * points is a few hundredths); win-% points with "%", as the analysis page writes them. */
export function amount(v: number, unit: AnalysisResult["unit"]): string {
  const n = v < 0.1 ? v.toLocaleString(document.documentElement.lang || "en", { maximumSignificantDigits: 2 }) : formatNumber(Math.round(v * 100) / 100);
  return unit === "win%" ? `${n}%` : n;
}

function playerLine(r: AnalysisTotals, a: AnalysisResult, tableId: string, seatName: (s: number) => string): HTMLElement {
  const worst = r.costliest;
  const band = r.band ? h("span", { class: `badge band ${r.band}`, "data-testid": "prof-band", "data-band": r.band }, t(BAND_ID[r.band])) : null;
  const none = r.decisions ? null : h("span", { class: "muted small" }, t("proficiency.no_decisions"));
  const head = h("div", { class: "prof-head" }, h("b", null, seatName(r.seat)), band, none);
  if (!r.decisions) return h("li", { "data-seat": r.seat, "data-testid": "prof-player" }, head);
  const said = t(a.unit === "win%" ? "proficiency.costliest_win" : "proficiency.costliest_points", { k: worst?.n ?? 0, loss: amount(worst?.loss ?? 0, "points") });
  return h(
    "li",
    { "data-seat": r.seat, "data-testid": "prof-player" },
    head,
    h(
      "div",
      { class: "prof-line small" },
      h("span", { "data-testid": "prof-loss", "data-value": String(r.mean_loss) }, t(a.unit === "win%" ? "proficiency.per_decision" : "proficiency.per_decision_points", { loss: amount(r.mean_loss, a.unit) })),
      " · ",
      worst
        ? h("a", { href: analysisStepUrl(tableId, worst.n), "data-link": true, "data-testid": "prof-costliest", "data-step": worst.n, title: said }, t("proficiency.move", { k: worst.n, loss: amount(worst.loss, a.unit) }))
        : h("span", { class: "muted" }, t("proficiency.no_loss")),
    ),
  );
}

function figures(a: AnalysisResult, tableId: string, seatName: (s: number) => string): HTMLElement {
  // (a game over before anyone chose anything, e.g. resigned at once: one line, the card stays small)
  if (!a.totals.some((r) => r.decisions)) return h("p", { class: "muted small", "data-testid": "prof-none" }, t("proficiency.no_choices"));
  return h(
    "div",
    null,
    h("ul", { class: "prof-list", "data-testid": "prof-list" }, a.totals.map((r) => playerLine(r, a, tableId, seatName))),
    // "%" here is percentage points of the chance to win, not a share of something: said once
    a.unit === "win%" ? h("p", { class: "muted small prof-unit" }, t("proficiency.unit_win")) : null,
  );
}

/** The box (empty and hidden for a game without analysis); it asks the server once. */
export function proficiencyBox(tableId: string, analysed: boolean, seatName: (s: number) => string): HTMLElement {
  const box = h("section", { class: "proficiency", "data-testid": "proficiency", "aria-labelledby": "proficiency-title" });
  if (!analysed) {
    box.hidden = true;
    return box;
  }
  // one live region: the waiting line, then the figures in its place (read out when they come)
  const live = h("div", { role: "status", "aria-live": "polite", "aria-busy": "true" }, h("p", { class: "muted small", "data-testid": "proficiency-waiting" }, t("proficiency.waiting")));
  box.append(h("h3", { id: "proficiency-title" }, t("proficiency.title")), live);
  api
    .analysis(tableId)
    .then((a) => live.replaceChildren(figures(a, tableId, seatName)))
    .catch((err: unknown) => live.replaceChildren(h("p", { class: "muted small", "data-testid": "proficiency-failed" }, t("proficiency.failed", { why: apiErrorText(err) }))))
    .finally(() => live.removeAttribute("aria-busy"));
  return box;
}
