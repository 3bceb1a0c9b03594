// Ganz schön clever: the public view read into typed data and the move notation parsed — all from the structured
// view (never the engine's English); why a die or a cell is refused comes from the server (the view's `refused`). The sheet's printed layout comes from the
// view's `layout` (the engine's own sheet data), so it is written down once, in dicehall/clever/sheet.py.
import type { EngineMessage, View } from "../api";

export const DICE = ["white", "yellow", "blue", "green", "orange", "purple"] as const;
export type DieName = (typeof DICE)[number];
export const AREAS = ["yellow", "blue", "green", "orange", "purple"] as const;
export type Area = (typeof AREAS)[number];
const DIE_LETTERS: Record<string, DieName> = { w: "white", y: "yellow", b: "blue", g: "green", o: "orange", p: "purple" };
const AREA_LETTERS: Record<string, Area> = { y: "yellow", b: "blue", g: "green", o: "orange", p: "purple" };
export const LETTER_OF: Record<Area | DieName, string> = { white: "W", yellow: "Y", blue: "B", green: "G", orange: "O", purple: "P" };

/** A cell of the sheet a move aims at: grids by row and column (0-based), tracks by their next cell. */
export interface Target {
  area: Area;
  r: number;
  c: number;
}
export const targetKey = (t: Target): string => (t.area === "yellow" || t.area === "blue" ? `${t.area}.r${t.r + 1}c${t.c + 1}` : t.area);

export type Move =
  | { kind: "entry"; die: DieName; target: Target; plus: boolean; text: string }
  | { kind: "choose"; black: boolean; target: Target; text: string }
  | { kind: "reroll" | "forfeit" | "stop" | "pass"; text: string };

const TARGET = "([ybgop])(?:\\.r([1-4])c([1-4]))?";
const ENTRY_RE = new RegExp(`^(\\+1\\s+)?([wybgop]):${TARGET}$`);
const CHOOSE_RE = new RegExp(`^(x|black)\\s+${TARGET}$`);

function target(letter: string, r?: string, c?: string): Target {
  return { area: AREA_LETTERS[letter], r: r ? Number(r) - 1 : 0, c: c ? Number(c) - 1 : 0 };
}

/** A legal action in the notation (`W:Y.r1c1`, `+1 B:B.r2c3`, `X Y.r2c4`, `black G`, `reroll`, ...). */
export function parseMove(text: string): Move | null {
  const s = text.trim().toLowerCase();
  if (s === "reroll" || s === "forfeit" || s === "stop" || s === "pass") return { kind: s, text };
  let m = ENTRY_RE.exec(s);
  if (m) return { kind: "entry", die: DIE_LETTERS[m[2]], target: target(m[3], m[4], m[5]), plus: Boolean(m[1]), text };
  m = CHOOSE_RE.exec(s);
  if (m) return { kind: "choose", black: m[1] === "black", target: target(m[2], m[3], m[4]), text };
  return null;
}

/** A dice outcome in the notation (`W3 Y5 B1` and, solo, `platter W,Y,G`). */
export function parseRoll(text: string): { values: [DieName, number][]; platter: DieName[] } | null {
  const [main, plat] = text.toLowerCase().split("platter");
  const values: [DieName, number][] = [];
  for (const tok of main.trim().split(/\s+/)) {
    const m = /^([wybgop])([1-6])$/.exec(tok);
    if (!m) return null;
    values.push([DIE_LETTERS[m[1]], Number(m[2])]);
  }
  const platter = (plat ?? "").split(",").map((x) => x.trim()).filter(Boolean).map((x) => DIE_LETTERS[x]);
  return { values, platter };
}

export type Bonus = "yellow_x" | "blue_x" | "green_x" | "orange_4" | "orange_5" | "orange_6" | "purple_6" | "reroll" | "plus_one" | "fox" | "black";
/** Where a bonus is printed: a row, column or diagonal of a grid, a track's cell, a round (`n` counts from 1). */
export type OriginPlace = "yellow_row" | "yellow_diagonal" | "blue_row" | "blue_column" | "green" | "orange" | "purple" | "round";
export interface Origin {
  place: OriginPlace;
  n: number;
}
/** A bonus with the place that gave it. */
export interface BonusFrom {
  player: number;
  bonus: Bonus;
  origin: Origin | null;
}

export interface GridLayout {
  values: (number | null)[][];
  printed: [number, number][];
  row_bonuses: (Bonus | null)[];
  column_bonuses: (Bonus | null)[];
  column_points: number[] | null;
  diagonals: { cells: [number, number][]; bonus: Bonus | null }[];
  count_points: number[] | null;
}

export interface Layout {
  yellow: GridLayout;
  blue: GridLayout;
  green: { minimums: number[]; points: number[]; bonuses: (Bonus | null)[] };
  orange: { multipliers: number[]; bonuses: (Bonus | null)[] };
  purple: { length: number; reset: number; bonuses: (Bonus | null)[] };
  action_circles: number;
  round_bonuses: (Bonus | null)[];
  solo_ratings: number[];
}

export interface SheetModel {
  yellow: boolean[][];
  blue: boolean[][];
  green: number;
  orange: number[];
  purple: number[];
  rerolls: { gained: number; used: number };
  plusOnes: { gained: number; used: number };
  foxes: number;
  areas: Record<Area, number>;
  foxPoints: number;
  total: number;
}

export interface DieModel {
  die: DieName;
  value: number | null;
  where: "rolled" | "to_roll" | "platter" | "field" | "unused";
}

export type Step = "roll" | "pick" | "plus" | "passive_roll" | "passive_pick" | "bonus" | "over" | "wait";

/** The view's `refused` (docs/web-protocol.md): the dice the seat cannot take, and the refused cells of the dice
 * it can take, grouped by reason (cells by `targetKey`; an area's name stands for all its cells). */
export interface Refused {
  dice: Partial<Record<DieName, EngineMessage>>;
  cells: { why: EngineMessage; dice: DieName[]; at: string[] }[];
}

export interface CleverModel {
  /** The seat deciding now (null: the dice are rolling, or the game is over). */
  actor: number | null;
  /** Seats that may decide now: the current player, or every seat of a simultaneous phase still choosing. */
  deciders: number[];
  /** A simultaneous phase (the passive players choosing at once): its seats and who has not finished. */
  simultaneous: { seats: number[]; waiting_for: number[] } | null;
  step: Step;
  plusAfter: "active" | "passive" | "end" | null;
  nextSeats: number[];
  terminal: boolean;
  round: number;
  rounds: number;
  active: number;
  rollsDone: number;
  dice: DieModel[];
  fields: DieName[];
  /** The bonus waiting for a choice, and the same player's bonuses queued behind it (applied in that order). */
  pending: BonusFrom | null;
  chain: BonusFrom[];
  plusUsed: DieName[][];
  bonuses: (BonusFrom & { applied: boolean })[];
  sheets: SheetModel[];
  layout: Layout;
  legal: Move[];
  /** For the seat choosing a die: why it cannot take a die, or enter a die it can take on a cell (the engine's). */
  refused: Refused | null;
  winners: number[];
  soloRank: number | null;
}

type Obj = Record<string, unknown>;
const num = (v: unknown, d = 0): number => (typeof v === "number" && Number.isFinite(v) ? v : d);
const arr = (v: unknown): unknown[] => (Array.isArray(v) ? v : []);

function bonusFrom(raw: unknown): BonusFrom {
  const b = (raw ?? {}) as Obj;
  const o = b.origin as Obj | null | undefined;
  // the pending bonus names its kind in `kind` (its `bonus` is English), a log entry in `bonus`
  return { player: num(b.player), bonus: (b.kind ?? b.bonus) as Bonus, origin: o && typeof o.place === "string" ? { place: o.place as OriginPlace, n: num(o.n) } : null };
}

function grid(cells: unknown[], rows: number, cols: number): boolean[][] {
  const out = Array.from({ length: rows }, () => Array<boolean>(cols).fill(false));
  for (const raw of cells) {
    const cell = raw as Obj;
    const m = /^r(\d)c(\d)$/.exec(String(cell.cell));
    if (m && cell.crossed) out[Number(m[1]) - 1][Number(m[2]) - 1] = true;
  }
  return out;
}

function readSheet(raw: unknown, layout: Layout): SheetModel {
  const s = (raw ?? {}) as Obj;
  const bar = (v: unknown): { gained: number; used: number } => ({ gained: num((v as Obj | undefined)?.gained), used: num((v as Obj | undefined)?.used) });
  const areas = (s.area_scores ?? {}) as Obj;
  return {
    yellow: grid(arr(s.yellow), layout.yellow.values.length, layout.yellow.values[0]?.length ?? 4),
    blue: grid(arr(s.blue), layout.blue.values.length, layout.blue.values[0]?.length ?? 4),
    green: num((s.green as Obj | undefined)?.crossed),
    orange: arr((s.orange as Obj | undefined)?.written).map((x) => num(x)),
    purple: arr((s.purple as Obj | undefined)?.written).map((x) => num(x)),
    rerolls: bar(s.rerolls),
    plusOnes: bar(s.plus_ones),
    foxes: num(s.foxes),
    areas: Object.fromEntries(AREAS.map((a) => [a, num(areas[a])])) as Record<Area, number>,
    foxPoints: num(s.fox_points),
    total: num(s.total),
  };
}

export function read(v: View): CleverModel {
  const o = v as unknown as Obj;
  const layout = o.layout as Layout;
  const cp = v.current_player;
  const actor = typeof cp === "number" && cp >= 0 ? cp : null;
  // While several seats choose at once (docs/web-protocol.md) the view names them in `simultaneous`.
  const sim = o.simultaneous as Obj | undefined;
  const simultaneous = sim && Array.isArray(sim.seats) ? { seats: arr(sim.seats).map((x) => num(x)), waiting_for: arr(sim.waiting_for).map((x) => num(x)) } : null;
  const deciders = simultaneous ? simultaneous.waiting_for : actor === null ? [] : [actor];
  const pending = o.pending_bonus as Obj | null;
  return {
    actor,
    deciders,
    simultaneous,
    step: (typeof o.step === "string" ? o.step : "roll") as Step,
    plusAfter: (o.plus_after ?? null) as CleverModel["plusAfter"],
    nextSeats: arr(o.next_seats).map((x) => num(x)),
    terminal: Boolean(v.terminal),
    round: num(o.round, 1),
    rounds: num(o.rounds, 6),
    active: num(o.active),
    rollsDone: num(o.rolls_done),
    dice: arr(o.dice).map((d) => {
      const x = d as Obj;
      return { die: x.die as DieName, value: typeof x.value === "number" ? x.value : null, where: x.where as DieModel["where"] };
    }),
    fields: arr(o.fields) as DieName[],
    pending: pending ? bonusFrom(pending) : null,
    chain: arr(o.bonus_chain).map(bonusFrom),
    plusUsed: arr(o.plus_used).map((x) => arr(x) as DieName[]),
    bonuses: arr(o.bonuses).map((b) => ({ ...bonusFrom(b), applied: Boolean((b as Obj).applied) })),
    sheets: arr(o.sheets).map((s) => readSheet(s, layout)),
    layout,
    legal: (Array.isArray(v.legal_actions) ? v.legal_actions : []).map(parseMove).filter((m): m is Move => m !== null),
    refused: o.refused && typeof o.refused === "object" ? (o.refused as Refused) : null,
    winners: arr(v.winners).map((x) => num(x)),
    soloRank: typeof o.solo_rank === "number" ? o.solo_rank : null,
  };
}

/** Why the seat deciding cannot take die `d` (with `key`: enter it on that cell), as the server said; null if not
 * refused (or the view carries no reasons). */
export function refusal(m: CleverModel, d: DieName, key?: string): EngineMessage | null {
  const whole = m.refused?.dice[d];
  if (whole || key === undefined) return whole ?? null;
  const area = key.split(".")[0];
  return m.refused?.cells.find((g) => g.dice.includes(d) && (g.at.includes(key) || g.at.includes(area)))?.why ?? null;
}

/** Why a click the page itself refuses (not a rule of the game: whose turn or sheet, what to click first). */
export type ReasonId = "pick_die" | "bonus_cell" | "not_yours" | "other_sheet";
export type Reason = { id: ReasonId; params: Record<string, string | number> };
