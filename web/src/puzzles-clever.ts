// The Ganz schön clever side of the puzzle page (puzzles.ts): the position drawn as at the table, read-only — the
// solver's score sheet (clever-sheet.ts, the cells the choices reach lit), the dice tray (rolled, the dice fields,
// the silver platter), the round and the roll, the re-rolls and +1s in hand — and the question in players' words
// with a button for each legal choice (digits 1–9 for the first nine, the arrows and Enter for all).
import "./views/clever.css";
import { h as vh, type VNode } from "snabbdom";
import type { PuzzlePosition } from "./api";
import { dieVNode } from "./dice";
import { append, h } from "./dom";
import { formatNumber, t, tKey } from "./i18n";
import type { Choice, PuzzleBoard } from "./puzzles";
import { patch } from "./vdom";
import { type CleverModel, type DieName, type Move, parseMove, read, type Target, targetKey } from "./views/clever-model";
import { drawSheet } from "./views/clever-sheet";
import { symbolVNode } from "./views/clever-symbols";
import { areaWord, dieWord } from "./views/clever-words";

export const CLEVER_THEMES = ["round 4", "opening", "foxes", "bonus chain", "passive pick", "which die"];

const themeName = (theme: string): string => tKey(`puzzle.clever.theme.${theme.replace(/ /g, "_")}`, theme);

/** Where a mark goes, short: a grid cell by its area, value and row (unique: a row never repeats a value). */
function targetWord(m: CleverModel, tg: Target): string {
  if (tg.area === "yellow") return t("puzzle.clever.page.cell", { area: areaWord(tg.area), value: m.layout.yellow.values[tg.r][tg.c] ?? "", r: tg.r + 1 });
  if (tg.area === "blue") return `${areaWord(tg.area)} ${m.layout.blue.values[tg.r][tg.c] ?? ""}`;
  return areaWord(tg.area);
}

/** A choice in words: the die and its value with where it goes, where a bonus goes, or the plain move. */
function choiceWords(m: CleverModel, mv: Move): string {
  switch (mv.kind) {
    case "reroll":
    case "forfeit":
    case "pass":
    case "stop":
      return t(`puzzle.clever.choice.${mv.kind}`);
    case "choose":
      if (mv.black && (mv.target.area === "orange" || mv.target.area === "purple")) return t("puzzle.clever.choice.black_six", { area: areaWord(mv.target.area) });
      return t(mv.black ? "puzzle.clever.choice.black_cross" : "puzzle.clever.choice.cross", { target: targetWord(m, mv.target) });
    case "entry": {
      const value = m.dice.find((d) => d.die === mv.die)?.value ?? "";
      return t("puzzle.clever.choice.entry", { die: dieWord(mv.die), value, target: targetWord(m, mv.target) });
    }
  }
}

function trayDie(d: DieName, value: number | null): VNode {
  if (!value) return vh("span.die.slot.cdie", { class: { [`cdie-${d}`]: true }, attrs: { "data-die": d } });
  return dieVNode(value, {}, { class: { cdie: true, [`cdie-${d}`]: true }, attrs: { "data-die": d, "aria-label": t("clever.ui.die_label", { die: dieWord(d), value }) } }, d === "white" ? [] : [symbolVNode(d)]);
}

/** The dice as they lie: those rolled (a solo passive pick: the three left), the fields, the platter. */
function tray(m: CleverModel): VNode {
  const value = (d: DieName): number | null => m.dice.find((x) => x.die === d)?.value ?? null;
  const rolled = m.dice.filter((d) => d.where === "rolled" || (m.step !== "passive_pick" && d.where === "unused" && d.value));
  const platter = m.dice.filter((d) => d.where === "platter");
  const box = (cls: string, label: string, kids: VNode[]): VNode =>
    vh(`div.tray-box.${cls}`, { attrs: { "data-testid": cls, role: "group", "aria-label": label } }, [vh("span.tray-label", label), vh("div.tray-dice", kids)]);
  return vh("div.clever-tray.puzzle-tray", { attrs: { "data-testid": "puzzle-dice" } }, [
    box("rolled", t("clever.dice.rolled"), rolled.map((d) => trayDie(d.die, d.value))),
    box("fields", t("clever.dice.fields"), [0, 1, 2].map((i) => (m.fields[i] ? trayDie(m.fields[i], value(m.fields[i])) : vh("span.die.slot.field-slot", {})))),
    box("platter", t("clever.dice.platter"), platter.map((d) => trayDie(d.die, d.value))),
  ]);
}

function question(m: CleverModel): string {
  if (m.step === "bonus") return t(m.pending?.bonus === "black" ? "puzzle.clever.ask.round4" : "puzzle.clever.ask.bonus");
  if (m.step === "passive_pick") return t("puzzle.clever.ask.platter");
  return t("puzzle.clever.ask.pick");
}

export function cleverBoard(): PuzzleBoard {
  let model: CleverModel | null = null;
  const words = (move: string): string => {
    const mv = parseMove(move);
    return model && mv ? choiceWords(model, mv) : move;
  };
  return {
    title: t("puzzle.clever.page.title"),
    themes: CLEVER_THEMES,
    themeName,
    keys: t("puzzle.clever.page.keys"),
    unit: t("puzzle.clever.page.unit"),
    value: (v) => formatNumber(Math.round(v * 10) / 10),
    words,
    choiceStyle: "list",
    draw(p: PuzzlePosition, board: HTMLElement) {
      if (!p.view || p.mover === undefined) return { question: "", choices: [] };
      const m = (model = read(p.view));
      const mover = p.mover;
      const sheet = m.sheets[mover];
      const moves = m.legal;
      const targets = new Set(moves.flatMap((mv) => (mv.kind === "entry" || mv.kind === "choose" ? [targetKey(mv.target)] : [])));
      const others = m.sheets.map((s, i) => ({ s, i })).filter((x) => x.i !== mover);
      const trayEl = h("div");
      const sheetEl = h("div");
      append(board, [
        h(
          "div",
          { class: "puzzle-info" },
          h("p", { class: "puzzle-theme", "data-testid": "puzzle-theme-name" }, t("puzzle.page.theme", { theme: themeName(p.theme ?? "") })),
          h(
          "p",
          { class: "puzzle-where", "data-testid": "puzzle-where" },
          t("puzzle.clever.page.where", { round: m.round, rounds: m.rounds }),
          m.step === "pick" ? [" · ", t("puzzle.clever.page.roll", { roll: m.rollsDone + 1 })] : null,
          " · ",
          t(m.sheets.length === 1 ? "puzzle.clever.page.solo" : m.active === mover ? "puzzle.clever.page.active" : "puzzle.clever.page.passive", { players: m.sheets.length }),
          " · ",
          t("puzzle.clever.page.in_hand", { rerolls: sheet.rerolls.gained - sheet.rerolls.used, plus: sheet.plusOnes.gained - sheet.plusOnes.used }),
          others.length ? [" · ", t("puzzle.clever.page.others", { totals: others.map((x) => formatNumber(x.s.total)).join(", ") })] : null,
          ),
          trayEl,
        ),
        h("div", { class: "clever-sheet-box puzzle-sheet", "data-testid": "puzzle-sheet" }, sheetEl),
      ]);
      patch(trayEl, tray(m));
      patch(sheetEl, drawSheet(m.layout, sheet, { targets, fresh: new Set(), round: m.round, rounds: m.rounds, label: t("puzzle.clever.page.sheet"), seat: mover }));
      const choices: Choice[] = moves.map((mv, i) => ({ move: mv.text, label: choiceWords(m, mv), key: i < 9 ? String(i + 1) : null, testid: `puzzle-choice-${i + 1}` }));
      return { question: question(m), choices };
    },
  };
}
