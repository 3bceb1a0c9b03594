// Ganz schön clever table: the six dice (rolled, on the three fields, on the silver platter), the score sheets
// (tabs for every player), and the decision at hand — pick a die and a lit cell, re-roll, +1, forfeit, take
// nothing, place a bonus cross. The passive players choose at the same time (the server's simultaneous seats):
// each seat of this browser plays on its own position (the `private` messages), the others show only as
// "choosing…" / "done". Hot seat: a handover screen between the players on this device, and a seat's provisional
// choice is drawn only while that seat holds the device. Real dice: the tap input for the six dice by colour.
import "./clever.css";
import type { EngineMessage, LogEntry, View } from "../api";
import type { PrivateChoice, Simultaneous } from "../connection";
import { DiceEntry, type EntryDie, UndoEntryButton, realDice, type RealDiceInfo } from "../realdice";
import { die } from "../dice";
import { FocusKeeper } from "../focus";
import { clear, h } from "../dom";
import { formatNumber, t } from "../i18n";
import { DICE, LETTER_OF, type CleverModel, type DieName, type Move, type Reason, type SheetModel, type Target, parseMove, parseRoll, read, refusal, targetKey } from "./clever-model";
import { attributesModule, init, type VNode } from "snabbdom";
import { drawSheet } from "./clever-sheet";
import { dieBadge } from "./clever-symbols";
import { areaWord, describeEvent, dieWord, moveText, pendingLines, ratingText, reasonText, statusText, tieBreakText } from "./clever-words";
import type { GameView, ViewContext } from "./index";

const patch = init([attributesModule]);

function keyTarget(key: string): Target | null {
  const m = /^(yellow|blue)\.r(\d)c(\d)$/.exec(key);
  if (m) return { area: m[1] as Target["area"], r: Number(m[2]) - 1, c: Number(m[3]) - 1 };
  if (key === "green" || key === "orange" || key === "purple") return { area: key, r: 0, c: 0 };
  return null;
}

export class CleverView implements GameView {
  private m: CleverModel | null = null;
  private selected: DieName | null = null;
  /** The sheet tab chosen by the reader (null: follow the game). */
  private chosenTab: number | null = null;
  private locked = false;
  private reason = "";
  /** Hot seat: the seat that confirmed it holds the device. */
  private holder: number | null = null;
  /** The state object last drawn (a redraw of the same state keeps the simultaneous choices). */
  private lastState: View | null = null;
  /** Simultaneous phase: each held seat's own position (from its `private` message), by seat. */
  private own = new Map<number, { choice: PrivateChoice; m: CleverModel }>();
  /** A simultaneous phase being committed: how many of each held seat's choices (made already, on its own
   * position) are still to come among the events. The table's state between those events asks that seat to
   * choose again; it decides nothing until they have all arrived. */
  private owed = new Map<number, number>();
  private real: RealDiceInfo | null = null;
  private readonly entry = new DiceEntry({ format: (faces) => this.rollText(faces), submit: (outcome) => this.submitEntry(outcome), changed: () => this.drawPlatterPick() });
  private readonly undoBtn = new UndoEntryButton((seat) => this.ctx.undo(seat));
  /** Real dice, solo passive roll: the dice tapped for the silver platter where a tie leaves a choice. */
  private platterPick: DieName[] = [];
  private readonly platterBox = h("div", { class: "clever-platter-pick", "data-testid": "platter-pick", hidden: true });
  private readonly together = h("ul", { class: "clever-together", "data-testid": "together", hidden: true });
  /** The cell the last move filled, marked on the mover's sheet only. */
  private fresh = new Set<string>();
  private freshSeat = -1;
  private rolling = false;
  /** The seat this device decided for at the last change (a new one drops the chosen die and tab). */
  private lastSeat: number | null = null;

  private readonly status = h("p", { class: "clever-status", "data-testid": "turn-status", "aria-live": "polite" });
  private readonly hint = h("p", { class: "clever-hint muted small", "data-testid": "hint" });
  private readonly pending = h("p", { class: "clever-pending", "data-testid": "pending-bonus", hidden: true });
  private readonly tray = h("div", { class: "clever-tray", "data-testid": "tray" });
  private readonly controls = h("div", { class: "clever-controls", "data-testid": "controls" });
  private readonly why = h("p", { class: "clever-why", role: "alert", "data-testid": "why" });
  private readonly tabs = h("div", { class: "clever-tabs", role: "tablist", "aria-label": t("clever.sheets") });
  private readonly sheetBox = h("div", { class: "clever-sheet-box", "data-testid": "sheet" });
  /** The sheet as last drawn (snabbdom patches the next drawing into it); first a placeholder element. */
  private sheetVNode: VNode | Element = this.sheetBox.appendChild(h("div"));
  private readonly board = h("div", { class: "clever-board" });
  private readonly handover = h("div", { class: "clever-handover card", hidden: true, "data-testid": "handover" });

  constructor(
    private readonly root: HTMLElement,
    private readonly ctx: ViewContext,
  ) {
    // Two parts, side by side on a wide screen: the decision (status, dice, buttons) and the sheets it acts on.
    this.board.append(
      h(
        "div",
        { class: "clever-decision" },
        h("div", { class: "clever-head" }, h("div", { class: "clever-round", "data-testid": "round" }), this.status),
        this.together,
        this.entry.el,
        this.platterBox,
        this.tray,
        this.pending,
        this.controls,
        this.why,
        this.hint,
        h("p", { class: "muted small keys-hint" }, t("clever.keys")),
      ),
      h("div", { class: "clever-sheets" }, this.tabs, this.sheetBox),
    );
    root.append(this.board, this.handover);
    root.classList.add("clever-root");
    this.sheetBox.addEventListener("click", (e) => {
      const el = (e.target as Element).closest("[data-target]");
      if (el) this.clickCell(el.getAttribute("data-target") ?? "");
    });
    // a lit cell reached with Tab takes the die on Enter or Space
    this.sheetBox.addEventListener("keydown", (e) => {
      const el = (e.target as Element).closest("[data-target]");
      if (!el) return;
      if (this.arrowTo(e, el, ".cell.target")) return;
      if (e.key !== "Enter" && e.key !== " ") return;
      e.preventDefault();
      e.stopPropagation();
      this.clickCell(el.getAttribute("data-target") ?? "");
    });
    this.tray.addEventListener("keydown", (e) => {
      const el = (e.target as HTMLElement).closest(".cdie.pickable") as HTMLElement | null;
      if (!el) return;
      if (this.arrowTo(e, el, ".cdie.pickable")) return;
      if (e.key !== "Enter" && e.key !== " ") return;
      e.preventDefault();
      e.stopPropagation();
      this.focusCells = true;
      this.clickDie(el.dataset.die as DieName);
    });
    this.focus = new FocusKeeper(root);
    document.addEventListener("keydown", this.onKey);
    window.addEventListener("resize", this.fitSheet);
    this.moved.observe(document.body); // what stands above the sheet may change (the table's title, its badges)
  }

  private readonly moved = new ResizeObserver(() => this.fitSheet());
  private readonly focus: FocusKeeper;
  /** A die was chosen by keyboard: the focus goes to its first lit cell once they are drawn. */
  private focusCells = false;

  destroy(): void {
    document.removeEventListener("keydown", this.onKey);
    window.removeEventListener("resize", this.fitSheet);
    this.moved.disconnect();
    this.entry.destroy();
    this.root.classList.remove("clever-root");
  }

  refused(): void {
    this.locked = false;
    this.entry.unlock();
    this.render();
  }

  describe(entry: LogEntry, state: View | null): string[] {
    // (the page asks for the words before it shows the new state: this.m is still the position the move was made in)
    // (a passive choice reaches the log only when the whole simultaneous phase is over: nothing to hide)
    return describeEvent(entry, state, this.m, this.ctx.seatName);
  }

  moveText(move: string, state: View): string | null {
    return moveText(read(state), move, this.ctx.seatName);
  }

  narrate(entry: LogEntry, before: View, after: View | null): string[] {
    // (a move not played is worded on the position it was chosen in)
    return describeEvent(entry, after ?? before, read(before), this.ctx.seatName);
  }

  summary(state: View): { headline: string; body: HTMLElement } {
    const m = read(state);
    const name = this.ctx.seatName;
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
    this.rolling = fresh?.actor === "chance";
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
    this.render();
  }

  private afterChange(before: CleverModel | null, rolled: boolean): void {
    const c = this.cur() as CleverModel;
    this.rolling = rolled;
    if (!before || before.actor !== c.actor || before.step !== c.step || this.mySeat() !== this.lastSeat) {
      this.selected = null;
      if (!before || before.actor !== c.actor || this.mySeat() !== this.lastSeat) this.chosenTab = null;
    }
    this.lastSeat = this.mySeat();
    if (this.selected && !this.movesFor(this.selected).length) this.selected = null;
    this.render();
  }

  /** The position this browser decides in now: the deciding seat's own (simultaneous phase) or the table's. */
  private cur(): CleverModel | null {
    const seat = this.mySeat();
    return (seat !== null ? this.own.get(seat)?.m : undefined) ?? this.m;
  }

  // -- who may act ------------------------------------------------------------------------------------------
  private hotSeat(): boolean {
    return this.ctx.mySeats().length > 1;
  }

  /** The seat this device decides for now, if any (in a simultaneous phase: the holder first, once it has its
   * own position from the server; then the next seat of this device still choosing). */
  private mySeat(): number | null {
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

  private needsHandover(): boolean {
    const seat = this.mySeat();
    return this.hotSeat() && seat !== null && seat !== this.holder;
  }

  private myMoves(): Move[] {
    const c = this.cur();
    if (!c || this.locked || this.mySeat() === null || this.needsHandover()) return [];
    return c.legal;
  }

  private movesFor(d: DieName): Move[] {
    return this.myMoves().filter((x) => x.kind === "entry" && x.die === d);
  }

  private shownSeat(): number {
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
  private visibleSheet(seat: number): SheetModel {
    const m = this.m as CleverModel;
    const own = this.own.get(seat);
    if (own && (!this.hotSeat() || seat === this.holder)) return own.m.sheets[seat] ?? m.sheets[seat];
    return m.sheets[seat];
  }

  // -- acting -----------------------------------------------------------------------------------------------
  private send(move: Move): void {
    const seat = this.mySeat();
    if (seat === null || this.locked) return;
    if (this.ctx.act(seat, move.text)) {
      this.locked = true;
      this.selected = null;
      this.reason = "";
      this.render();
    }
  }

  private refuse(r: Reason | EngineMessage | null): void {
    this.reason = r ? reasonText(r) : "";
    this.render();
  }

  private clickDie(d: DieName): void {
    const m = this.cur();
    const seat = this.mySeat();
    if (!m || seat === null || this.locked || this.needsHandover()) return;
    if (this.shownSeat() !== seat) this.chosenTab = seat;
    const moves = this.movesFor(d);
    if (!moves.length) return this.refuse(refusal(m, d));
    if (moves.length === 1) return this.send(moves[0]);
    this.selected = this.selected === d ? null : d;
    this.reason = "";
    this.render();
  }

  private clickCell(key: string): void {
    const m = this.cur();
    const seat = this.mySeat();
    const tg = keyTarget(key);
    if (!m || !tg || this.locked || this.needsHandover()) return;
    if (seat === null) {
      if (m.actor !== null && !m.terminal) this.refuse({ id: "not_yours", params: { name: this.ctx.seatName(m.actor) } });
      return;
    }
    if (this.shownSeat() !== seat) return this.refuse({ id: "other_sheet", params: { name: this.ctx.seatName(this.shownSeat()) } });
    const moves = this.myMoves();
    const here = moves.filter((x) => (x.kind === "entry" || x.kind === "choose") && targetKey(x.target) === key && (x.kind !== "entry" || !this.selected || x.die === this.selected));
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

  private simple(kind: "reroll" | "forfeit" | "stop" | "pass"): Move | undefined {
    return this.myMoves().find((x) => x.kind === kind);
  }

  private readonly onKey = (e: KeyboardEvent): void => {
    const target = e.target as HTMLElement | null;
    if (target && (target.tagName === "INPUT" || target.tagName === "SELECT" || target.tagName === "TEXTAREA")) return;
    if (e.ctrlKey || e.metaKey || e.altKey) return;
    if (this.needsHandover()) {
      if (e.key === "Enter" || e.key === " ") {
        e.preventDefault();
        this.takeOver();
      }
      return;
    }
    const k = e.key.toLowerCase();
    if (k >= "1" && k <= "6") {
      this.focusCells = true;
      return this.clickDie(DICE[Number(k) - 1]);
    }
    if (k === "escape") {
      this.selected = null;
      this.reason = "";
      return this.render();
    }
    const map: Record<string, "reroll" | "forfeit" | "stop" | "pass"> = { r: "reroll", f: "forfeit" };
    const mv = k === "n" ? (this.simple("stop") ?? this.simple("pass")) : map[k] ? this.simple(map[k]) : undefined;
    if (mv) this.send(mv);
  };

  /** Arrow keys step through the lit cells (or the dice that can be chosen) in their order on the page. */
  private arrowTo(e: KeyboardEvent, from: Element, selector: string): boolean {
    const step = e.key === "ArrowRight" || e.key === "ArrowDown" ? 1 : e.key === "ArrowLeft" || e.key === "ArrowUp" ? -1 : 0;
    if (!step) return false;
    const all = [...this.root.querySelectorAll(selector)];
    const next = all[(all.indexOf(from) + step + all.length) % all.length] as HTMLElement | SVGElement | undefined;
    e.preventDefault();
    e.stopPropagation();
    next?.focus();
    return true;
  }

  private takeOver(): void {
    this.holder = this.mySeat();
    this.lastSeat = this.holder;
    this.chosenTab = null;
    this.selected = null;
    this.render();
  }

  // -- drawing ----------------------------------------------------------------------------------------------
  private render(): void {
    const pub = this.m;
    const m = this.cur();
    if (!m || !pub) return;
    const name = this.ctx.seatName;
    const seat = this.mySeat();
    const handover = this.needsHandover();
    const entering = !handover && this.drawEntry(pub);
    // for tests and styling: what this device can do now
    this.root.dataset.state = m.terminal ? "over" : handover ? "handover" : entering ? "enter" : seat !== null && !this.locked ? "act" : "wait";
    this.handover.hidden = !handover;
    this.board.hidden = handover;
    if (handover && seat !== null) this.drawHandover(seat);

    (this.board.querySelector(".clever-round") as HTMLElement).textContent = t("clever.round", { round: Math.min(m.round, m.rounds), rounds: m.rounds });
    this.status.textContent = pub.simultaneous ? t("clever.status.together") : statusText(m, name);
    this.status.classList.toggle("mine", seat !== null);
    this.drawTogether(pub);
    this.hint.textContent = seat === null ? "" : this.hintText(m);
    this.pending.hidden = !m.pending;
    clear(this.pending);
    pendingLines(m, name).forEach((line, i) => this.pending.append(h("span", { class: i ? "pending-then" : "pending-now" }, line)));
    this.why.textContent = this.reason;
    this.drawTray(m);
    this.drawControls(m, seat);
    this.undoBtn.update(this.real, this.ctx.mySeats(), (move) => this.rollWords(move));
    this.controls.append(this.undoBtn.el);
    this.drawTabs(pub);
    this.drawSheet(m);
    this.fitSheet();
    this.placeFocus();
  }

  /** Keyboard play: a die chosen by key hands the focus to its first lit cell; focus dropped by a redraw goes back
   * to the same die or cell, else to the first die to choose or the first button. */
  private placeFocus(): void {
    const cells = this.root.querySelector(".clever-sheet .cell.target");
    if (this.focusCells && this.selected && cells) this.focus.moveTo(cells);
    else this.focus.restore(cells, this.tray.querySelector(".cdie.pickable"), this.controls.querySelector("button"), this.handover.querySelector("button"));
    this.focusCells = false;
  }

  /** The sheet as wide as lets the whole of it show under what stands above it (the decision, on a phone; the
   * tabs beside it on a wide screen), never narrower than 280 px (its picture is 640 × 690). */
  private readonly fitSheet = (): void => {
    if (!this.sheetBox.isConnected || this.board.hidden) return;
    const top = this.sheetBox.getBoundingClientRect().top + window.scrollY;
    const room = window.innerHeight - top - 10;
    this.root.style.setProperty("--sheet-fit", `${Math.max(280, Math.floor((room * 640) / 690))}px`);
  };

  /** Who chooses in a simultaneous phase: "choosing…" or "done" per seat, never what. */
  private drawTogether(m: CleverModel): void {
    clear(this.together);
    const sim = m.simultaneous;
    this.together.hidden = !sim;
    if (!sim) return;
    const mine = this.ctx.mySeats();
    for (const s of sim.seats) {
      const done = !sim.waiting_for.includes(s);
      const id = done ? (mine.includes(s) && !this.hotSeat() ? "clever.sim.done_mine" : "clever.sim.done") : "clever.sim.choosing";
      this.together.append(h("li", { class: done ? "done" : "choosing", "data-seat": s, "data-done": String(done) }, t(id, { name: this.ctx.seatName(s) })));
    }
  }

  // -- real dice --------------------------------------------------------------------------------------------
  /** The seat of this browser that enters the dice now, if any. */
  private enterer(m: CleverModel): number | null {
    if (!this.real || m.terminal || m.actor !== null || m.step === "over") return null;
    return this.real.enter.find((s) => this.ctx.mySeats().includes(s)) ?? null;
  }

  /** The dice to enter: those being thrown, or all six for the solo passive roll (W Y B G O P order). */
  private entryDice(m: CleverModel): DieName[] {
    if (m.step === "passive_roll") return [...DICE];
    return DICE.filter((d) => m.dice.find((x) => x.die === d)?.where === "to_roll");
  }

  /** Show (or hide) the tap input; true when this browser enters the dice now. */
  private drawEntry(m: CleverModel): boolean {
    const seat = this.enterer(m);
    if (seat === null) {
      this.entry.hide();
      this.platterBox.hidden = true;
      return false;
    }
    const dice = this.entryDice(m);
    const shown: EntryDie[] = dice.map((d) => ({ label: dieWord(d), color: d }));
    const prompt = m.step === "passive_roll" ? t("clever.entry.passive") : t("realdice.your_throw", { name: this.ctx.seatName(this.real?.roller ?? seat) });
    const key = `${m.step}.${m.round}.${m.rollsDone}.${dice.join()}`;
    this.entry.show(shown, prompt, key === this.entryKey);
    if (key !== this.entryKey) this.platterPick = [];
    this.entryKey = key;
    this.drawPlatterPick();
    return true;
  }

  private entryKey = "";

  /** Solo passive roll: the three lowest dice go to the silver platter; where a tie leaves a choice, the tied
   * dice that fill it are tapped (the lowest strictly below the tie go there anyway). */
  private platterChoice(faces: (number | null)[]): { sure: DieName[]; tied: DieName[]; need: number } | null {
    const m = this.cur();
    if (!m || m.step !== "passive_roll" || faces.some((f) => f === null)) return null;
    const vals = faces as number[];
    const cut = [...vals].sort((a, b) => a - b)[2];
    const sure = DICE.filter((_, i) => vals[i] < cut);
    const tied = DICE.filter((_, i) => vals[i] === cut);
    return { sure, tied, need: 3 - sure.length };
  }

  private drawPlatterPick(): void {
    const choice = this.entry.el.hidden ? null : this.platterChoice(this.entry.faces());
    clear(this.platterBox);
    this.platterBox.hidden = !choice || choice.tied.length <= choice.need;
    if (!choice || this.platterBox.hidden) return;
    this.platterPick = this.platterPick.filter((d) => choice.tied.includes(d));
    this.platterBox.append(h("span", { class: "small" }, t("clever.entry.platter", { n: choice.need })));
    for (const d of choice.tied) {
      const on = this.platterPick.includes(d);
      const b = h("button", { type: "button", class: `btn small die-pick${on ? " on" : ""}`, "aria-pressed": String(on), "data-die": d, onclick: () => this.togglePlatter(d, choice.need) }, dieWord(d));
      this.platterBox.append(b);
    }
  }

  private togglePlatter(d: DieName, need: number): void {
    if (this.platterPick.includes(d)) this.platterPick = this.platterPick.filter((x) => x !== d);
    else this.platterPick = [...this.platterPick, d].slice(-need);
    this.drawPlatterPick();
  }

  /** The faces in Clever's chance notation: `W3 Y5 B1 …`, and for the solo passive roll `platter W,Y,B`. */
  private rollText(faces: number[]): string {
    const m = this.cur() as CleverModel;
    const dice = this.entryDice(m);
    let text = dice.map((d, i) => `${LETTER_OF[d]}${faces[i]}`).join(" ");
    const choice = this.platterChoice(faces);
    if (choice) {
      const picked = this.platterPick.length === choice.need ? this.platterPick : choice.tied.slice(0, choice.need);
      const platter = DICE.filter((d) => choice.sure.includes(d) || (choice.tied.length > choice.need ? picked.includes(d) : choice.tied.includes(d)));
      text += ` platter ${platter.map((d) => LETTER_OF[d]).join(",")}`;
    }
    return text;
  }

  private submitEntry(outcome: string): boolean {
    const m = this.m;
    const seat = m ? this.enterer(m) : null;
    return seat !== null && this.ctx.enter(seat, outcome);
  }

  private rollWords(move: string): string {
    const roll = parseRoll(move);
    return roll ? roll.values.map(([d, v]) => `${dieWord(d)} ${v}`).join(" · ") : move;
  }

  private hintText(m: CleverModel): string {
    if (m.step === "bonus") return t("clever.hint.bonus");
    if (m.step === "plus") return t("clever.hint.plus");
    if (m.step === "passive_pick") {
      const fallback = m.legal.some((x) => x.kind === "entry" && m.dice.find((d) => d.die === x.die)?.where === "field");
      const solo = m.sheets.length === 1 ? `${t("clever.dice.solo_rolled")}. ` : "";
      return solo + (fallback ? t("clever.hint.fallback") : t("clever.hint.passive"));
    }
    if (m.step === "pick") return this.selected ? t("clever.hint.cell", { die: dieWord(this.selected) }) : t("clever.hint.pick");
    return "";
  }

  private drawHandover(seat: number): void {
    const m = this.m as CleverModel;
    const name = this.ctx.seatName(seat);
    clear(this.handover);
    this.handover.append(
      h("h2", null, t("clever.handover.title", { name })),
      h("p", null, statusText(m, this.ctx.seatName)),
      h("p", { class: "muted" }, t("clever.handover.body")),
      h("button", { type: "button", class: "btn primary big", "data-testid": "handover-ready", onclick: () => this.takeOver() }, t("clever.handover.ready", { name })),
    );
  }

  private dieButton(d: DieName, value: number | null, opts: { clickable: boolean; used?: boolean; delay?: number }): HTMLElement {
    const face = value ?? 0;
    const el = face ? die(face, { rolling: this.rolling && !opts.used, delay: opts.delay }) : h("span", { class: "die slot" });
    el.classList.add("cdie", `cdie-${d}`);
    if (face && d !== "white") el.querySelector("svg")?.append(dieBadge(d));
    el.dataset.die = d;
    if (opts.used) el.classList.add("used");
    if (this.selected === d) el.classList.add("selected");
    if (opts.clickable) {
      el.classList.add("pickable");
      el.dataset.moves = String(this.movesFor(d).length);
      el.setAttribute("role", "button");
      el.setAttribute("tabindex", "0");
      el.setAttribute("aria-label", t("clever.ui.die_label", { die: dieWord(d), value: face }));
      el.addEventListener("click", () => this.clickDie(d));
    } else {
      el.setAttribute("aria-label", t("clever.ui.die_label", { die: dieWord(d), value: face }));
    }
    return el;
  }

  private drawTray(m: CleverModel): void {
    clear(this.tray);
    const seat = this.mySeat();
    const canPick = (d: DieName): boolean => seat !== null && this.movesFor(d).length > 0;
    const anyPick = seat !== null && m.step !== "bonus" && m.step !== "roll" && m.step !== "passive_roll";
    const rolled = m.dice.filter((d) => d.where === "rolled" || d.where === "to_roll" || (d.where === "unused" && d.value));
    const fields = [0, 1, 2].map((i) => m.fields[i] ?? null);
    const platter = m.dice.filter((d) => d.where === "platter");
    const box = (cls: string, label: string, testid: string, ...kids: HTMLElement[]): HTMLElement =>
      h("div", { class: `tray-box ${cls}`, "data-testid": testid }, h("span", { class: "tray-label" }, label), h("div", { class: "tray-dice" }, kids));
    const shown = (d: DieName): { value: number | null; where: string } => m.dice.find((x) => x.die === d) ?? { value: null, where: "" };
    this.tray.append(
      box(
        "rolled",
        t("clever.dice.rolled"),
        "rolled",
        ...rolled.map((d, i) => this.dieButton(d.die, d.where === "to_roll" ? null : d.value, { clickable: anyPick && canPick(d.die), used: d.where === "unused", delay: i * 40 })),
      ),
      box(
        "fields",
        t("clever.dice.fields"),
        "fields",
        ...fields.map((d) => (d ? this.dieButton(d, shown(d).value, { clickable: anyPick && canPick(d) }) : h("span", { class: "die slot field-slot" }))),
      ),
      box("platter", t("clever.dice.platter"), "platter", ...platter.map((d) => this.dieButton(d.die, d.value, { clickable: anyPick && canPick(d.die) }))),
    );
  }

  private drawControls(m: CleverModel, seat: number | null): void {
    clear(this.controls);
    if (seat === null) return;
    const sheet = m.sheets[seat];
    const btn = (mv: Move | undefined, label: string, testid: string, key: string): HTMLElement | null =>
      mv ? h("button", { type: "button", class: "btn", "data-testid": testid, "aria-keyshortcuts": key, onclick: () => this.send(mv) }, label) : null;
    const reroll = this.simple("reroll");
    const forfeit = this.simple("forfeit");
    this.controls.append(
      ...[
        btn(reroll, t("clever.btn.reroll", { n: sheet.rerolls.gained - sheet.rerolls.used }), "reroll-btn", "R"),
        btn(forfeit, t("clever.btn.forfeit"), "forfeit-btn", "F"),
        forfeit ? h("span", { class: "small forfeit-why", "data-testid": "forfeit-why" }, t("clever.forfeit_why")) : null,
        btn(this.simple("pass"), t("clever.btn.pass"), "pass-btn", "N"),
        btn(this.simple("stop"), t("clever.btn.stop", { n: sheet.plusOnes.gained - sheet.plusOnes.used }), "stop-btn", "N"),
        this.selected ? h("button", { type: "button", class: "btn ghost", "data-testid": "cancel-btn", onclick: () => ((this.selected = null), this.render()) }, t("clever.btn.cancel")) : null,
      ].filter((x): x is HTMLElement => x !== null),
    );
  }

  private drawTabs(m: CleverModel): void {
    clear(this.tabs);
    const shown = this.shownSeat();
    m.sheets.forEach((_, i) => {
      const done = m.simultaneous !== null && m.simultaneous.seats.includes(i) && !m.simultaneous.waiting_for.includes(i);
      const deciding = m.deciders.includes(i) || (m.simultaneous === null && m.pending?.player === i);
      const total = this.visibleSheet(i).total;
      const tab = h(
        "button",
        { type: "button", role: "tab", class: `clever-tab${i === shown ? " on" : ""}${deciding ? " deciding" : ""}`, "aria-selected": i === shown ? "true" : "false", "data-seat": i, onclick: () => ((this.chosenTab = i), this.render()) },
        h("span", { class: "tab-name" }, this.ctx.seatName(i)),
        i === m.active && !m.terminal ? h("span", { class: "badge small" }, t("clever.tab.active")) : null,
        deciding ? h("span", { class: "badge small deciding" }, t("clever.tab.deciding")) : null,
        done ? h("span", { class: "badge small done" }, t("clever.tab.done")) : null,
        h("b", { class: "tab-total" }, formatNumber(total)),
      );
      this.tabs.append(tab);
    });
    this.tabs.hidden = m.sheets.length < 2;
  }

  private drawSheet(m: CleverModel): void {
    const seat = this.shownSeat();
    const mine = this.mySeat() === seat;
    const targets = new Set<string>();
    if (mine) {
      for (const mv of this.myMoves()) {
        if (mv.kind === "choose" || (mv.kind === "entry" && this.selected === mv.die)) targets.add(targetKey(mv.target));
      }
    }
    const visible = this.visibleSheet(seat);
    // (no mark on a sheet drawn as the passive phase found it: it would point at the hidden choice)
    const drawn = visible === m.sheets[seat] || visible === this.own.get(seat)?.m.sheets[seat];
    const fresh = seat === this.freshSeat && drawn ? this.fresh : new Set<string>();
    const sheet = drawSheet(m.layout, visible, { targets, fresh, round: Math.min(m.round, m.rounds), rounds: m.rounds, label: t("clever.sheet.of", { name: this.ctx.seatName(seat) }), seat });
    this.sheetVNode = patch(this.sheetVNode, sheet);
    this.sheetBox.dataset.seat = String(seat);
  }
}
