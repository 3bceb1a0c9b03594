// The Dice 1000 side of the puzzle page (puzzles.ts): the position as at the table (both scores with pits, barrel
// and bolts, the last roll with its scoring dice marked, the dice set aside, the turn total and the dice in hand)
// and the question "Bank or roll?" with its two buttons (keys B and R).
import type { PuzzlePosition } from "./api";
import { die } from "./dice";
import { append, h } from "./dom";
import { formatNumber, t, tKey } from "./i18n";
import type { PuzzleBoard } from "./puzzles";
import { read, statusBadges, type ThousandModel } from "./views/thousand";

export const THOUSAND_THEMES = ["opening", "pit escape", "barrel", "bolts", "hot dice", "bank or roll"];

const themeName = (theme: string): string => tKey(`puzzle.theme.${theme.replace(/ /g, "_")}`, theme);

/** Which dice of the roll scored (each scoring face once per occurrence). */
function scoring(roll: number[], scored: number[]): boolean[] {
  const left = [...scored];
  return roll.map((d) => {
    const i = left.indexOf(d);
    if (i >= 0) left.splice(i, 1);
    return i >= 0;
  });
}

export function thousandBoard(): PuzzleBoard {
  let model: ThousandModel | null = null;
  /** A move in words, as the hint panel says it ("Say “enough” and bank 320", "Roll 2 dice"). */
  const words = (move: string): string => {
    const m = model;
    if (!m) return move;
    return move === "bank" ? t("thousand.move.bank", { total: m.turnTotal }) : t("thousand.move.roll", { n: m.diceInHand });
  };
  return {
    title: t("puzzle.page.title"),
    themes: THOUSAND_THEMES,
    themeName,
    keys: t("puzzle.page.keys"),
    unit: t("hint.unit_win"),
    value: (v) => `${formatNumber(Math.round(v * 10) / 10)} %`,
    words,
    choiceStyle: "big",
    draw(p: PuzzlePosition, board: HTMLElement) {
      if (!p.view || p.mover === undefined) return { question: t("puzzle.page.question"), choices: [] };
      const m = (model = read(p.view));
      const mover = p.mover;
      const rules = p.rules ?? {};
      const row = (seat: number, who: string): HTMLElement => {
        const pl = m.players[seat];
        return h("tr", { class: seat === mover ? "to-move" : "", "data-seat": seat === mover ? "you" : "opponent" }, h("th", { scope: "row" }, who), h("td", { class: "score" }, formatNumber(pl.score)), h("td", null, statusBadges(pl, m, rules)));
      };
      const mask = scoring(m.roll, m.rollScoring);
      append(board, [
        h("p", { class: "puzzle-theme", "data-testid": "puzzle-theme-name" }, t("puzzle.page.theme", { theme: themeName(p.theme ?? "") })),
        h("table", { class: "scoreboard puzzle-scores", "data-testid": "puzzle-scores" }, h("caption", { class: "sr-only" }, t("puzzle.page.scores")), h("tbody", null, row(mover, t("puzzle.page.you")), row(1 - mover, t("puzzle.page.opponent")))),
        h(
          "div",
          { class: "felt" },
          h("div", { class: "felt-row" }, h("span", { class: "label" }, t("puzzle.page.last_roll")), h("div", { class: "dice-tray", role: "group", "aria-label": t("puzzle.page.last_roll"), "data-testid": "puzzle-roll-dice" }, m.roll.map((d, i) => die(d, { scoring: mask[i] })))),
          h("div", { class: "aside-row" }, h("span", { class: "label" }, t("thousand.set_aside")), h("div", { class: "dice-aside", role: "group", "aria-label": t("thousand.set_aside"), "data-testid": "puzzle-aside" }, m.setAside.map((d) => die(d, { setAside: true })))),
          h("p", { class: "turn-total", "data-testid": "puzzle-turn" }, t("puzzle.page.turn", { total: m.turnTotal, dice: m.diceInHand })),
        ),
      ]);
      return {
        question: t("puzzle.page.question"),
        choices: [
          { move: "bank", label: t("thousand.bank"), key: "B", testid: "puzzle-bank", title: words("bank") },
          { move: "roll", label: t("thousand.roll"), key: "R", testid: "puzzle-roll", title: words("roll") },
        ],
      };
    },
  };
}
