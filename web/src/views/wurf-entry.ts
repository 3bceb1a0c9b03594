// Der große Wurf with real dice: the outcome of a throw entered die by die (X, 2–6, out, rim), or the start die.
// Part of the controller (wurf-ctrl.ts); wurf-view-entry.ts draws it.
import type { WurfModel } from "./wurf-model";
import type { WurfCtrl } from "./wurf-ctrl";

export const ENTRY_KEYS = ["X", "2", "3", "4", "5", "6", "out", "rim"] as const;

export class WurfEntry {
  /** The dice entered so far, in the outcome's order. */
  values: string[] = [];
  private wasOpen = false;

  constructor(private readonly ctrl: WurfCtrl) {}

  /** The seat this browser enters the outcome for, if an outcome is due (real dice only). */
  enterer(m: WurfModel | null = this.ctrl.shown): number | null {
    const real = this.ctrl.real;
    if (!real || !m || !m.chance || m.terminal) return null;
    return real.enter.find((s) => this.ctrl.ctx.mySeats().includes(s)) ?? null;
  }

  open(): boolean {
    return this.enterer() !== null && !this.ctrl.running;
  }

  /** How many dice the entry lists: the first die (start), or the arena before the throw + those thrown. */
  wanted(m: WurfModel | null = this.ctrl.shown): number {
    if (!m) return 0;
    return m.phase === "setup" ? 1 : m.arena.length + m.pendingDice;
  }

  /** A new position is shown: an entry that opens (or closes) starts empty. */
  shown(m: WurfModel): void {
    const open = this.enterer(m) !== null;
    if (!open || !this.wasOpen) this.values = [];
    this.wasOpen = open;
  }

  key(key: string): boolean {
    const k = key.toLowerCase();
    if (k === "backspace") this.back();
    else if (k === "enter") this.confirm();
    else if (k === "x" || k === "1") this.add("X");
    else if (["2", "3", "4", "5", "6"].includes(k)) this.add(k);
    else if (k === "o") this.add("out");
    else if (k === "r") this.add("rim");
    else return false;
    return true;
  }

  add(v: string): void {
    const m = this.ctrl.shown;
    if (!m || this.values.length >= this.wanted(m)) return;
    if (m.phase === "setup" && !["2", "3", "4", "5", "6"].includes(v)) return;
    this.values.push(v);
    this.ctrl.redraw();
  }

  back(): void {
    this.values.pop();
    this.ctrl.redraw();
  }

  confirm(): void {
    const m = this.ctrl.shown;
    const seat = this.enterer(m);
    if (!m || seat === null || this.values.length !== this.wanted(m)) return;
    const text = m.phase === "setup" ? `start ${this.values[0]}` : `lands ${this.values.join(" ")}`;
    if (this.ctrl.ctx.enter(seat, text)) {
      this.ctrl.busy = true;
      this.values = [];
      this.ctrl.redraw();
    }
  }
}
