// Ganz schön clever table (as lichess builds its boards): the controller (clever-ctrl.ts) holds what this device
// knows and takes every input; pure view functions draw each part — the decision's words (clever-view-status.ts),
// the dice tray (clever-view-tray.ts), the buttons and sheet tabs (clever-view-controls.ts), the score sheet
// (clever-sheet.ts) — as snabbdom vnodes patched into the page. This file puts the parts on the page, wraps the
// real-dice input (clever-entry.ts) and keeps the keyboard focus and the sheet's size.
import "./clever.css";
import type { LogEntry, View } from "../api";
import type { PrivateChoice, Simultaneous } from "../connection";
import { UndoEntryButton } from "../realdice";
import { FocusKeeper } from "../focus";
import { h } from "../dom";
import { t } from "../i18n";
import { patch } from "../vdom";
import type { VNode } from "snabbdom";
import { CleverCtrl } from "./clever-ctrl";
import { CleverEntry } from "./clever-entry";
import { type DieName, parseRoll, read } from "./clever-model";
import { drawSheet } from "./clever-sheet";
import { controlsView, tabsView } from "./clever-view-controls";
import { handoverView, headView, hintView, pendingView, togetherView, whyView } from "./clever-view-status";
import { cleverSummary } from "./clever-view-summary";
import { trayView } from "./clever-view-tray";
import { describeEvent, dieWord, moveText } from "./clever-words";
import type { GameView, ViewContext } from "./index";

/** A place on the page that a view function draws (the vnode last patched there). */
class Part {
  private node: VNode | Element;
  readonly el: HTMLElement;

  constructor() {
    this.el = h("div");
    this.node = this.el;
  }

  draw(v: VNode): void {
    this.node = patch(this.node, v);
  }
}

export class CleverView implements GameView {
  private readonly ctrl: CleverCtrl;
  private readonly entry: CleverEntry;
  private readonly undoBtn: UndoEntryButton;
  private readonly head = new Part();
  private readonly together = new Part();
  private readonly tray = new Part();
  private readonly pending = new Part();
  private readonly controls = new Part();
  private readonly why = new Part();
  private readonly hint = new Part();
  private readonly tabs = new Part();
  private readonly sheet = new Part();
  private readonly handover = new Part();
  private readonly sheetBox = h("div", { class: "clever-sheet-box", "data-testid": "sheet" }, this.sheet.el);
  private readonly board = h("div", { class: "clever-board" });
  private readonly focus: FocusKeeper;
  private readonly moved = new ResizeObserver(() => this.fitSheet());

  constructor(
    private readonly root: HTMLElement,
    private readonly ctx: ViewContext,
  ) {
    this.ctrl = new CleverCtrl(ctx, () => this.render());
    this.entry = new CleverEntry(this.ctrl);
    this.undoBtn = new UndoEntryButton((seat) => this.ctx.undo(seat));
    // Two parts, side by side on a wide screen: the decision (status, dice, buttons) and the sheets it acts on.
    this.board.append(
      h(
        "div",
        { class: "clever-decision" },
        this.head.el,
        this.together.el,
        ...this.entry.els,
        this.tray.el,
        this.pending.el,
        this.controls.el,
        this.why.el,
        this.hint.el,
        h("p", { class: "muted small keys-hint" }, t("clever.keys")),
      ),
      h("div", { class: "clever-sheets" }, this.tabs.el, this.sheetBox),
    );
    root.append(this.board, this.handover.el);
    root.classList.add("clever-root");
    this.sheetBox.addEventListener("click", (e) => {
      const el = (e.target as Element).closest("[data-target]");
      if (el) this.ctrl.clickCell(el.getAttribute("data-target") ?? "");
    });
    // a lit cell reached with Tab takes the die on Enter or Space
    this.sheetBox.addEventListener("keydown", (e) => {
      const el = (e.target as Element).closest("[data-target]");
      if (!el) return;
      if (this.arrowTo(e, el, ".cell.target")) return;
      if (e.key !== "Enter" && e.key !== " ") return;
      e.preventDefault();
      e.stopPropagation();
      this.ctrl.clickCell(el.getAttribute("data-target") ?? "");
    });
    this.focus = new FocusKeeper(root);
    document.addEventListener("keydown", this.onKey);
    window.addEventListener("resize", this.fitSheet);
    this.moved.observe(document.body); // what stands above the sheet may change (the table's title, its badges)
  }

  destroy(): void {
    document.removeEventListener("keydown", this.onKey);
    window.removeEventListener("resize", this.fitSheet);
    this.moved.disconnect();
    this.entry.destroy();
    this.root.classList.remove("clever-root");
  }

  // -- the GameView protocol: the page hands over what the server says ---------------------------------------
  update(state: View, fresh: LogEntry | null): void {
    this.ctrl.update(state, fresh);
  }

  private(choice: PrivateChoice): void {
    this.ctrl.private(choice);
  }

  progress(sim: Simultaneous): void {
    this.ctrl.progress(sim);
  }

  refused(): void {
    this.entry.unlock();
    this.ctrl.unlock();
  }

  describe(entry: LogEntry, state: View | null): string[] {
    // (the page asks for the words before it shows the new state: ctrl.m is still the position the move was made in)
    // (a passive choice reaches the log only when the whole simultaneous phase is over: nothing to hide)
    return describeEvent(entry, state, this.ctrl.m, this.ctx.seatName);
  }

  moveText(move: string, state: View): string | null {
    return moveText(read(state), move, this.ctx.seatName);
  }

  narrate(entry: LogEntry, before: View, after: View | null): string[] {
    // (a move not played is worded on the position it was chosen in)
    return describeEvent(entry, after ?? before, read(before), this.ctx.seatName);
  }

  summary(state: View): { headline: string; body: HTMLElement } {
    return cleverSummary(state, this.ctx.seatName);
  }

  // -- input the parts do not take themselves -----------------------------------------------------------------
  private readonly onKey = (e: KeyboardEvent): void => {
    const target = e.target as HTMLElement | null;
    if (target && (target.tagName === "INPUT" || target.tagName === "SELECT" || target.tagName === "TEXTAREA")) return;
    if (e.ctrlKey || e.metaKey || e.altKey) return;
    const handover = this.ctrl.needsHandover();
    if (this.ctrl.key(e.key.toLowerCase()) && handover) e.preventDefault();
  };

  /** The tray's dice by keyboard: Enter or Space takes the die (its lit cells get the focus), arrows step. */
  private readonly trayKey = (e: KeyboardEvent): void => {
    const el = (e.target as HTMLElement).closest(".cdie.pickable") as HTMLElement | null;
    if (!el) return;
    if (this.arrowTo(e, el, ".cdie.pickable")) return;
    if (e.key !== "Enter" && e.key !== " ") return;
    e.preventDefault();
    e.stopPropagation();
    this.ctrl.focusCells = true;
    this.ctrl.clickDie(el.dataset.die as DieName);
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

  // -- drawing ------------------------------------------------------------------------------------------------
  private render(): void {
    const ctrl = this.ctrl;
    const pub = ctrl.m;
    const m = ctrl.cur();
    if (!m || !pub) return;
    const seat = ctrl.mySeat();
    const handover = ctrl.needsHandover();
    const entering = this.entry.draw(pub, handover);
    // for tests and styling: what this device can do now
    this.root.dataset.state = m.terminal ? "over" : handover ? "handover" : entering ? "enter" : seat !== null && !ctrl.locked ? "act" : "wait";
    this.board.hidden = handover;
    this.handover.draw(handoverView(ctrl, pub));
    this.head.draw(headView(ctrl, pub, m));
    this.together.draw(togetherView(ctrl, pub));
    this.pending.draw(pendingView(ctrl, m));
    this.why.draw(whyView(ctrl));
    this.hint.draw(hintView(ctrl, m));
    this.tray.draw(trayView(ctrl, m, this.trayKey));
    this.undoBtn.update(ctrl.real, this.ctx.mySeats(), (move) => this.rollWords(move));
    this.controls.draw(controlsView(ctrl, m, this.undoBtn.el));
    this.tabs.draw(tabsView(ctrl, pub));
    this.drawSheet();
    this.fitSheet();
    this.placeFocus();
  }

  private drawSheet(): void {
    const ctrl = this.ctrl;
    const m = ctrl.m;
    if (!m) return;
    const seat = ctrl.shownSeat();
    // (no mark on a sheet drawn as the passive phase found it: it would point at the hidden choice)
    const fresh = seat === ctrl.freshSeat && ctrl.drawnAsMoved(seat, m) ? ctrl.fresh : new Set<string>();
    const label = t("clever.sheet.of", { name: this.ctx.seatName(seat) });
    this.sheet.draw(drawSheet(m.layout, ctrl.visibleSheet(seat), { targets: ctrl.targets(), fresh, round: Math.min(m.round, m.rounds), rounds: m.rounds, label, seat }));
    this.sheetBox.dataset.seat = String(seat);
  }

  /** Keyboard play: a die chosen by key hands the focus to its first lit cell; focus dropped by a redraw goes back
   * to the same die or cell, else to the first die to choose or the first button. */
  private placeFocus(): void {
    const cells = this.root.querySelector(".clever-sheet .cell.target");
    if (this.ctrl.focusCells && this.ctrl.selected && cells) this.focus.moveTo(cells);
    else this.focus.restore(cells, this.root.querySelector(".clever-tray .cdie.pickable"), this.root.querySelector(".clever-controls button"), this.root.querySelector("[data-testid=handover] button"));
    this.ctrl.focusCells = false;
  }

  /** The sheet as wide as lets the whole of it show under what stands above it (the decision, on a phone; the
   * tabs beside it on a wide screen), never narrower than 280 px (its picture is 640 × 690). */
  private readonly fitSheet = (): void => {
    if (!this.sheetBox.isConnected || this.board.hidden) return;
    const top = this.sheetBox.getBoundingClientRect().top + window.scrollY;
    const room = window.innerHeight - top - 10;
    this.root.style.setProperty("--sheet-fit", `${Math.max(280, Math.floor((room * 640) / 690))}px`);
  };

  private rollWords(move: string): string {
    const roll = parseRoll(move);
    return roll ? roll.values.map(([d, v]) => `${dieWord(d)} ${v}`).join(" · ") : move;
  }
}
