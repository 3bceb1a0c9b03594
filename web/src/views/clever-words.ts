// Clever in words: what each player is deciding, the log lines, the cells and bonuses, the refusal reasons, the
// game-over summary — all from the structured view and the move notation, in the reader's language.
import type { EngineMessage, LogEntry, View } from "../api";
import { engineText } from "../errors";
import { formatNumber, t, type MessageId } from "../i18n";
import { AREAS, type Area, type Bonus, type BonusFrom, type CleverModel, type DieName, type Move, type OriginPlace, type Reason, type SheetModel, type Target, parseMove, parseRoll, read } from "./clever-model";

// (ids written out whole: the catalogue test finds every id it checks in the source)
const DIE_IDS = {
  white: "clever.ui.die.white",
  yellow: "clever.ui.die.yellow",
  blue: "clever.ui.die.blue",
  green: "clever.ui.die.green",
  orange: "clever.ui.die.orange",
  purple: "clever.ui.die.purple",
} as const satisfies Record<DieName, MessageId>;
const AREA_IDS = {
  yellow: "clever.ui.area.yellow",
  blue: "clever.ui.area.blue",
  green: "clever.ui.area.green",
  orange: "clever.ui.area.orange",
  purple: "clever.ui.area.purple",
} as const satisfies Record<Area, MessageId>;
const BONUS_IDS = {
  yellow_x: "clever.ui.bonus.yellow_x",
  blue_x: "clever.ui.bonus.blue_x",
  green_x: "clever.ui.bonus.green_x",
  orange_4: "clever.ui.bonus.orange_4",
  orange_5: "clever.ui.bonus.orange_5",
  orange_6: "clever.ui.bonus.orange_6",
  purple_6: "clever.ui.bonus.purple_6",
  reroll: "clever.ui.bonus.reroll",
  plus_one: "clever.ui.bonus.plus_one",
  fox: "clever.ui.bonus.fox",
  black: "clever.ui.bonus.black",
} as const satisfies Record<Bonus, MessageId>;
// the bonus kinds' short names, shared with the engine's messages
const BONUS_NAME_IDS = {
  yellow_x: "clever.bonus.yellow_x",
  blue_x: "clever.bonus.blue_x",
  green_x: "clever.bonus.green_x",
  orange_4: "clever.bonus.orange_4",
  orange_5: "clever.bonus.orange_5",
  orange_6: "clever.bonus.orange_6",
  purple_6: "clever.bonus.purple_6",
  reroll: "clever.bonus.reroll",
  plus_one: "clever.bonus.plus_one",
  fox: "clever.bonus.fox",
  black: "clever.bonus.black",
} as const satisfies Record<Bonus, MessageId>;
// what the player does for a bonus that waits for a choice (the others apply themselves)
const RULE_IDS: Partial<Record<Bonus, MessageId>> = {
  yellow_x: "clever.ui.rule.yellow_x",
  blue_x: "clever.ui.rule.blue_x",
  black: "clever.ui.rule.black",
};
const ORIGIN_IDS = {
  yellow_row: "clever.origin.yellow_row",
  yellow_diagonal: "clever.origin.yellow_diagonal",
  blue_row: "clever.origin.blue_row",
  blue_column: "clever.origin.blue_column",
  green: "clever.origin.green",
  orange: "clever.origin.orange",
  purple: "clever.origin.purple",
  round: "clever.origin.round",
} as const satisfies Record<OriginPlace, MessageId>;
const WHY_IDS: Record<Reason["id"], MessageId> = {
  pick_die: "clever.why.pick_die",
  bonus_cell: "clever.why.bonus_cell",
  not_yours: "clever.why.not_yours",
  other_sheet: "clever.why.other_sheet",
};
const RATING_IDS: MessageId[] = [
  "clever.rating.0",
  "clever.rating.1",
  "clever.rating.2",
  "clever.rating.3",
  "clever.rating.4",
  "clever.rating.5",
  "clever.rating.6",
  "clever.rating.7",
  "clever.rating.8",
];

export const dieWord = (d: DieName): string => t(DIE_IDS[d]);
export const areaWord = (a: Area): string => t(AREA_IDS[a]);
export const bonusWord = (b: Bonus): string => t(BONUS_IDS[b]);

/** A bonus by its short name and where it comes from: "green X from yellow row 3". */
export function bonusFromWord(b: BonusFrom): string {
  const name = t(BONUS_NAME_IDS[b.bonus]);
  const id = b.origin ? ORIGIN_IDS[b.origin.place] : undefined;
  return id && b.origin ? `${name} ${t(id, { n: b.origin.n })}` : name;
}

/** The bonus chain waiting for a choice, a line each: "Ann places blue X from yellow row 1: cross any free blue
 * cell", then what follows it ("Then: re-roll from blue column 1."); none when no bonus waits. */
export function pendingLines(m: CleverModel, name: (seat: number) => string): string[] {
  if (!m.pending) return [];
  const p = m.pending;
  const rule = RULE_IDS[p.bonus];
  const head = t("clever.pending", { name: name(p.player), bonus: bonusFromWord(p), rule: rule ? t(rule) : bonusWord(p.bonus) });
  return m.chain.length ? [head, t("clever.pending_then", { list: m.chain.map(bonusFromWord).join("; ") })] : [head];
}

/** Why a click is refused: the page's own reason, or the server's (a die or cell the rules refuse). */
export function reasonText(r: Reason | EngineMessage): string {
  return "id" in r && r.id in WHY_IDS ? t(WHY_IDS[r.id as Reason["id"]], (r as Reason).params) : engineText(r as EngineMessage, "");
}

/** A target cell in words: "yellow 5 (row 2, column 4)", "green", "orange ×2". */
export function targetWord(m: CleverModel, tg: Target): string {
  if (tg.area === "yellow" || tg.area === "blue") {
    return t("clever.target.grid", { area: areaWord(tg.area), value: m.layout[tg.area].values[tg.r][tg.c] ?? "", r: tg.r + 1, c: tg.c + 1 });
  }
  return areaWord(tg.area);
}

/** Who is deciding what, for the status line. */
export function statusText(m: CleverModel, name: (seat: number) => string): string {
  const who = m.actor === null ? "" : name(m.actor);
  switch (m.step) {
    case "over":
      return t("clever.status.over");
    case "wait": // a seat's own position once its simultaneous choices are made
      return t("clever.status.wait");
    case "roll":
      return t("clever.status.roll", { name: name(m.active), n: m.rollsDone + 1 });
    case "pick":
      return t("clever.status.pick", { name: who, n: m.rollsDone + 1 });
    case "plus":
      return m.plusAfter === "end" ? t("clever.status.plus_end", { name: who }) : t("clever.status.plus", { name: who });
    case "passive_roll":
      return t("clever.status.passive_roll");
    case "passive_pick":
      return t("clever.status.passive_pick", { name: who });
    case "bonus":
      return t("clever.status.bonus", { name: m.pending ? name(m.pending.player) : who });
  }
}

function diceList(values: [DieName, number][]): string {
  return values.map(([d, v]) => `${dieWord(d)} ${v}`).join(" · ");
}

/** A move in words; `before` (the position it was made in) gives the die's value, which a turn's end clears. */
function moveWords(m: CleverModel, before: CleverModel | null, mv: Move, who: string): string {
  switch (mv.kind) {
    case "reroll":
      return t("clever.log.reroll", { name: who });
    case "forfeit":
      return t("clever.log.forfeit", { name: who });
    case "stop":
      return t("clever.log.stop", { name: who });
    case "pass":
      return t("clever.log.pass", { name: who });
    case "choose":
      return t(mv.black ? "clever.log.black" : "clever.log.choose", { name: who, target: targetWord(m, mv.target) });
    case "entry": {
      const value = (before ?? m).dice.find((d) => d.die === mv.die)?.value ?? m.dice.find((d) => d.die === mv.die)?.value ?? "";
      return t(mv.plus ? "clever.log.plus" : "clever.log.entry", { name: who, die: dieWord(mv.die), value, target: targetWord(m, mv.target) });
    }
  }
}

/** A legal move of the seat to move at `m`, in words (the Hint list): the log's sentence for it, with the seat's
 * name; null for text that is not a move. */
export function moveText(m: CleverModel, move: string, name: (seat: number) => string): string | null {
  const mv = parseMove(move);
  const seat = m.actor ?? m.deciders[0];
  return mv && seat !== undefined ? moveWords(m, null, mv, name(seat)) : null;
}

/** Log lines for an event (a passive choice arrives only once the whole passive phase is over). */
export function describeEvent(e: LogEntry, state: View | null, before: CleverModel | null, name: (seat: number) => string): string[] {
  if (e.actor === "chance") {
    const roll = parseRoll(e.move);
    if (!roll) return [];
    if (roll.platter.length) return [t("clever.log.passive_roll", { dice: diceList(roll.values), platter: roll.platter.map(dieWord).join(", ") })];
    return [t("clever.log.roll", { dice: diceList(roll.values) })];
  }
  const seat = Number(e.actor);
  if (e.move === "resign" && Number.isInteger(seat)) {
    // with 3 or 4 seats the game goes on and a bot plays the seat (docs/clever.md, "Resigning")
    const playsOn = state !== null && !state.terminal && Array.isArray(state.resigned) && state.resigned.length >= 3;
    return [t(playsOn ? "log.resign_bot" : "log.resign", { name: name(seat) })];
  }
  const mv = parseMove(e.move);
  if (!mv || !Number.isInteger(seat)) return [];
  if (!state) return []; // (an old entry of a snapshot: the page shows its notation)
  const m = read(state);
  const lines = [moveWords(m, before, mv, name(seat))];
  for (const b of m.bonuses) {
    lines.push(t(b.applied ? "clever.log.bonus" : "clever.log.bonus_lost", { name: name(b.player), bonus: bonusFromWord(b) }));
  }
  return lines;
}

const tieKey = (s: SheetModel): [number, number] => [s.total, Math.max(...AREAS.map((a) => s.areas[a]))];

/** How the winner was found: by total, or a tie on total broken by the best single area, or shared. */
export function tieBreakText(m: CleverModel, name: (seat: number) => string): string {
  if (m.sheets.length < 2) return "";
  const best = Math.max(...m.sheets.map((s) => s.total));
  const tied = m.sheets.map((s, i) => ({ i, k: tieKey(s) })).filter((x) => x.k[0] === best);
  if (tied.length < 2) return "";
  const list = tied.map((x) => t("clever.over.tie_entry", { name: name(x.i), best: formatNumber(x.k[1]) })).join(", ");
  return m.winners.length > 1 ? t("clever.over.shared", { total: best, list }) : t("clever.over.tie", { total: best, list });
}

/** The solo rating as the rulebook words it, with its range of points. */
export function ratingText(m: CleverModel): string {
  if (m.soloRank === null) return "";
  const lows = m.layout.solo_ratings;
  const low = lows[m.soloRank];
  const high = m.soloRank > 0 ? lows[m.soloRank - 1] - 1 : null;
  const range = low === undefined ? t("clever.over.range_below", { high: lows[lows.length - 1] - 1 }) : high === null ? t("clever.over.range_from", { low }) : `${low}–${high}`;
  return t("clever.over.rating", { rating: RATING_IDS[m.soloRank] ? t(RATING_IDS[m.soloRank]) : "", range });
}
