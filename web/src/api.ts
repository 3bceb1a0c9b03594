// REST calls and the protocol's types (docs/web-protocol.md).

export interface RuleOption {
  key: string;
  value: unknown;
  doc: string;
  type: string;
  choices?: string[] | null;
  /** Bounds, when the server gives them (numbers; for lists of ranges, the bounds of each end). */
  min?: number | null;
  max?: number | null;
  /** Values move in steps of this (from min, or 0); a list holds at most max_items entries. */
  step?: number | null;
  max_items?: number | null;
}

/** `POST /api/rules/check`: the merged rules, or what is wrong (option null = the combination). */
export type RulesCheck = { ok: true; rules: Record<string, unknown> } | { ok: false; errors: RuleProblem[] };

/** An engine text as a message id with parameters (parameters may be messages too), for the page to word. */
export interface EngineMessage {
  id: string;
  params: Record<string, unknown>;
}

/** One problem with a rule set: `msgid`/`params` say it in any language, `message` is the server's English. */
export interface RuleProblem {
  option: string | null;
  message: string;
  msgid?: string;
  params?: Record<string, unknown>;
}

/** A bot's measured strength (dicehall/web/botinfo.py): share of two-player games won against another bot, or
 * its mean score alone. */
export type BotStrength = { kind: "wins"; share: number; against: string; games: number } | { kind: "solo_mean"; points: number; games: number };

export interface BotInfo {
  name: string;
  doc?: string;
  strength?: BotStrength;
}

export interface GameInfo {
  name: string;
  title: string;
  min_players: number;
  max_players: number;
  presets: string[];
  /** The presets a new table here offers (absent from older servers: all). */
  live_presets?: string[];
  /** Options every table here has, not offered in the form. */
  live_overrides?: Record<string, unknown>;
  default_preset: string;
  options: RuleOption[];
  /** Weakest first. */
  bots: BotInfo[];
  /** Whether the game has hints (absent from older servers: assume it has). */
  hints?: boolean;
}

export interface SeatSpec {
  kind: "human" | "bot";
  name?: string;
  bot?: string;
  /** A human seat left for anyone to claim from the open tables list. */
  open?: boolean;
  /** This browser's own seat: linked to its player (Your games, Resume) and named by it. */
  me?: boolean;
}

export interface CreatedSeat {
  seat: number;
  name: string;
  kind: "human" | "bot";
  token?: string;
  invite?: string;
  /** false: a human seat nobody named (worded as `seat.player` in the reader's language). */
  named?: boolean;
}

export interface CreatedTable {
  table_id: string;
  seats: CreatedSeat[];
  /** A rated game; else `unrated` says why not (docs/ratings.md). */
  rated?: boolean;
  unrated?: string | null;
}

export interface TableSeat {
  seat: number;
  name: string;
  kind: "human" | "bot";
  bot?: string | null;
  claimed?: boolean;
  /** false: nobody named this human seat; the page says "Player N" in its reader's language. */
  named?: boolean;
  /** The player linked to this seat (its id), or null. */
  player?: string | null;
  /** The seat's account was deleted: "deleted player" in the reader's language. */
  deleted?: boolean;
  /** The seat gave the game up (Clever with 3 or 4 seats: a bot plays it on). */
  resigned?: boolean;
  /** Correspondence: the seat's time to move ran out (with 3 or more players a bot plays it on). */
  timed_out?: boolean;
}

/** The player behind this browser (GET /api/me). */
export interface Player {
  id: string;
  name: string | null;
  kind: string;
}

/** A rematch offered from a finished table, in the old table's seat numbers (docs/web-protocol.md). */
export interface RematchOffer {
  new_table: string;
  /** The old seat that offered it. */
  by: number;
  /** Old seats whose players took their seat at the new table. */
  accepted: number[];
  /** Every seat is taken: the new game has begun. */
  ready: boolean;
}

export interface TableInfo {
  table_id: string;
  game: string;
  preset?: string;
  status: string;
  seats: TableSeat[];
  created?: string | number;
  seq?: number;
  overrides?: Record<string, unknown>;
  /** The overrides its creator chose, less those every table of the game has here. */
  house_rules?: Record<string, unknown>;
  /** "real": the players throw real dice and enter them; "rolled" (or absent): the server rolls. */
  dice?: string;
  /** Whether the players may ask for hints (the table option; absent from older servers). */
  hints?: boolean;
  /** Whether the game is analysed once over (GET .../analysis answers; the game-over card shows proficiency). */
  analysis?: boolean;
  /** A finished table's rematch, when one was offered (`GET /api/tables/{id}` only). */
  rematch?: RematchOffer | null;
  /** A rated game (docs/ratings.md); else `unrated` says why not; `ratings`: the changes once it ended. */
  rated?: boolean;
  unrated?: string | null;
  ratings?: RatingChange[] | null;
  /** The dice fingerprint: SHA-256 of the table's secret seed (null: real dice, or a table from before). */
  dice_commit?: string | null;
  /** Correspondence: seconds each seat has per move (absent or null: live play) and when the seats to move time
   * out (wall seconds; null while nobody is on the clock). */
  move_seconds?: number | null;
  deadline?: number | null;
}

/** One player's rating change at a rated game's end. */
export interface RatingChange {
  seat: number;
  player: string;
  before: number;
  rating: number;
  delta: number;
  provisional: boolean;
}

/** A player's rating in one game (`GET /api/players/{id}`), with its history, oldest first. */
export interface PlayerRating {
  game: string;
  rating: number;
  provisional: boolean;
  games: number;
  points: { at: number; rating: number; provisional: boolean; table_id: string }[];
}

/** `GET /api/leaderboard/{game}`. */
export interface Leaderboard {
  game: string;
  active_days: number;
  players: { rank: number; id: string; name: string | null; rating: number; provisional: boolean; games: number }[];
  me: { rating: number; provisional: boolean; games: number; rank: number | null; active: boolean } | null;
}

/** `GET /api/tables/{id}/verify`: the dice checked against the committed seed (docs/fair-dice.md). */
export interface DiceVerdict {
  verdict: "ok" | "mismatch" | "bad_seed" | "playing" | "real_dice" | "unseeded";
  rolls?: number;
  event?: number;
  expected?: string;
  recorded?: string;
  commit?: string | null;
  seed?: string | null;
}

/** A table of "Your games" (GET /api/me/games). */
export interface MyGame extends TableInfo {
  my_seats: number[];
  /** One of my seats is to move. */
  turn: boolean;
  updated: number;
  result?: { scores: number[] | null; winners: number[] | null; mine: "win" | "loss" | "draw" | null };
  /** A rematch offered to this player: the finished table it answers and the seat (at this table) of who offered. */
  offer?: { table: string; by_seat: number };
  /** Correspondence: the reminder before the deadline is due. */
  deadline_soon?: boolean;
}

export interface GamesCursor {
  before: number;
  before_id: string;
}

export interface MyGames {
  your_turn: MyGame[];
  /** Rematches other players offered this one (waiting tables with a seat kept for them). */
  offers: MyGame[];
  waiting: MyGame[];
  finished: MyGame[];
  next: GamesCursor | null;
  /** The server's clock (wall seconds): deadlines are counted from it. */
  now?: number;
}

/** The game's public_view(); each game's view module knows its own extra fields. */
export interface View {
  current_player: number | "chance" | null;
  legal_actions: string[];
  terminal: boolean;
  scores: number[];
  winners: number[];
  players?: unknown[];
  [key: string]: unknown;
}

export interface LogEntry {
  seq: number;
  actor: number | "chance" | "undo" | string;
  move: string;
  text?: string;
  /** Real dice: the seat that typed this outcome in (or, on an undo, took it back). */
  entered_by?: number;
  /** On an undo: the sequence number of the entry taken back. */
  retracts?: number;
}

/** A refused REST call: the HTTP status, the server's `detail` in English words, and, when the server said why
 * as a message (a refused rule set), its `msgid`/`params` and the `option` it is about, for the page to word. */
export class ApiError extends Error {
  constructor(
    readonly detail: string,
    readonly status: number,
    readonly problem?: RuleProblem,
    /** The server's error code (`too_many_unfinished`, …) and its whole answer, for refusals a page acts on. */
    readonly code?: string,
    readonly body?: unknown,
  ) {
    super(`${detail} (HTTP ${status})`);
  }
}

function problemOf(data: unknown, detail: string): RuleProblem | undefined {
  const d = data as { msgid?: unknown; params?: unknown; option?: unknown } | null;
  if (!d || typeof d !== "object" || typeof d.msgid !== "string") return undefined;
  const params = typeof d.params === "object" && d.params !== null ? (d.params as Record<string, unknown>) : {};
  return { option: typeof d.option === "string" ? d.option : null, message: detail, msgid: d.msgid, params };
}

function detailText(detail: unknown): string {
  if (typeof detail === "string") return detail;
  // FastAPI's 422 lists the failing fields.
  if (Array.isArray(detail)) {
    return detail
      .map((d) => {
        const item = d as { loc?: unknown[]; msg?: string };
        const where = (item.loc ?? []).filter((p) => p !== "body").join(".");
        return where ? `${where}: ${item.msg ?? ""}` : String(item.msg ?? "");
      })
      .join("; ");
  }
  return JSON.stringify(detail);
}

async function request<T>(method: string, path: string, body?: unknown): Promise<T> {
  const res = await fetch(path, {
    method,
    headers: body === undefined ? {} : { "Content-Type": "application/json" },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.text();
  let data: unknown = null;
  try {
    data = text ? JSON.parse(text) : null;
  } catch {
    data = text;
  }
  if (!res.ok) {
    const detail = (data as { detail?: unknown } | null)?.detail ?? data ?? res.statusText;
    const said = detailText(detail);
    const code = (data as { code?: unknown } | null)?.code;
    // A quota refusal carries a message id too, but it is not a rule problem: errors.ts words it.
    const problem = res.status === 429 ? undefined : problemOf(data, said);
    throw new ApiError(said, res.status, problem, typeof code === "string" ? code : undefined, data);
  }
  return data as T;
}

export const api = {
  games: () => request<GameInfo[]>("GET", "/api/games"),
  rules: (game: string, preset: string) =>
    request<RuleOption[]>("GET", `/api/games/${encodeURIComponent(game)}/rules?preset=${encodeURIComponent(preset)}`),
  createTable: (body: { game: string; preset: string | null; overrides: Record<string, unknown>; seats: SeatSpec[]; dice?: "rolled" | "real"; hints?: boolean; rated?: boolean; move_days?: number | null }) =>
    request<CreatedTable>("POST", "/api/tables", body),
  /** Offer a rematch of a finished table, or accept the one offered, for the seats held by `tokens`. */
  rematch: (table: string, tokens: Record<number, string>) =>
    request<{ table_id: string; tokens: Record<string, string>; ready: boolean }>("POST", `/api/tables/${encodeURIComponent(table)}/rematch`, { tokens }),
  openTables: () => request<TableInfo[]>("GET", "/api/tables?status=open"),
  /** Tables a stranger can join (a free seat), none of this player's own. */
  joinableTables: () => request<TableInfo[]>("GET", "/api/tables?status=open&joinable=true"),
  myGames: (limit: number, cursor?: GamesCursor | null) =>
    request<MyGames>("GET", `/api/me/games?limit=${limit}${cursor ? `&before=${cursor.before}&before_id=${encodeURIComponent(cursor.before_id)}` : ""}`),
  mySummary: () => request<{ your_turn: number }>("GET", "/api/me/summary"),
  /** Web Push (docs/web-protocol.md, "Notifications"): the key to subscribe with, and this browser's subscription. */
  pushKey: () => request<{ key: string }>("GET", "/api/push/key"),
  subscribePush: (subscription: PushSubscriptionJSON, lang: string) =>
    request<{ subscribed: boolean; devices: number }>("POST", "/api/me/push", { ...subscription, lang }),
  unsubscribePush: (endpoint: string) => request<{ removed: boolean }>("DELETE", "/api/me/push", { endpoint }),
  /** Makes this browser's player (a guest) if it has none: a seat taken from an invite link is then linked to it. */
  makeMe: () => request<{ player: Player }>("POST", "/api/me"),
  abandonedTables: (limit: number) => request<TableInfo[]>("GET", `/api/tables?status=abandoned&limit=${limit}`),
  /** Finished games of `games`, newest first; the next page: `before` = the last one's `created`. */
  finishedTables: (games: string[], limit: number, before?: number) =>
    request<TableInfo[]>(
      "GET",
      `/api/tables?status=finished&limit=${limit}${games.map((g) => `&game=${encodeURIComponent(g)}`).join("")}${before === undefined ? "" : `&before=${before}`}`,
    ),
  /** A player's profile by public id (names are not unique). */
  player: (id: string) => request<PlayerProfile>("GET", `/api/players/${encodeURIComponent(id)}`),
  nextPuzzle: (game: string, theme: string) => request<PuzzlePosition>("GET", `/api/puzzles/${encodeURIComponent(game)}/next${theme ? `?theme=${encodeURIComponent(theme)}` : ""}`),
  puzzle: (game: string, id: string) => request<PuzzlePosition>("GET", `/api/puzzles/${encodeURIComponent(game)}/${encodeURIComponent(id)}`),
  /** Classic Dice 1000's solved strategy as maps (docs/strategy.md). */
  strategy: () => request<StrategyData>("GET", "/api/strategy/thousand"),
  /** Where Clever's master bot's points come from (docs/strategy.md, "Clever"). */
  cleverStrategy: () => request<CleverStrategyData>("GET", "/api/strategy/clever"),
  answerPuzzle: (game: string, id: string, choice: string) => request<PuzzleVerdict>("POST", `/api/puzzles/${encodeURIComponent(game)}/${encodeURIComponent(id)}/answer`, { choice }),
  leaderboard: (game: string) => request<Leaderboard>("GET", `/api/leaderboard/${encodeURIComponent(game)}`),
  analysis: (id: string) => request<AnalysisResult>("GET", `/api/tables/${encodeURIComponent(id)}/analysis`),
  positions: (id: string) => request<Positions>("GET", `/api/tables/${encodeURIComponent(id)}/positions`),
  table: (id: string) => request<TableInfo>("GET", `/api/tables/${encodeURIComponent(id)}`),
  verifyDice: (id: string) => request<DiceVerdict>("GET", `/api/tables/${encodeURIComponent(id)}/verify`),
  me: () => request<{ player: Player | null }>("GET", "/api/me"),
  setName: (name: string) => request<{ player: Player }>("PUT", "/api/me/name", { name }),
  join: (id: string, seat: number, name: string) =>
    request<{ seat: number; token: string }>("POST", `/api/tables/${encodeURIComponent(id)}/join`, { seat, name }),
  checkRules: (body: { game: string; preset: string; overrides: Record<string, unknown> }) =>
    request<RulesCheck>("POST", "/api/rules/check", body),
  recordUrl: (id: string) => `/api/tables/${encodeURIComponent(id)}/record`,
  /** Give the game up for `seat` (held by `token`); the table page resigns over its websocket instead. */
  resign: (id: string, seat: number, token?: string) =>
    request<{ status: string }>("POST", `/api/tables/${encodeURIComponent(id)}/resign`, { seat, token }),
  /** Delete a table nobody else has joined; `tokens`: every seat this browser holds there. */
  deleteTable: (id: string, tokens: string[]) => request<{ status: string }>("DELETE", `/api/tables/${encodeURIComponent(id)}`, { tokens }),
  /** No token: the seat linked to this browser's player (resumed from Your games). */
  hints: (id: string, seat: number, token: string | undefined) =>
    request<HintsResult>("POST", `/api/tables/${encodeURIComponent(id)}/hints`, token ? { seat, token } : { seat }),
};

/** `GET /api/players/{id}` (docs/web-protocol.md): results per game, the last games, analysed figures over time. */
export interface PlayerProfile {
  id: string;
  name: string | null;
  kind: string;
  deleted: boolean;
  games: { game: string; played: number; wins: number; losses: number; draws: number }[];
  last: {
    table_id: string;
    game: string;
    preset: string | null;
    at: number;
    result: "win" | "loss" | "draw" | null;
    score: number | null;
    resigned: boolean;
    opponents: TableSeat[];
    accuracy: number | null;
    luck: number | null;
    decisions: number;
    /** false: the server's analyst has not analysed it yet. */
    analysed: boolean;
    analysis: string;
  }[];
  /** Oldest first: each analysed game's mean loss per decision and luck. */
  points: { at: number; game: string; accuracy: number; luck: number | null }[];
  /** Each game's rating (docs/ratings.md). */
  ratings?: PlayerRating[];
  /** The Dice 1000 puzzle rating and streak (docs/puzzles.md); null before the first rated answer. */
  puzzles?: PuzzleRating | null;
  /** The same for Clever's puzzles. */
  puzzles_clever?: PuzzleRating | null;
}

/** A player's puzzle rating (Glicko-2 against the puzzles) and streak. */
export interface PuzzleRating {
  rating: number;
  rd: number;
  provisional: boolean;
  streak: number;
  best_streak: number;
  solved: number;
  tried: number;
}

/** `GET /api/puzzles/{game}/next`: a position to solve (never its answer); `id` null: none left. */
export interface PuzzlePosition {
  id: string | null;
  theme?: string;
  /** The solver's seat in `view`. */
  mover?: number;
  view?: View;
  rules?: Record<string, unknown>;
  rating: PuzzleRating;
  themes: string[];
  /** Found in a game played here (the verdict links it). */
  found?: boolean;
}

/** `POST /api/puzzles/{game}/{id}/answer`: the server's verdict on a choice. */
export interface PuzzleVerdict {
  id: string;
  choice: string;
  best: string;
  correct: boolean;
  options: { move: string; value: number; loss: number; best: boolean }[];
  margin: number;
  theme: string;
  why: EngineMessage;
  /** false: the player answered this puzzle before (shown, not rated again). */
  rated: boolean;
  /** A puzzle found in a game played here: that table and the decision's step on its analysis board. */
  source?: { table: string; step: number };
  puzzle_rating: number;
  rating: PuzzleRating & { delta: number };
}

/** `POST /api/tables/{id}/hints`: every legal move of the seat with its value, best first (docs/analysis.md). */
export interface HintsResult {
  seat: number;
  unit: "win%" | "points" | "dice";
  note: string;
  /** The note's message id and parameters when it has one (the page words it in its language). */
  note_id?: string;
  note_params?: Record<string, string | number>;
  options: { move: string; value: number; loss: number; best: boolean }[];
  /** Der große Wurf: what aiming at each point of the arena is worth (views/wurf-hint.ts `HeatMap`). */
  map?: unknown;
}

/** One analysed event (`GET /api/tables/{id}/analysis`, docs/analysis.md). */
export interface AnalysisStep {
  n: number;
  kind: "decision" | "forced" | "roll" | "resign";
  seat: number;
  move: string;
  value: number;
  best: string;
  best_value: number;
  loss: number;
  class: "inaccuracy" | "mistake" | "blunder" | null;
  options: number;
  expected: number;
  luck: number;
}

export interface AnalysisTotals {
  seat: number;
  name: string;
  decisions: number;
  forced: number;
  loss: number;
  mean_loss: number;
  accuracy: number;
  rolls: number;
  luck: number;
  inaccuracies: number;
  mistakes: number;
  blunders: number;
  /** The proficiency band of mean_loss (null: no decisions, or a game without calibrated limits). */
  band: "expert" | "good" | "learning" | null;
  /** The decision that lost most (null when none lost anything). */
  costliest: AnalysisStep | null;
}

export interface AnalysisResult {
  game: string;
  players: string[];
  unit: "win%" | "points";
  note: string;
  note_id?: string;
  note_params?: Record<string, string | number>;
  thresholds: { inaccuracy: number; mistake: number; blunder: number };
  steps: AnalysisStep[];
  totals: AnalysisTotals[];
  /** series[k][seat]: each seat's value after the first k events. */
  series: number[][];
  final_scores: number[] | null;
  winners: number[] | null;
}

/** `GET /api/tables/{id}/positions`: the view before any event, then per event the fields that changed. */
export interface Positions {
  game: string;
  players: string[];
  first: View;
  /** `items`: for a list field of unchanged length, only its changed entries by index. */
  changes: { set: Record<string, unknown>; drop: string[]; items?: Record<string, Record<string, unknown>> }[];
  events: { seq: number; actor: number | "chance"; move: string }[];
}

// Seat tokens live in localStorage per table, so a reload (or a hot-seat browser) keeps its seats.
const TOKEN_KEY = (table: string) => `dicehall.tokens.${table}`;

export function loadTokens(table: string): Record<number, string> {
  try {
    const raw = localStorage.getItem(TOKEN_KEY(table));
    return raw ? (JSON.parse(raw) as Record<number, string>) : {};
  } catch {
    return {};
  }
}

export function saveToken(table: string, seat: number, token: string): void {
  const tokens = loadTokens(table);
  tokens[seat] = token;
  localStorage.setItem(TOKEN_KEY(table), JSON.stringify(tokens));
}

export function forgetTokens(table: string): void {
  localStorage.removeItem(TOKEN_KEY(table));
}

/** One situation's maps, indexed [own score][opponent's score] along `StrategyData.scores` (docs/strategy.md). */
export interface StrategyMapData {
  win: number[][];
  /** The smallest turn total to bank with 1..5 dice in hand (null: never, keep rolling). */
  bank: (number | null)[][][];
  /** Bit n-1: with n dice optimal play rolls again at some larger total (the dump truck's landing not counted). */
  mixed: number[][];
  /** The totals above each threshold where optimal play rolls, as [first, last] runs. */
  rolls_above: number[][][][][];
}

/** `GET /api/strategy/thousand`. */
export interface StrategyData {
  preset: string;
  step: number;
  scores: number[];
  rules: {
    target: number;
    open_min: number;
    pits: number[][];
    barrel: number | null;
    barrel_attempts: number;
    barrel_fall_penalty: number;
    barrel_falls_to_zero: number;
    bolts_count: number;
    bolt_penalty: number;
    dump_truck: number | null;
    overtake_penalty: number;
  };
  shipped: boolean;
  max_error: number;
  first_player: number;
  situations: Record<"plain" | "bolts" | "falls", StrategyMapData>;
  opening: { win: number[]; bank: (number | null)[][]; mixed: number[]; rolls_above: number[][][][] };
  on_barrel: { rows: { attempt: number; falls: number }[]; win: number[][] } | null;
  house_rules: HouseRules;
  practical: Practical;
}

/** A share of games won, with its 95 % Wilson interval. */
export interface Share {
  wins: number;
  games: number;
  share: number;
  ci95: [number, number];
}

/** The practical rule and its measured cost against bot:optimal (dicehall/thousand/data/practical.json). */
export interface Practical {
  /** Roll on with more than `few` dice until `threshold`; from `climb` on bank only onto the barrel. */
  rule: { threshold: number; few: number; climb: number };
  against: string;
  /** bot: "practical", "expert", "single:T:F" (bank at T or with F dice or fewer), "rule:T:F:C" (other numbers). */
  rows: (Share & { bot: string; seed: number; first: Share; second: Share; command: string })[];
}

/** A rate or a mean with its 95 % interval. */
export interface Estimate {
  value: number;
  low: number;
  high: number;
}

/** Every preset played by bot:expert against itself (dicehall/thousand/house_rules.py). */
export interface HouseRules {
  bot: string;
  games: number;
  seed: number;
  command: string;
  presets: {
    preset: string;
    first_player_wins: Estimate;
    turns: Estimate;
    games_with_dump_truck: Estimate;
    games_with_barrel_fall: Estimate;
    games_with_pit_refusal: Estimate;
    /** Games a house rule decided: the hit player lost the lead for good, and the game. */
    decided_by: Record<HouseEvent, Estimate>;
    barrel_falls_per_game: number;
    bolt_penalties_per_game: number;
    dump_truck: boolean;
    barrel: string;
    pits: number[][];
  }[];
  /** Each preset whose exact table was stored where the file was made: bot:optimal against itself, each event
   * valued by the exact table (dicehall/thousand/house_exact.py). */
  exact: ExactHouseRow[];
  /** The presets with no exact table there: their exact row is "not solved yet". */
  unsolved: string[];
  /** The presets the exact solver refuses (their table would be too large here): "too large to solve". */
  too_large?: string[];
}

export interface ExactHouseRow {
  preset: string;
  games: number;
  /** The first player's win chance from the table itself (its start position's value, no sampling). */
  solver_first_player_wins: number;
  first_player_wins: Estimate;
  turns: Estimate;
  barrel_falls_per_game: number;
  games_with: Record<HouseEvent, Estimate>;
  decided_by: Record<HouseEvent, Estimate>;
  /** Mean change of the hit player's win chance (a fraction), over every event of the kind; null: none met. */
  swing: Record<HouseEvent, (Estimate & { n: number }) | null>;
}

export type HouseEvent = "dump_truck" | "barrel" | "pit";

/** A mean with its 95 % interval. */
export interface Interval {
  mean: number;
  low: number;
  high: number;
}

/** One table size's figures of `GET /api/strategy/clever` (means per player). */
export interface CleverTableFigures {
  games: number;
  /** yellow, blue, green, orange, purple, fox_points, foxes, total. */
  areas: Record<string, Interval>;
  /** Per round: points gained (with intervals), the total at its end, and the areas' and foxes' gains. */
  rounds: { gained: Interval[]; total: number[]; areas: number[][] };
  /** Per round: +1 and re-rolls won and used. */
  bonuses: { plus_gained: number[]; plus_used: number[]; reroll_gained: number[]; reroll_used: number[] };
}

/** `GET /api/strategy/clever`: the shipped figures of dicehall/clever/strategy.py. */
export interface CleverStrategyData {
  seed: number;
  command: string;
  tables: Record<string, CleverTableFigures>;
  colours: { die: string; offered_per_game: number; picked_per_game: number; pick_share: number; edge: Interval }[];
  /** The value of one more +1 / re-roll on hand at each round's first roll. */
  actions: { plus: (Interval & { n: number })[]; reroll: (Interval & { n: number })[] };
  /** What using a +1 / re-roll was worth where the bot used one, and uses a game. */
  used: { plus: (Interval & { per_game: number })[]; reroll: (Interval & { per_game: number })[] };
  first_round: {
    decisions_per_game: number;
    median_margin: number;
    cut: number;
    shown_share: number;
    choices: { situation: string; best: string; second: string; per_100_games: number; margin: number }[];
  };
}
