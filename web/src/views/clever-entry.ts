// Real dice at a Clever table: the tap input for the dice thrown (by colour), and for the solo passive roll the
// choice of which tied dice go to the silver platter. A form widget like the other games' (realdice.ts), kept
// imperative; the controller says when it shows and for which seat.
import { DiceEntry, type EntryDie } from "../realdice";
import { clear, h } from "../dom";
import { t } from "../i18n";
import type { CleverCtrl } from "./clever-ctrl";
import { DICE, LETTER_OF, type CleverModel, type DieName } from "./clever-model";
import { dieWord } from "./clever-words";

export class CleverEntry {
  private readonly entry: DiceEntry;
  /** Solo passive roll: the dice tapped for the silver platter where a tie leaves a choice. */
  private platterPick: DieName[] = [];
  private readonly platterBox = h("div", { class: "clever-platter-pick", "data-testid": "platter-pick", hidden: true });
  private entryKey = "";
  readonly els: HTMLElement[];

  constructor(private readonly ctrl: CleverCtrl) {
    this.entry = new DiceEntry({ format: (faces) => this.rollText(faces), submit: (outcome) => this.submit(outcome), changed: () => this.drawPlatterPick() });
    this.els = [this.entry.el, this.platterBox];
  }

  destroy(): void {
    this.entry.destroy();
  }

  unlock(): void {
    this.entry.unlock();
  }

  /** The seat of this browser that enters the dice now, if any. */
  private enterer(m: CleverModel): number | null {
    const real = this.ctrl.real;
    if (!real || m.terminal || m.actor !== null || m.step === "over") return null;
    return real.enter.find((s) => this.ctrl.ctx.mySeats().includes(s)) ?? null;
  }

  /** The dice to enter: those being thrown, or all six for the solo passive roll (W Y B G O P order). */
  private entryDice(m: CleverModel): DieName[] {
    if (m.step === "passive_roll") return [...DICE];
    return DICE.filter((d) => m.dice.find((x) => x.die === d)?.where === "to_roll");
  }

  /** Show (or hide) the tap input; true when this browser enters the dice now. */
  draw(m: CleverModel, handover: boolean): boolean {
    const seat = handover ? null : this.enterer(m);
    if (seat === null) {
      this.entry.hide();
      this.platterBox.hidden = true;
      return false;
    }
    const dice = this.entryDice(m);
    const shown: EntryDie[] = dice.map((d) => ({ label: dieWord(d), color: d }));
    const prompt = m.step === "passive_roll" ? t("clever.entry.passive") : t("realdice.your_throw", { name: this.ctrl.ctx.seatName(this.ctrl.real?.roller ?? seat) });
    const key = `${m.step}.${m.round}.${m.rollsDone}.${dice.join()}`;
    this.entry.show(shown, prompt, key === this.entryKey);
    if (key !== this.entryKey) this.platterPick = [];
    this.entryKey = key;
    this.drawPlatterPick();
    return true;
  }

  /** Solo passive roll: the three lowest dice go to the silver platter; where a tie leaves a choice, the tied
   * dice that fill it are tapped (the lowest strictly below the tie go there anyway). */
  private platterChoice(faces: (number | null)[]): { sure: DieName[]; tied: DieName[]; need: number } | null {
    const m = this.ctrl.cur();
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
    const m = this.ctrl.cur() as CleverModel;
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

  private submit(outcome: string): boolean {
    const m = this.ctrl.m;
    const seat = m ? this.enterer(m) : null;
    return seat !== null && this.ctrl.ctx.enter(seat, outcome);
  }
}
