// Dice 1000 table: the roll, set-aside dice, turn total, roll/bank with the refusal reason, scoreboard, R/B keys.
// Reads ThousandState.public_view(); field names are normalised in `read()` so the drawing code stays simple.
import type { LogEntry, View } from "../api";
import { die, dieSlot } from "../dice";
import { append, clear, h } from "../dom";
import { formatNumber, t } from "../i18n";
import { FocusKeeper } from "../focus";
import { DiceEntry, UndoEntryButton, realDice, type RealDiceInfo } from "../realdice";
import { describeEvent, moveInstruction, refusalText } from "./thousand-words";
import type { GameView, ViewContext } from "./index";

export interface PlayerStatus {
  seat: number;
  name: string;
  score: number;
  opened: boolean;
  pit: [number, number] | null;
  onBarrel: boolean;
  /** Barrel attempts used so far (turns on the barrel without winning). */
  barrelAttempts: number | null;
  barrelFalls: number;
  bolts: number;
  openPoints: number;
  skipNext: boolean;
  failedOpenings: number;
  /** Resigned: plays no more. */
  out: boolean;
}

export interface ThousandModel {
  current: number | null;
  chance: boolean;
  terminal: boolean;
  legal: string[];
  players: PlayerStatus[];
  roll: number[];
  rollScoring: number[];
  rollPoints: number | null;
  turnPlayer: number | null;
  setAside: number[];
  diceInHand: number;
  turnTotal: number;
  rolls: number;
  maxRolls: number;
  hotDice: boolean;
  confirming: boolean;
  /** The engine's reason (English text today, a message id later); the page words its own from the view. */
  bankRefusal: unknown;
  minBank: number;
  events: unknown[];
  winners: number[];
  target: number;
  barrel: string;
}

type Obj = Record<string, unknown>;

const num = (v: unknown, d = 0): number => (typeof v === "number" && Number.isFinite(v) ? v : d);
const nums = (v: unknown): number[] => (Array.isArray(v) ? v.filter((x): x is number => typeof x === "number") : []);
const pick = (o: Obj, ...keys: string[]): unknown => {
  for (const k of keys) if (o[k] !== undefined && o[k] !== null) return o[k];
  return undefined;
};

function readPit(v: unknown): [number, number] | null {
  const p = nums(v);
  return p.length === 2 ? [p[0], p[1]] : null;
}

function readPlayer(raw: unknown, seat: number, score: number): PlayerStatus {
  // `seat` is carried so badges can tell winners apart.
  const p: Obj = typeof raw === "object" && raw !== null ? (raw as Obj) : { name: raw };
  const attempts = pick(p, "barrel_attempts");
  return {
    seat,
    name: typeof p.name === "string" ? p.name : "",
    score: num(pick(p, "score"), score),
    opened: Boolean(pick(p, "opened")),
    pit: readPit(pick(p, "pit")),
    onBarrel: Boolean(pick(p, "on_barrel")),
    barrelAttempts: attempts === undefined ? null : num(attempts),
    barrelFalls: num(pick(p, "barrel_falls")),
    bolts: num(pick(p, "bolts")),
    openPoints: num(pick(p, "open_points")),
    skipNext: Boolean(pick(p, "skip_next_turn")),
    failedOpenings: num(pick(p, "failed_openings")),
    out: Boolean(pick(p, "out")),
  };
}

/** Normalise the engine's public view. */
export function read(v: View): ThousandModel {
  const o = v as unknown as Obj;
  const scores = nums(v.scores);
  const rawPlayers = Array.isArray(v.players) ? v.players : scores.map(() => null);
  const roll = nums(pick(o, "last_roll"));
  const combos = Array.isArray(o.last_combos) ? (o.last_combos as Obj[]) : [];
  const rollScoring = combos.flatMap((c) => nums(c.dice));
  const rollPoints = roll.length ? combos.reduce((sum, c) => sum + num(c.points), 0) : null;
  const cp = v.current_player;
  const events = pick(o, "events");
  return {
    current: typeof cp === "number" && cp >= 0 ? cp : null,
    chance: cp === "chance",
    terminal: Boolean(v.terminal),
    legal: Array.isArray(v.legal_actions) ? v.legal_actions : [],
    players: rawPlayers.map((p, i) => readPlayer(p, i, scores[i] ?? 0)),
    roll,
    rollScoring,
    rollPoints,
    turnPlayer: typeof o.turn_player === "number" ? o.turn_player : null,
    setAside: nums(pick(o, "set_aside")),
    diceInHand: num(pick(o, "dice_in_hand"), 5),
    turnTotal: num(pick(o, "turn_total")),
    rolls: num(pick(o, "rolls_this_turn")),
    maxRolls: num(pick(o, "max_rolls")),
    hotDice: Boolean(o.hot_dice),
    confirming: Boolean(o.confirming),
    bankRefusal: pick(o, "bank_refusal") ?? null,
    minBank: num(pick(o, "min_bank")),
    events: Array.isArray(events) ? events : [],
    winners: nums(v.winners),
    target: num(pick(o, "target"), 1000),
    barrel: typeof o.barrel === "string" ? o.barrel : "none",
  };
}

/** The bar towards the target (set through element.style: no inline style markup, CSP-clean). */
function progress(score: number, target: number): HTMLElement {
  const bar = h("span", { class: "progress" });
  bar.style.setProperty("--p", `${Math.max(0, Math.min(100, (score / target) * 100))}%`);
  return bar;
}

/** Mark which dice of `roll` scored (each scoring face used once per occurrence). */
function scoringMask(roll: number[], scoring: number[]): boolean[] {
  const left = [...scoring];
  return roll.map((d) => {
    const i = left.indexOf(d);
    if (i < 0) return false;
    left.splice(i, 1);
    return true;
  });
}

export function statusBadges(p: PlayerStatus, m: ThousandModel, rules: Record<string, unknown>): HTMLElement[] {
  const out: HTMLElement[] = [];
  const limit = (key: string): number | null => (typeof rules[key] === "number" && (rules[key] as number) > 0 ? (rules[key] as number) : null);
  const counted = (n: number, key: string): string => {
    const l = limit(key);
    return l === null ? formatNumber(n) : `${formatNumber(n)}/${formatNumber(l)}`;
  };
  if (!p.opened) out.push(h("span", { class: "badge muted", title: t("badge.not_opened_hint") }, t("badge.not_opened")));
  else out.push(h("span", { class: "badge open", title: t("badge.opened_hint") }, t("badge.opened")));
  if (p.pit) out.push(h("span", { class: "badge pit", title: t("badge.pit_hint", { low: p.pit[0], high: p.pit[1] }) }, t("badge.pit", { low: p.pit[0], high: p.pit[1] })));
  if (p.onBarrel) out.push(h("span", { class: "badge barrel", title: t("badge.barrel") }, t("badge.barrel"), p.barrelAttempts ? ` · ${t("badge.attempts", { count: counted(p.barrelAttempts, "barrel_attempts") })}` : ""));
  if (p.barrelFalls) out.push(h("span", { class: "badge", title: t("badge.falls_hint") }, t("badge.falls", { n: p.barrelFalls })));
  if (p.bolts) out.push(h("span", { class: "badge bolt", title: t("badge.bolts_hint") }, t("badge.bolts", { count: counted(p.bolts, "bolts_count") })));
  if (p.openPoints) out.push(h("span", { class: "badge", title: t("badge.points_hint") }, t("badge.points", { count: counted(p.openPoints, "open_points_limit") })));
  if (p.skipNext) out.push(h("span", { class: "badge muted" }, t("badge.skips")));
  if (p.out) out.push(h("span", { class: "badge muted", "data-testid": "seat-out" }, t("badge.resigned")));
  if (!p.opened && p.failedOpenings) out.push(h("span", { class: "badge muted", title: t("badge.failed_hint") }, t("badge.failed", { n: p.failedOpenings })));
  if (m.terminal && m.winners.includes(p.seat)) out.push(h("span", { class: "badge seat" }, t("badge.winner")));
  return out;
}

/** The log in words (see thousand-words.ts): `prev` is the view before the event, when known. */
export function describe(entry: LogEntry, state: View | null, seatName: (s: number) => string, prev: ThousandModel | null = null, rules: Record<string, unknown> = {}): string[] {
  const m = state ? read(state) : null;
  return describeEvent(entry, prev, m, rules, seatName, m?.events ?? []);
}

export class ThousandView implements GameView {
  private readonly status = h("p", { class: "turn-status", "data-testid": "turn-status", "aria-live": "polite" });
  private readonly goal = h("p", { class: "goal muted small", "data-testid": "goal" });
  private readonly tray = h("div", { class: "dice-tray", "data-testid": "roll", "aria-label": t("thousand.last_roll") });
  private readonly aside = h("div", { class: "dice-aside", "data-testid": "set-aside", "aria-label": t("thousand.set_aside") });
  private readonly total = h("div", { class: "turn-total", "data-testid": "turn-total" });
  // Both disabled until the first state says what is legal: the view is on the page before the state arrives.
  private readonly rollBtn = h("button", { type: "button", class: "btn primary big", disabled: true, "data-testid": "roll-btn", "aria-keyshortcuts": "R", title: t("thousand.roll_key") }, t("thousand.roll"), h("kbd", { class: "key" }, "R"));
  private readonly bankBtn = h("button", { type: "button", class: "btn big", disabled: true, "data-testid": "bank-btn", "aria-keyshortcuts": "B", "aria-describedby": "bank-reason", title: t("thousand.bank_key") }, t("thousand.bank"), h("kbd", { class: "key" }, "B"));
  private readonly extra = h("div", { class: "extra-actions" });
  // Why Bank is not possible yet: a neutral note beside the disabled button (nothing was refused: it was not pressed).
  private readonly reason = h("span", { class: "bank-reason muted small", id: "bank-reason", "data-testid": "bank-reason" });
  private readonly board = h("table", { class: "scoreboard", "data-testid": "scoreboard" });
  private readonly happenings = h("ul", { class: "happenings", "data-testid": "happenings" });
  /** The Hint panel's place on a narrow screen: under Roll/Bank, above the scoreboard. */
  readonly hintSlot = h("div", { class: "hint-slot" });
  private model: ThousandModel | null = null;
  private real: RealDiceInfo | null = null;
  private readonly entry = new DiceEntry({ format: (faces) => faces.join(","), submit: (outcome) => this.submitEntry(outcome) });
  private readonly undoBtn = new UndoEntryButton((seat) => this.ctx.undo(seat));
  private busy = false;
  private focus: FocusKeeper | null = null;
  private readonly onKey = (e: KeyboardEvent): void => this.key(e);

  constructor(
    root: HTMLElement,
    private readonly ctx: ViewContext,
  ) {
    this.rollBtn.addEventListener("click", () => this.send("roll"));
    this.bankBtn.addEventListener("click", () => this.send("bank"));
    root.append(
      h(
        "div",
        { class: "thousand" },
        this.status,
        this.goal,
        h("div", { class: "felt" }, h("div", { class: "felt-row" }, this.tray), h("div", { class: "aside-row" }, h("span", { class: "label" }, t("thousand.set_aside")), this.aside), this.total),
        this.entry.el,
        h("div", { class: "controls" }, this.rollBtn, this.bankBtn, this.reason, this.extra, this.undoBtn.el),
        this.hintSlot,
        this.happenings,
        this.board,
      ),
    );
    this.focus = new FocusKeeper(root.lastElementChild as HTMLElement);
    document.addEventListener("keydown", this.onKey);
  }

  destroy(): void {
    document.removeEventListener("keydown", this.onKey);
    this.entry.destroy();
  }

  describe(entry: LogEntry, state: View | null): string[] {
    // Called before update(): the current model still shows who was rolling.
    return describe(entry, state, this.ctx.seatName, this.model, this.ctx.rules());
  }

  moveText(move: string, state: View): string | null {
    return moveInstruction(move, read(state));
  }

  narrate(entry: LogEntry, before: View, after: View | null): string[] {
    return describe(entry, after, this.ctx.seatName, read(before), this.ctx.rules());
  }

  refused(): void {
    this.busy = false;
    this.entry.unlock();
    if (this.model) this.drawControls(this.model);
    this.focus?.restore(this.rollBtn, this.bankBtn);
  }

  /** Real dice: the seat of this browser that enters the pending throw, if any. */
  private enterer(m: ThousandModel): number | null {
    if (!this.real || !m.chance || m.terminal) return null;
    return this.real.enter.find((s) => this.ctx.mySeats().includes(s)) ?? null;
  }

  private submitEntry(outcome: string): boolean {
    const m = this.model;
    const seat = m ? this.enterer(m) : null;
    return seat !== null && this.ctx.enter(seat, outcome);
  }

  private drawEntry(m: ThousandModel, fresh: LogEntry | null): void {
    const seat = this.enterer(m);
    if (seat === null) {
      this.entry.hide();
      return;
    }
    const thrower = this.real?.roller ?? seat;
    const dice = Array.from({ length: Math.max(1, m.diceInHand) }, () => ({}));
    this.entry.show(dice, t("realdice.your_throw", { name: this.name(m, thrower) }), fresh === null);
  }

  /** The seat this browser acts for now, if any. */
  private actor(m: ThousandModel): number | null {
    return m.current !== null && this.ctx.mySeats().includes(m.current) ? m.current : null;
  }

  private send(move: string): void {
    const m = this.model;
    if (!m || this.busy) return;
    const seat = this.actor(m);
    if (seat === null || !m.legal.includes(move)) return;
    if (this.ctx.act(seat, move)) {
      this.busy = true;
      this.drawControls(m);
    }
  }

  private key(e: KeyboardEvent): void {
    if (e.ctrlKey || e.metaKey || e.altKey) return;
    const t = e.target as HTMLElement | null;
    if (t && (t.tagName === "INPUT" || t.tagName === "TEXTAREA" || t.tagName === "SELECT" || t.isContentEditable)) return;
    const k = e.key.toLowerCase();
    if (k === "r") this.send("roll");
    else if (k === "b") this.send("bank");
    else return;
    e.preventDefault();
  }

  update(state: View, fresh: LogEntry | null): void {
    const m = read(state);
    const prev = this.model;
    this.model = m;
    this.busy = false;
    const rolled = fresh !== null && fresh.actor === "chance";
    this.real = realDice(state);
    this.drawStatus(m);
    this.drawEntry(m, fresh);
    this.goal.textContent = this.goalText(m);
    this.drawDice(m, rolled);
    this.drawControls(m);
    this.drawBoard(m);
    clear(this.happenings);
    if (fresh) for (const line of describe(fresh, state, this.ctx.seatName, prev, this.ctx.rules()).slice(1)) this.happenings.append(h("li", null, line));
    this.focus?.restore(this.rollBtn, this.bankBtn, this.extra.querySelector("button"));
  }

  private goalText(m: ThousandModel): string {
    const r = this.ctx.rules();
    const parts = [t("thousand.goal.first_to", { target: m.target })];
    if (m.barrel === "score" && typeof r.barrel_score === "number") parts.push(t("thousand.goal.barrel_at", { score: r.barrel_score }));
    if (m.barrel === "open") parts.push(t("thousand.goal.exactly", { target: m.target }));
    if (typeof r.open_min === "number") parts.push(t("thousand.goal.open_with", { min: r.open_min }));
    const pits = Array.isArray(r.pits) ? (r.pits as number[][]) : [];
    if (pits.length) parts.push(t("thousand.goal.pits", { list: pits.map((p) => `${p[0]}–${p[1]}`).join(", ") }));
    return parts.join(" · ");
  }

  private name(m: ThousandModel, seat: number): string {
    return this.ctx.seatName(seat) || m.players[seat]?.name || "";
  }

  private drawStatus(m: ThousandModel): void {
    clear(this.status);
    if (m.terminal) {
      const names = m.winners.map((w) => this.name(m, w));
      this.status.append(names.length ? t("thousand.status.over_winners", { names: names.join(", "), n: names.length }) : t("table.game_over"));
      return;
    }
    if (m.current === null) {
      const thrower = this.real?.roller ?? m.turnPlayer;
      if (m.chance && this.real && thrower !== null && this.enterer(m) === null) this.status.append(t("realdice.waiting", { name: this.name(m, thrower) }));
      else if (!(m.chance && this.real)) this.status.append(m.chance ? t("thousand.status.rolling") : t("thousand.status.waiting"));
      return;
    }
    const name = this.name(m, m.current);
    const mine = this.actor(m) !== null;
    append(this.status, [
      h("span", { class: mine ? "you" : "" }, mine ? t("thousand.status.your_turn", { name }) : t("thousand.status.playing", { name })),
      m.rolls ? h("span", { class: "muted" }, " · ", m.maxRolls ? t("thousand.status.roll_of", { n: m.rolls, max: m.maxRolls }) : t("thousand.status.roll", { n: m.rolls }), " · ", t("thousand.status.dice_left", { n: m.diceInHand })) : null,
      m.hotDice ? h("span", { class: "hot" }, " · ", m.confirming ? t("thousand.status.hot_confirm") : t("thousand.status.hot_again")) : null,
    ]);
  }

  private drawDice(m: ThousandModel, rolled: boolean): void {
    clear(this.tray);
    const mask = scoringMask(m.roll, m.rollScoring);
    if (m.roll.length) {
      m.roll.forEach((d, i) => this.tray.append(die(d, { rolling: rolled, scoring: mask[i], delay: rolled ? i * 40 : 0 })));
    } else {
      for (let i = 0; i < Math.max(1, m.diceInHand); i++) this.tray.append(dieSlot());
    }
    if (m.roll.length && m.rollPoints !== null) {
      this.tray.append(h("span", { class: m.rollPoints ? "roll-points" : "roll-points zero" }, m.rollPoints ? `+${formatNumber(m.rollPoints)}` : t("thousand.zero_roll")));
    }
    clear(this.aside);
    if (m.setAside.length) for (const d of m.setAside) this.aside.append(die(d, { setAside: true }));
    else this.aside.append(h("span", { class: "muted" }, "—"));
    clear(this.total);
    this.total.append(h("span", { class: "label" }, t("thousand.turn_total")), h("strong", null, formatNumber(m.turnTotal)));
  }

  private drawControls(m: ThousandModel): void {
    const seat = this.actor(m);
    const canAct = seat !== null && !this.busy && !m.terminal;
    this.rollBtn.disabled = !(canAct && m.legal.includes("roll"));
    // Bank stays visible while refused so the player sees why.
    this.bankBtn.disabled = !(canAct && m.legal.includes("bank"));
    clear(this.extra);
    for (const a of m.legal.filter((x) => x !== "roll" && x !== "bank")) {
      const keep = /^keep (.+)$/.exec(a);
      this.extra.append(h("button", { type: "button", class: "btn", disabled: !canAct, "data-move": a, onclick: () => this.send(a) }, keep ? t("thousand.keep", { dice: keep[1].split(",").join(" ") }) : a));
    }
    this.undoBtn.update(this.real, this.ctx.mySeats(), (move) => move.split(",").join(" "));
    const why = seat !== null ? refusalText(m, this.ctx.rules(), m.bankRefusal) : null;
    this.reason.textContent = why ? t("thousand.bank_when", { bank: t("thousand.bank"), reason: why }) : "";
  }

  private drawBoard(m: ThousandModel): void {
    clear(this.board);
    this.board.append(
      h("thead", null, h("tr", null, h("th", { scope: "col" }, t("thousand.col.player")), h("th", { scope: "col", class: "num" }, t("thousand.col.score")), h("th", { scope: "col" }, t("thousand.col.status")))),
      h(
        "tbody",
        null,
        m.players.map((p, seat) =>
          h(
            "tr",
            { class: [seat === m.current ? "current" : "", m.winners.includes(seat) ? "winner" : ""].join(" ").trim(), "data-seat": seat },
            h("th", { scope: "row" }, seat === m.current ? "▶ " : "", this.name(m, seat), this.ctx.mySeats().includes(seat) ? h("span", { class: "you-tag" }, " ", t("thousand.you")) : null),
            h("td", { class: "num score" }, formatNumber(p.score), progress(p.score, m.target)),
            h("td", { class: "status" }, statusBadges(p, m, this.ctx.rules())),
          ),
        ),
      ),
    );
  }
}
