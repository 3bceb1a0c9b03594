// Der große Wurf controller: the table's state on this page (the position shown, the event queue played one throw
// after the other, aim and power, dice dragged, the replay, this turn's throws, the hint's map, the real-dice entry)
// and the player's input (throw, end the turn, move, gather, keys). It draws nothing: every change calls
// `redraw()`, and the view functions (wurf-view*.ts) read it. The 3D scene is handed to it by the adapter (wurf.ts).
import type { HintsResult, LogEntry, View } from "../api";
import { formatNumber, t } from "../i18n";
import { realDice, type RealDiceInfo } from "../realdice";
import { decodeMotion, fates, moveMove, parseLands, read, throwMove, type Landed, type Motion, type WurfModel } from "./wurf-model";
import type { RestDie, WurfScene } from "./wurf-scene";
import { heatCanvas, heatOf, type HeatMap } from "./wurf-hint";
import { WurfEntry } from "./wurf-entry";
import { caption, cellOf, describeEvent } from "./wurf-words";
import type { ViewContext } from "./index";

interface Step {
  state: View;
  fresh: LogEntry | null;
}

export interface Aim {
  x: number;
  y: number;
  power: number;
}

/** The adapter's side of the scene: loads and mounts it on first use (null: no WebGL). */
export type SceneLoader = (m: WurfModel) => Promise<WurfScene | null>;

export const rest = (m: WurfModel): RestDie[] => m.arena.map((d) => ({ face: d.face, x: d.x, y: d.y, yaw: d.yaw }));

export class WurfCtrl {
  /** The position shown (the queue may hold newer ones, still to be played). */
  shown: WurfModel | null = null;
  /** The newest position received. */
  model: WurfModel | null = null;
  real: RealDiceInfo | null = null;
  scene: WurfScene | null = null;
  /** The arena: "3d" once the scene is mounted, "no-webgl" when it cannot be (null: not yet tried). */
  stage: "3d" | "no-webgl" | null = null;
  /** Whether an animation (a queued event or the replay) is playing: no input then. */
  running = false;
  /** A move was sent and its answer is awaited. */
  busy = false;
  aim: Aim = { x: 100, y: 100, power: 0.5 };
  /** Dice dragged to a new place (index → mm), sent by "Move". */
  readonly moves = new Map<number, [number, number]>();
  replay: { dice: Landed[]; motion: Motion | null } | null = null;
  caption = "";
  throwsThisTurn: string[] = [];
  /** The hint's map of the position shown (null: hints closed, or not yet answered for this position). */
  heat: HeatMap | null = null;
  readonly entry = new WurfEntry(this);
  /** The control (data-testid) the adapter focuses after the next drawing. */
  focusNext: string | null = null;
  private shownState: View | null = null;
  private readonly queue: Step[] = [];
  private idle: (() => void)[] = [];
  private turnOf: number | null = null;
  private destroyed = false;
  private drawnAim: string | null = null;
  private drawnHeat: HeatMap | null = null;

  constructor(
    readonly ctx: ViewContext,
    private readonly draw: () => void,
    private readonly loadScene: SceneLoader,
  ) {}

  /** Draw the page and hand the scene what it shows besides the dice (the aim arc, the hint's map). */
  redraw(): void {
    this.draw();
    const scene = this.scene;
    if (!scene) return;
    const aim = this.aiming() ? JSON.stringify(this.aim) : null;
    if (aim !== this.drawnAim) scene.setAim(aim ? this.aim : null);
    this.drawnAim = aim;
    const heat = this.running ? null : this.heat;
    if (heat !== this.drawnHeat) scene.setHeat(heat ? heatCanvas(heat) : null, heat ? heat.best : null);
    this.drawnHeat = heat;
  }

  /** The scene is mounted: it has drawn nothing of the aim or the hint yet. */
  attachScene(scene: WurfScene): void {
    this.scene = scene;
    this.drawnAim = this.drawnHeat = null;
  }

  destroy(): void {
    this.destroyed = true;
  }

  name(seat: number): string {
    return this.ctx.seatName(seat) || this.model?.names[seat] || "";
  }

  // -- the queue: events are shown one after the other, each throw's animation before the next --------------
  update(state: View, fresh: LogEntry | null): void {
    this.model = read(state);
    this.real = realDice(state);
    if (fresh === null) {
      if (state === this.shownState || this.queue.some((s) => s.state === state)) {
        this.redraw(); // same state again (seats, rules loaded): words only
        return;
      }
      this.queue.length = 0; // a snapshot: show it as it is
    }
    this.queue.push({ state, fresh });
    void this.run();
  }

  /** Snapshot extras: the last throw's motion, replayable (its outcome is the log entry of the same seq). */
  extras(extras: Record<string, unknown>, log: LogEntry[]): void {
    const entry = log.find((e) => e.seq === extras.seq);
    const dice = entry ? parseLands(entry.move) : null;
    if (!dice || !extras.motion) return;
    void decodeMotion(extras.motion).then((motion) => {
      this.replay = { dice, motion };
      this.redraw();
    });
  }

  settled(): Promise<void> {
    if (!this.running && !this.queue.length) return Promise.resolve();
    return new Promise((resolve) => this.idle.push(resolve));
  }

  private async run(): Promise<void> {
    if (this.running) return;
    this.running = true;
    this.redraw();
    while (this.queue.length && !this.destroyed) {
      const step = this.queue.shift() as Step;
      try {
        await this.show(step);
      } catch (err) {
        // Never leave the table stuck behind a failed animation: show the state as it is, and report.
        this.scene?.setLayout(rest(read(step.state)));
        this.shown = read(step.state);
        this.shownState = step.state;
        this.busy = false;
        this.redraw();
        window.setTimeout(() => {
          throw err;
        });
      }
    }
    this.running = false;
    this.redraw();
    for (const done of this.idle.splice(0)) done();
  }

  private async show({ state, fresh }: Step): Promise<void> {
    const m = read(state);
    const before = this.shown;
    if (!this.scene) this.scene = await this.loadScene(m);
    const scene = this.scene;
    const dice = fresh && fresh.actor === "chance" ? parseLands(fresh.move) : null;
    if (dice && before) {
      const raw = (fresh as unknown as Record<string, unknown>).motion;
      const motion = raw ? await decodeMotion(raw).catch(() => null) : null;
      this.replay = { dice, motion };
      const words = caption(dice, m, (s) => this.name(s)).join(" · ");
      this.setCaption("");
      await scene?.playThrow(dice, motion, fates(dice, m.last?.takenFaces ?? []), rest(m), () => this.setCaption(words));
      this.caption = words;
      this.throwsThisTurn.push(words);
    } else if (fresh && fresh.move.startsWith("move ") && scene) {
      await scene.moveTo(rest(m));
    } else {
      scene?.setLayout(rest(m));
      if (fresh?.move.startsWith("start")) this.caption = describeEvent(fresh, null, m, (s) => this.name(s))[0] ?? "";
      if (!fresh) this.caption = "";
    }
    if (m.current !== this.turnOf && !dice) {
      this.turnOf = m.current;
      this.throwsThisTurn = [];
    }
    this.shown = m;
    this.shownState = state;
    this.moves.clear();
    this.busy = false;
    this.entry.shown(m);
    this.redraw();
  }

  private setCaption(words: string): void {
    this.caption = words;
    this.redraw();
  }

  async playReplay(): Promise<void> {
    const r = this.replay;
    const m = this.shown;
    if (!r || !m || !this.scene || this.running) return;
    this.running = true;
    this.redraw();
    await this.scene.playThrow(r.dice, r.motion, fates(r.dice, m.last?.takenFaces ?? []), rest(m), () => undefined);
    this.running = false;
    this.redraw();
  }

  // -- what may be done now -------------------------------------------------------------------------------
  /** The seat this browser acts for at `m`, if any. */
  actor(m: WurfModel | null = this.shown): number | null {
    return m && m.current !== null && !m.terminal && this.ctx.mySeats().includes(m.current) ? m.current : null;
  }

  canAct(): boolean {
    return !!this.shown && !this.busy && !this.running && this.actor() !== null;
  }

  throwAllowed(): boolean {
    return !!this.shown?.legal.some((a) => a.startsWith("throw "));
  }

  /** Whether the aim and power apply (the server throws the dice, and this browser may throw now). */
  aiming(): boolean {
    return this.canAct() && this.throwAllowed() && this.real === null;
  }

  gatherMove(): string | null {
    return this.shown?.legal.find((a) => a.startsWith("move ")) ?? null;
  }

  canRearrange(): boolean {
    const m = this.shown;
    return !!m && !m.rearranged && !this.real && m.arena.length > 0 && m.arena.every((d) => d.x !== null) && this.throwAllowed();
  }

  // -- acting -----------------------------------------------------------------------------------------------
  send(move: string): void {
    const seat = this.actor();
    if (seat === null || !this.canAct()) return;
    if (this.ctx.act(seat, move)) {
      this.busy = true;
      this.redraw();
    }
  }

  throw(): void {
    if (!this.canAct() || !this.throwAllowed()) return;
    if (this.real) this.send("throw real");
    else this.send(throwMove(this.aim.x, this.aim.y, this.aim.power));
  }

  endTurn(): void {
    if (this.shown?.legal.includes("end")) this.send("end");
  }

  gather(): void {
    const g = this.gatherMove();
    if (g) this.send(g);
  }

  sendMoves(): void {
    this.send(moveMove(this.moves));
  }

  resetMoves(): void {
    this.moves.clear();
    if (this.shown) this.scene?.setLayout(rest(this.shown));
    this.redraw();
  }

  /** The server refused the move: the controls come back, dragged dice go back to their places. */
  refused(): void {
    this.busy = false;
    this.resetMoves();
  }

  setAim(p: Partial<Aim>): void {
    const f = this.shown?.geometry.floor ?? 200;
    const clamp = (v: number, lo: number, hi: number): number => Math.min(hi, Math.max(lo, v));
    this.aim = {
      x: clamp(p.x ?? this.aim.x, 0, f),
      y: clamp(p.y ?? this.aim.y, 0, f),
      power: Math.round(clamp(p.power ?? this.aim.power, 0, 1) * 100) / 100,
    };
    this.redraw();
  }

  aimWords(): string {
    const f = this.shown?.geometry.floor ?? 200;
    return t("wurf.aim_at", { cell: cellOf(this.aim.x, this.aim.y, f), power: formatNumber(this.aim.power) });
  }

  toggleTop(): void {
    if (!this.scene) return;
    if (this.scene.top) this.scene.defaultView();
    else this.scene.topView();
    this.redraw();
  }

  /** A key pressed anywhere on the page: the entry keys at a real-dice table, else aim, power, throw, end, top. */
  key(e: KeyboardEvent): void {
    if (e.ctrlKey || e.metaKey || e.altKey) return;
    const el = e.target as HTMLElement | null;
    if (el && (el.tagName === "INPUT" || el.tagName === "TEXTAREA" || el.tagName === "SELECT" || el.isContentEditable)) {
      if (!(el.dataset.testid === "wurf-power" && (e.key === "Enter" || e.key === " "))) return;
    }
    const m = this.shown;
    if (!m) return;
    if (this.entry.open() && this.entry.key(e.key)) {
      e.preventDefault();
      return;
    }
    if (!this.canAct()) return;
    // Enter and Space on a focused button press that button, not the throw.
    if ((e.key === "Enter" || e.key === " ") && el?.tagName === "BUTTON") return;
    const step = e.shiftKey ? 2 : 10;
    const k = e.key;
    if (k === "ArrowLeft") this.setAim({ x: this.aim.x - step });
    else if (k === "ArrowRight") this.setAim({ x: this.aim.x + step });
    else if (k === "ArrowUp") this.setAim({ y: this.aim.y + step });
    else if (k === "ArrowDown") this.setAim({ y: this.aim.y - step });
    else if (k === "+" || k === "=" || k === "PageUp") this.setAim({ power: this.aim.power + 0.05 });
    else if (k === "-" || k === "PageDown") this.setAim({ power: this.aim.power - 0.05 });
    else if (k === "Enter" || k === " ") this.throw();
    else if (k.toLowerCase() === "e" && m.legal.includes("end")) this.send("end");
    else if (k.toLowerCase() === "t" && this.scene) this.toggleTop();
    else return;
    e.preventDefault();
  }

  // -- the hint ---------------------------------------------------------------------------------------------
  showHints(res: HintsResult | null): void {
    this.heat = heatOf(res);
    this.redraw();
  }

  /** "Use this throw": the aim and power of the hint's best throw; the player still throws (Enter does). */
  useBest(): void {
    const b = this.heat?.best;
    if (!b || !this.canAct()) return;
    this.focusNext = "wurf-throw";
    this.setAim({ x: b.x, y: b.y, power: b.power });
  }
}
