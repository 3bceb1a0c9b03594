// Real dice (score pad), game-neutral: the tap input for the faces that fell and the "take back" button.
// A view shows a DiceEntry when the table's view says one of this browser's seats enters the pending throw
// (`real_dice.enter`), formats the faces in its game's notation and sends them with ctx.enter(); see
// docs/web-protocol.md. Dice 1000 enters plain dice; Clever can pass coloured dice (`color` → CSS class).
import type { View } from "./api";
import { die, dieSlot } from "./dice";
import { clear, h } from "./dom";
import { t } from "./i18n";

/** The real-dice part of a table's view (absent on tables whose dice are rolled by the server). */
export interface RealDiceInfo {
  /** Seats that may enter the pending outcome now (empty: no dice are due). */
  enter: number[];
  /** The seat that throws, when the game names one. */
  roller: number | null;
  /** The seat that may take back the last entered outcome (nobody has decided on it yet), else null. */
  undo: number | null;
  undoMove: string | null;
}

export function realDice(state: View): RealDiceInfo | null {
  const raw = (state as unknown as Record<string, unknown>).real_dice;
  if (typeof raw !== "object" || raw === null) return null;
  const o = raw as Record<string, unknown>;
  const seat = (v: unknown): number | null => (typeof v === "number" ? v : null);
  return {
    enter: Array.isArray(o.enter) ? o.enter.filter((x): x is number => typeof x === "number") : [],
    roller: seat(o.roller),
    undo: seat(o.undo),
    undoMove: typeof o.undo_move === "string" ? o.undo_move : null,
  };
}

/** One die to enter: its label for screen readers and, for coloured dice, a colour name (CSS class `die-<color>`). */
export interface EntryDie {
  label?: string;
  color?: string;
}

export interface EntryOptions {
  /** The faces in the game's notation, e.g. "3,1,5,5,2". */
  format(faces: number[]): string;
  /** Send the outcome; false when it could not be sent (offline). */
  submit(outcome: string): boolean;
  /** The faces changed (a view may offer a choice that depends on them, e.g. Clever's solo platter). */
  changed?(): void;
}

/** Tap input for the faces of a throw: a slot per die, a pad of six faces, Back and Confirm (keys 1–6,
 * Backspace, Enter). Nothing is sent before Confirm, so a wrong tap is fixed with Back or by tapping the slot. */
export class DiceEntry {
  readonly el: HTMLElement;
  private readonly slots = h("div", { class: "entry-slots", "data-testid": "entry-slots" });
  private readonly prompt = h("p", { class: "entry-prompt" });
  private readonly confirmBtn: HTMLButtonElement;
  private readonly backBtn: HTMLButtonElement;
  private dice: EntryDie[] = [];
  private values: (number | null)[] = [];
  private busy = false;
  private readonly onKey = (e: KeyboardEvent): void => this.key(e);

  constructor(private readonly opts: EntryOptions) {
    const pad = h("div", { class: "entry-pad", role: "group", "aria-label": t("realdice.title") });
    for (let f = 1; f <= 6; f++) {
      pad.append(h("button", { type: "button", class: "btn entry-face", "data-testid": `entry-face-${f}`, "aria-label": t("realdice.face", { face: f }), onclick: () => this.tap(f) }, die(f)));
    }
    this.backBtn = h("button", { type: "button", class: "btn", "data-testid": "entry-back", "aria-keyshortcuts": "Backspace", onclick: () => this.back() }, t("realdice.back")) as HTMLButtonElement;
    this.confirmBtn = h("button", { type: "button", class: "btn primary", "data-testid": "entry-confirm", "aria-keyshortcuts": "Enter", onclick: () => this.confirm() }, t("realdice.confirm")) as HTMLButtonElement;
    this.el = h("div", { class: "dice-entry", "data-testid": "dice-entry", hidden: true }, this.prompt, this.slots, pad, h("div", { class: "entry-actions" }, this.backBtn, this.confirmBtn));
    document.addEventListener("keydown", this.onKey);
  }

  /** Show the input for `dice` with `prompt`; the faces tapped so far stay when the dice are the same. */
  show(dice: EntryDie[], prompt: string, keep = false): void {
    const same = keep && !this.el.hidden && dice.length === this.dice.length && dice.every((d, i) => d.color === this.dice[i]?.color);
    this.dice = dice;
    if (!same) this.values = dice.map(() => null);
    this.prompt.textContent = prompt;
    this.el.hidden = false;
    this.busy = false;
    this.draw();
  }

  /** The faces tapped so far (null: empty slot). */
  faces(): (number | null)[] {
    return this.values.slice();
  }

  hide(): void {
    this.el.hidden = true;
    this.busy = false;
  }

  /** The server refused the entry: let the player correct it. */
  unlock(): void {
    this.busy = false;
    this.draw();
  }

  destroy(): void {
    document.removeEventListener("keydown", this.onKey);
  }

  private tap(face: number): void {
    if (this.busy) return;
    const i = this.values.indexOf(null);
    if (i < 0) return;
    this.values[i] = face;
    this.draw();
  }

  private back(): void {
    if (this.busy) return;
    for (let i = this.values.length - 1; i >= 0; i--) {
      if (this.values[i] !== null) {
        this.values[i] = null;
        break;
      }
    }
    this.draw();
  }

  private clearSlot(i: number): void {
    if (this.busy) return;
    this.values[i] = null;
    this.draw();
  }

  private confirm(): void {
    if (this.busy || this.values.some((f) => f === null)) return;
    if (this.opts.submit(this.opts.format(this.values as number[]))) {
      this.busy = true;
      this.draw();
    }
  }

  private key(e: KeyboardEvent): void {
    if (this.el.hidden || e.ctrlKey || e.metaKey || e.altKey) return;
    const target = e.target as HTMLElement | null;
    if (target && (target.tagName === "INPUT" || target.tagName === "TEXTAREA" || target.tagName === "SELECT")) return;
    if (/^[1-6]$/.test(e.key)) this.tap(Number(e.key));
    else if (e.key === "Backspace") this.back();
    else if (e.key === "Enter") this.confirm();
    else return;
    e.preventDefault();
  }

  private draw(): void {
    clear(this.slots);
    this.values.forEach((f, i) => {
      const d = this.dice[i] ?? {};
      const content = f === null ? dieSlot() : die(f);
      if (d.color) content.classList.add(`die-${d.color}`);
      const label = f === null ? t("realdice.slot", { n: i + 1 }) : `${d.label ?? ""} ${t("realdice.face", { face: f })}`.trim();
      this.slots.append(h("button", { type: "button", class: "entry-slot", "data-testid": "entry-slot", "data-face": f ?? "", "aria-label": label, disabled: f === null || this.busy, onclick: () => this.clearSlot(i) }, content));
    });
    const full = this.values.every((f) => f !== null);
    this.confirmBtn.disabled = !full || this.busy;
    this.backBtn.disabled = this.busy || this.values.every((f) => f === null);
    this.opts.changed?.();
  }
}

/** The "take back" button for the last entered outcome; `update` shows it only to the seat that may use it. */
export class UndoEntryButton {
  readonly el: HTMLButtonElement;
  private seat: number | null = null;

  constructor(private readonly undo: (seat: number) => boolean) {
    this.el = h("button", { type: "button", class: "btn undo-entry", "data-testid": "undo-entry", hidden: true, onclick: () => this.click() }) as HTMLButtonElement;
  }

  update(info: RealDiceInfo | null, mySeats: number[], diceText: (move: string) => string): void {
    const seat = info?.undo ?? null;
    this.seat = seat !== null && mySeats.includes(seat) ? seat : null;
    this.el.hidden = this.seat === null;
    this.el.disabled = false;
    if (this.seat !== null && info?.undoMove) this.el.textContent = t("realdice.undo", { dice: diceText(info.undoMove) });
  }

  private click(): void {
    if (this.seat !== null && this.undo(this.seat)) this.el.disabled = true;
  }
}
