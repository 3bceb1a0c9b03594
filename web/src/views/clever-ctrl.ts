// The Clever table's controller (lichess's ctrl): what this device knows of the game (the table's position, each
// held seat's own position in a simultaneous phase), what the player has half-chosen (a die, a sheet tab), who holds
// the device in hot seat, and every input (a die, a cell, a button, a key). It never builds DOM: after a change it
// calls `redraw()`, and the view functions (clever-view-*.ts) draw it.
import type { EngineMessage, LogEntry, View } from "../api";
import type { PrivateChoice, Simultaneous } from "../connection";
import { realDice, type RealDiceInfo } from "../realdice";
import { DICE, type CleverModel, type DieName, type Move, type Reason, type SheetModel, type Target, parseMove, read, refusal, targetKey } from "./clever-model";
import { reasonText } from "./clever-words";
import type { ViewContext } from "./index";

export type SimpleMove = "reroll" | "forfeit" | "stop" | "pass";

function keyTarget(key: string): Target | null {
  const m = /^(yellow|blue)\.r(\d)c(\d)$/.exec(key);
  if (m) return { area: m[1] as Target["area"], r: Number(m[2]) - 1, c: Number(m[3]) - 1 };
  if (key === "green" || key === "orange" || key === "purple") return { area: key, r: 0, c: 0 };
  return null;
}

export class CleverCtrl {
  /** The table's position as everybody sees it. */
  m: CleverModel | null = null;
  selected: DieName | null = null;
  /** The sheet tab chosen by the reader (null: follow the game). */
  chosenTab: number | null = null;
  locked = false;
  reason = "";
  /** Hot seat: the seat that confirmed it holds the device. */
  holder: number | null = null;
  /** The cell the last move filled, marked on the mover's sheet only. */
  fresh = new Set<string>();
  freshSeat = -1;
  /** The dice just rolled tumble once; each roll draws them anew (their tumble plays again). */
  rolling = false;
  rollNo = 0;
  real: RealDiceInfo | null = null;
  /** A die was chosen by keyboard: the focus goes to its first lit cell once they are drawn. */
  focusCells = false;
  /** The state object last drawn (a redraw of the same state keeps the simultaneous choices). */
  private lastState: View | null = null;
  /** Simultaneous phase: each held seat's own position (from its `private` message), by seat. */
  private own = new Map<number, { choice: PrivateChoice; m: CleverModel }>();
  /** A simultaneous phase being committed: how many of each held seat's choices (made already, on its own
   * position) are still to come among the events. The table's state between those events asks that seat to
   * choose again; it decides nothing until they have all arrived. */
  private owed = new Map<number, number>();
  /** The seat this device decided for at the last change (a new one drops the chosen die and tab). */
  private lastSeat: number | null = null;

  constructor(
    readonly ctx: ViewContext,
    private readonly redraw: () => void,
  ) {}

  // -- what the server says ---------------------------------------------------------------------------------
  update(state: View, fresh: LogEntry | null): void {
    const m = read(state);
    if (!m.layout) return;
    const before = this.cur();
    if (fresh !== null) {
      // The first event after a simultaneous phase starts its commit: this device's seats' choices follow.
      if (this.m?.simultaneous) {
        this.owed = new Map([...this.own].filter(([, o]) => o.choice.moves.length > 0).map(([s, o]) => [s, o.choice.moves.length]));
      }
      const left = this.owed.get(Number(fresh.actor));
      if (left !== undefined) {
        if (left > 1) this.owed.set(Number(fresh.actor), left - 1);
        else this.owed.delete(Number(fresh.actor));
      }
    } else if (state !== this.lastState) this.owed.clear(); // a snapshot: the table as it is
    // A new state (an event, a snapshot) ends what the seats chose privately; the server sends it again while
    // the phase is open. A redraw of the same state (seats changed) keeps it.
    if (fresh !== null || state !== this.lastState) this.own.clear();
    this.lastState = state;
    this.m = m;
    this.real = realDice(state);
    this.locked = false;
    this.reason = "";
    this.fresh = new Set();
    if (fresh && fresh.actor !== "chance") {
      const mv = parseMove(fresh.move);
      if (mv && (mv.kind === "entry" || mv.kind === "choose")) {
        this.fresh.add(targetKey(mv.target));
        this.freshSeat = Number(fresh.actor);
      }
    }
    this.afterChange(before, fresh !== null && fresh.actor === "chance");
  }

  /** Simultaneous seats: a seat of this browser moved on its own position (or the phase opened for it). */
  private(choice: PrivateChoice): void {
    if (!this.ctx.mySeats().includes(choice.seat)) return;
    const m = read(choice.state);
    if (!m.layout) return;
    const before = this.cur();
    this.own.set(choice.seat, { choice, m });
    this.locked = false;
    this.reason = "";
    this.fresh = new Set();
    const last = choice.moves.length ? parseMove(choice.moves[choice.moves.length - 1]) : null;
    if (last && (last.kind === "entry" || last.kind === "choose")) {
      this.fresh.add(targetKey(last.target));
      this.freshSeat = choice.seat;
    }
    this.afterChange(before, false);
  }

  /** Simultaneous seats: the phase opened or a seat finished (never what it chose). */
  progress(sim: Simultaneous): void {
    if (!this.m) return;
    this.m = { ...this.m, simultaneous: sim, deciders: sim.waiting_for };
    this.redraw();
  }

  /** The server refused the last move: the controls are live again. */
  unlock(): void {
    this.locked = false;
    this.redraw();
  }

  private afterChange(before: CleverModel | null, rolled: boolean): void {
    const c = this.cur() as CleverModel;
    this.rolling = rolled;
    if (rolled) this.rollNo++;
    if (!before || before.actor !== c.actor || before.step !== c.step || this.mySeat() !== this.lastSeat) {
      this.selected = null;
      if (!before || before.actor !== c.actor || this.mySeat() !== this.lastSeat) this.chosenTab = null;
    }
    this.lastSeat = this.mySeat();
    if (this.selected && !this.movesFor(this.selected).length) this.selected = null;
    this.redraw();
  }

  // -- who may act ------------------------------------------------------------------------------------------
  /** The position this browser decides in now: the deciding seat's own (simultaneous phase) or the table's. */
  cur(): CleverModel | null {
    const seat = this.mySeat();
    return (seat !== null ? this.own.get(seat)?.m : undefined) ?? this.m;
  }

  hotSeat(): boolean {
    return this.ctx.mySeats().length > 1;
  }

  /** The seat this device decides for now, if any (in a simultaneous phase: the holder first, once it has its
   * own position from the server; then the next seat of this device still choosing). */
  mySeat(): number | null {
    const m = this.m;
    if (!m) return null;
    const mine = this.ctx.mySeats().filter((s) => !this.owed.has(s));
    const sim = m.simultaneous;
    if (sim) {
      const choosing = (s: number): boolean => mine.includes(s) && sim.waiting_for.includes(s) && this.own.get(s)?.choice.done === false;
      if (this.holder !== null && choosing(this.holder)) return this.holder;
      return sim.seats.find(choosing) ?? null;
    }
    return m.deciders.find((s) => mine.includes(s)) ?? null;
  }

  needsHandover(): boolean {
    const seat = this.mySeat();
    return this.hotSeat() && seat !== null && seat !== this.holder;
  }

  myMoves(): Move[] {
    const c = this.cur();
    if (!c || this.locked || this.mySeat() === null || this.needsHandover()) return [];
    return c.legal;
  }

  movesFor(d: DieName): Move[] {
    return this.myMoves().filter((x) => x.kind === "entry" && x.die === d);
  }

  simple(kind: SimpleMove): Move | undefined {
    return this.myMoves().find((x) => x.kind === kind);
  }

  /** The sheet shown: the reader's tab, else the deciding seat's, else this device's, else the mover's. */
  shownSeat(): number {
    const m = this.m;
    if (!m) return 0;
    if (this.chosenTab !== null && this.chosenTab < m.sheets.length) return this.chosenTab;
    const mine = this.ctx.mySeats();
    const me = this.mySeat();
    if (me !== null) return me;
    if (m.actor !== null && mine.includes(m.actor)) return m.actor;
    if (mine.length === 1) return mine[0];
    return m.actor ?? m.active;
  }

  /** The sheet as this device may see it: a seat's provisional choice (its own position) only to that seat —
   * in hot seat only while it holds the device; everyone else sees the sheet as the passive phase found it. */
  visibleSheet(seat: number): SheetModel {
    const m = this.m as CleverModel;
    const own = this.own.get(seat);
    if (own && (!this.hotSeat() || seat === this.holder)) return own.m.sheets[seat] ?? m.sheets[seat];
    return m.sheets[seat];
  }

  /** Whether the sheet of `seat` drawn now is the one its last move was made on (its fresh cell may be marked). */
  drawnAsMoved(seat: number, m: CleverModel): boolean {
    const visible = this.visibleSheet(seat);
    return visible === m.sheets[seat] || visible === this.own.get(seat)?.m.sheets[seat];
  }

  /** The cells lit for the player: where the chosen die (or a bonus cross) can go. */
  targets(): Set<string> {
    const out = new Set<string>();
    if (this.mySeat() !== this.shownSeat()) return out;
    for (const mv of this.myMoves()) {
      if (mv.kind === "choose" || (mv.kind === "entry" && this.selected === mv.die)) out.add(targetKey(mv.target));
    }
    return out;
  }

  // -- input --------------------------------------------------------------------------------------------------
  send(move: Move): void {
    const seat = this.mySeat();
    if (seat === null || this.locked) return;
    if (this.ctx.act(seat, move.text)) {
      this.locked = true;
      this.selected = null;
      this.reason = "";
      this.redraw();
    }
  }

  private refuse(r: Reason | EngineMessage | null): void {
    this.reason = r ? reasonText(r) : "";
    this.redraw();
  }

  clickDie(d: DieName): void {
    const m = this.cur();
    const seat = this.mySeat();
    if (!m || seat === null || this.locked || this.needsHandover()) return;
    if (this.shownSeat() !== seat) this.chosenTab = seat;
    const moves = this.movesFor(d);
    if (!moves.length) return this.refuse(refusal(m, d));
    if (moves.length === 1) return this.send(moves[0]);
    this.selected = this.selected === d ? null : d;
    this.reason = "";
    this.redraw();
  }

  clickCell(key: string): void {
    const m = this.cur();
    const seat = this.mySeat();
    const tg = keyTarget(key);
    if (!m || !tg || this.locked || this.needsHandover()) return;
    if (seat === null) {
      if (m.actor !== null && !m.terminal) this.refuse({ id: "not_yours", params: { name: this.ctx.seatName(m.actor) } });
      return;
    }
    if (this.shownSeat() !== seat) return this.refuse({ id: "other_sheet", params: { name: this.ctx.seatName(this.shownSeat()) } });
    const here = this.myMoves().filter((x) => (x.kind === "entry" || x.kind === "choose") && targetKey(x.target) === key && (x.kind !== "entry" || !this.selected || x.die === this.selected));
    if (m.step === "bonus") {
      if (here.length) return this.send(here[0]);
      return this.refuse({ id: "bonus_cell", params: {} });
    }
    if (this.selected) {
      if (here.length) return this.send(here[0]);
      return this.refuse(refusal(m, this.selected, key));
    }
    const dice = new Set(here.map((x) => (x.kind === "entry" ? x.die : "")));
    if (here.length && dice.size === 1) return this.send(here[0]);
    this.refuse({ id: "pick_die", params: {} });
  }

  /** The chosen die is put back (Cancel, Escape). */
  cancel(): void {
    this.selected = null;
    this.reason = "";
    this.redraw();
  }

  showTab(seat: number): void {
    this.chosenTab = seat;
    this.redraw();
  }

  /** Hot seat: the seat to decide says it holds the device now. */
  takeOver(): void {
    this.holder = this.mySeat();
    this.lastSeat = this.holder;
    this.chosenTab = null;
    this.selected = null;
    this.redraw();
  }

  /** The table's keys: 1–6 a die, R re-roll, F forfeit, N take nothing / no +1, Esc cancel; Enter at a handover.
   * True when the key was this table's. */
  key(k: string): boolean {
    if (this.needsHandover()) {
      if (k !== "enter" && k !== " ") return false;
      this.takeOver();
      return true;
    }
    if (k >= "1" && k <= "6") {
      this.focusCells = true;
      this.clickDie(DICE[Number(k) - 1]);
      return true;
    }
    if (k === "escape") {
      this.cancel();
      return true;
    }
    const map: Record<string, SimpleMove> = { r: "reroll", f: "forfeit" };
    const mv = k === "n" ? (this.simple("stop") ?? this.simple("pass")) : map[k] ? this.simple(map[k]) : undefined;
    if (mv) this.send(mv);
    return false;
  }
}
