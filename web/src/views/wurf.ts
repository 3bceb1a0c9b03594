// Der große Wurf table: the 3D arena (three.js, loaded only for this game), throws played back from the server's
// motion, aiming by dragging from the thrower's edge (or keys), rearranging by dragging dice, the real-dice
// entry, the scoreboard with supplies and this turn's throws, the match table. Reads WurfState.public_view().
import type { HintsResult, LogEntry, View } from "../api";
import { clear, h } from "../dom";
import { FocusKeeper } from "../focus";
import { formatNumber, t, type MessageId } from "../i18n";
import { realDice, type RealDiceInfo } from "../realdice";
import { decodeMotion, fates, moveMove, parseLands, read, throwMove, type Landed, type Motion, type WurfModel } from "./wurf-model";
import type { RestDie, WurfScene } from "./wurf-scene";
import { HeatLegend, heatCanvas, heatOf, type HeatMap } from "./wurf-hint";
import { caption, cellOf, describeEvent, faceText } from "./wurf-words";
import type { GameView, ViewContext } from "./index";

interface Step {
  state: View;
  fresh: LogEntry | null;
}

interface Replay {
  dice: Landed[];
  motion: Motion | null;
}

/** Run-up beyond the rim (mm at rim height) that gives power 1: the rim itself spans about half the power. */
const RUN_UP_MM = 30;
const ENTRY_KEYS = ["X", "2", "3", "4", "5", "6", "out", "rim"] as const;

export class WurfView implements GameView {
  private idle: (() => void)[] = [];
  private readonly status = h("p", { class: "turn-status", "data-testid": "turn-status", "aria-live": "polite" });
  private readonly captionEl = h("p", { class: "wurf-caption", "data-testid": "wurf-caption", "aria-live": "polite" });
  private readonly stage = h("div", { class: "wurf-stage", "data-testid": "wurf-stage" });
  private readonly diceList = h("ul", { class: "wurf-dice-list", "data-testid": "wurf-dice", "aria-label": t("wurf.dice_list") });
  private readonly topBtn = h("button", { type: "button", class: "btn", "data-testid": "wurf-top", "aria-pressed": "false" }, t("wurf.top_view"));
  private readonly replayBtn = h("button", { type: "button", class: "btn", "data-testid": "wurf-replay", disabled: true }, t("wurf.replay"));
  private readonly aimBox = h("div", { class: "wurf-aim", "data-testid": "wurf-aim" });
  private readonly powerInput = h("input", { type: "range", min: "0", max: "1", step: "0.05", value: "0.5", "data-testid": "wurf-power", "aria-label": t("wurf.power") });
  private readonly powerOut = h("output", { class: "wurf-power-value", "data-testid": "wurf-power-value" });
  private readonly throwBtn = h("button", { type: "button", class: "btn primary", "data-testid": "wurf-throw" }, t("wurf.throw"));
  private readonly endBtn = h("button", { type: "button", class: "btn", "data-testid": "wurf-end" }, t("wurf.end_turn"));
  private readonly gatherBtn = h("button", { type: "button", class: "btn", "data-testid": "wurf-gather", title: t("wurf.gather_help"), "aria-describedby": "wurf-gather-help" }, t("wurf.gather"));
  private readonly moveBtn = h("button", { type: "button", class: "btn", "data-testid": "wurf-move", hidden: true }, t("wurf.move_confirm"));
  private readonly moveReset = h("button", { type: "button", class: "btn", "data-testid": "wurf-move-reset", hidden: true }, t("wurf.move_reset"));
  private readonly realBox = h("div", { class: "wurf-real", "data-testid": "wurf-entry", hidden: true });
  private readonly board = h("table", { class: "scoreboard", "data-testid": "scoreboard" });
  private readonly turnThrows = h("ol", { class: "wurf-turn-throws", "data-testid": "wurf-turn-throws" });
  private readonly noThrows = h("p", { class: "muted small wurf-no-throws" }, t("wurf.turn_throws_none"));
  private readonly root = h("div", { class: "wurf" });
  private readonly matchBox = h("div", { class: "wurf-match", "data-testid": "wurf-match" });
  private scene: WurfScene | null = null;
  private model: WurfModel | null = null;
  private shown: WurfModel | null = null;
  private shownState: View | null = null;
  private real: RealDiceInfo | null = null;
  private readonly queue: Step[] = [];
  private running = false;
  private busy = false;
  private aim = { x: 100, y: 100, power: 0.5 };
  private drag: { kind: "aim"; fromY: number } | { kind: "die"; index: number } | null = null;
  private moves = new Map<number, [number, number]>();
  private entry: string[] = [];
  private replay: Replay | null = null;
  private throwsThisTurn: string[] = [];
  private turnOf: number | null = null;
  private destroyed = false;
  private focus: FocusKeeper | null = null;
  private readonly onKey = (e: KeyboardEvent): void => this.key(e);
  /** The hint's map of the position shown (null: hints closed, or not yet answered for this position). */
  private heat: HeatMap | null = null;
  private readonly legend = new HeatLegend(() => this.useBest());

  constructor(
    root: HTMLElement,
    private readonly ctx: ViewContext,
  ) {
    this.powerInput.addEventListener("input", () => this.setAim({ power: Number(this.powerInput.value) }));
    this.throwBtn.addEventListener("click", () => this.sendThrow());
    this.endBtn.addEventListener("click", () => this.send("end"));
    this.gatherBtn.addEventListener("click", () => {
      const g = this.shown?.legal.find((a) => a.startsWith("move "));
      if (g) this.send(g);
    });
    this.moveBtn.addEventListener("click", () => this.send(moveMove(this.moves)));
    this.moveReset.addEventListener("click", () => this.resetMoves());
    this.topBtn.addEventListener("click", () => {
      if (!this.scene) return;
      if (this.scene.top) this.scene.defaultView();
      else this.scene.topView();
      this.topBtn.setAttribute("aria-pressed", String(this.scene.top));
    });
    this.replayBtn.addEventListener("click", () => void this.playReplay());
    this.stage.append(this.legend.el);
    root.append(
      append(
        this.root,
        [this.status,
        this.captionEl,
        this.stage,
        h("div", { class: "wurf-tools" }, this.topBtn, this.replayBtn),
        this.aimBox,
        this.realBox,
        h("div", { class: "wurf-side" }, this.board, h("h3", { class: "small" }, t("wurf.turn_throws")), this.turnThrows, this.noThrows, this.matchBox),
        h("h3", { class: "small wurf-dice-head" }, t("wurf.dice_list")),
        this.diceList],
      ),
    );
    this.focus = new FocusKeeper(root.lastElementChild as HTMLElement);
    document.addEventListener("keydown", this.onKey);
    this.buildAimBox();
  }

  destroy(): void {
    this.destroyed = true;
    document.removeEventListener("keydown", this.onKey);
    this.scene?.destroy();
  }

  private name(seat: number): string {
    return this.ctx.seatName(seat) || this.model?.names[seat] || "";
  }

  describe(entry: LogEntry, state: View | null): string[] {
    return describeEvent(entry, this.model, state ? read(state) : null, (s) => this.name(s));
  }

  summary(state: View): { headline: string; body: HTMLElement } {
    const m = read(state);
    const names = m.winners.map((s) => this.name(s));
    const headline = names.length ? t("table.winners", { names: names.join(", "), n: names.length }) : t("table.game_over");
    const body = h("div", null, m.match.enabled ? this.matchTable(m) : h("p", null, t("wurf.summary.supply", { name: names[0] ?? "", n: m.supplies[m.winners[0] ?? 0] ?? 0 })));
    return { headline, body };
  }

  refused(): void {
    this.busy = false;
    this.resetMoves();
    if (this.shown) this.drawControls(this.shown);
  }

  /** Snapshot extras: the last throw's motion, replayable (its outcome is the log entry of the same seq). */
  extras(extras: Record<string, unknown>, log: LogEntry[]): void {
    const entry = log.find((e) => e.seq === extras.seq);
    const dice = entry ? parseLands(entry.move) : null;
    if (!dice || !extras.motion) return;
    void decodeMotion(extras.motion).then((motion) => {
      this.replay = { dice, motion };
      this.replayBtn.disabled = this.running;
    });
  }

  update(state: View, fresh: LogEntry | null): void {
    this.model = read(state);
    this.real = realDice(state);
    if (fresh === null) {
      if (state === this.shownState || this.queue.some((s) => s.state === state)) {
        if (this.shown) this.drawDom(this.shown); // same state again (seats, rules loaded): words only
        return;
      }
      this.queue.length = 0; // a snapshot: show it as it is
    }
    this.queue.push({ state, fresh });
    void this.run();
  }

  // -- the queue: events are shown one after the other, each throw's animation before the next --------------
  private async run(): Promise<void> {
    if (this.running) return;
    this.running = true;
    this.replayBtn.disabled = true;
    this.drawHeat();
    this.drawControls(this.shown ?? read(this.queue[0].state));
    while (this.queue.length && !this.destroyed) {
      const step = this.queue.shift() as Step;
      try {
        await this.show(step);
      } catch (err) {
        // Never leave the table stuck behind a failed animation: show the state as it is, and report.
        this.scene?.setLayout(this.rest(read(step.state)));
        this.shown = read(step.state);
        this.shownState = step.state;
        this.busy = false;
        this.drawDom(this.shown);
        window.setTimeout(() => {
          throw err;
        });
      }
    }
    this.running = false;
    this.replayBtn.disabled = this.replay === null;
    if (this.shown) this.drawControls(this.shown);
    this.drawHeat();
    for (const done of this.idle.splice(0)) done();
  }

  settled(): Promise<void> {
    if (!this.running && !this.queue.length) return Promise.resolve();
    return new Promise((resolve) => this.idle.push(resolve));
  }

  private async show({ state, fresh }: Step): Promise<void> {
    const m = read(state);
    const before = this.shown;
    await this.ensureScene(m);
    const dice = fresh && fresh.actor === "chance" ? parseLands(fresh.move) : null;
    if (dice && before) {
      const raw = (fresh as unknown as Record<string, unknown>).motion;
      let motion: Motion | null = null;
      try {
        motion = raw ? await decodeMotion(raw) : null;
      } catch {
        motion = null;
      }
      this.replay = { dice, motion };
      this.captionEl.textContent = "";
      const words = caption(dice, m, (s) => this.name(s));
      if (this.scene) {
        await this.scene.playThrow(dice, motion, fates(dice, m.last?.takenFaces ?? []), this.rest(m), () => (this.captionEl.textContent = words.join(" · ")));
      }
      this.captionEl.textContent = words.join(" · ");
      this.throwsThisTurn.push(words.join(" · "));
    } else if (fresh && fresh.move.startsWith("move ") && this.scene) {
      await this.scene.moveTo(this.rest(m));
    } else {
      this.scene?.setLayout(this.rest(m));
      if (fresh?.move.startsWith("start")) this.captionEl.textContent = describeEvent(fresh, null, m, (s) => this.name(s))[0] ?? "";
      if (!fresh) this.captionEl.textContent = "";
    }
    if (m.current !== this.turnOf && !dice) {
      this.turnOf = m.current;
      this.throwsThisTurn = [];
    }
    this.shown = m;
    this.shownState = state;
    this.moves.clear();
    this.busy = false;
    this.drawDom(m);
  }

  private rest(m: WurfModel): RestDie[] {
    return m.arena.map((d) => ({ face: d.face, x: d.x, y: d.y, yaw: d.yaw }));
  }

  private async ensureScene(m: WurfModel): Promise<void> {
    if (this.scene || this.stage.dataset.state) return;
    const mod = await import("./wurf-scene");
    if (this.destroyed || this.scene) return;
    if (!mod.webglAvailable()) {
      this.stage.dataset.state = "no-webgl";
      this.stage.append(h("div", { class: "card error", "data-testid": "wurf-no-webgl" }, h("h2", null, t("wurf.no_webgl.title")), h("p", null, t("wurf.no_webgl.body"))));
      return;
    }
    try {
      this.scene = new mod.WurfScene(this.stage, m.geometry);
    } catch {
      this.stage.dataset.state = "no-webgl";
      this.stage.append(h("div", { class: "card error", "data-testid": "wurf-no-webgl" }, h("h2", null, t("wurf.no_webgl.title")), h("p", null, t("wurf.no_webgl.body"))));
      return;
    }
    this.stage.dataset.state = "3d";
    (this.stage as HTMLElement & { wurf?: WurfScene }).wurf = this.scene; // tests measure the frame rate through it
    this.scene.setLayout(this.rest(m));
    this.drawHeat();
    const c = this.scene.canvas;
    c.addEventListener("pointerdown", (e) => this.pointerDown(e));
    c.addEventListener("pointermove", (e) => this.pointerMove(e));
    c.addEventListener("pointerup", (e) => this.pointerUp(e));
    c.addEventListener("pointercancel", () => this.cancelDrag());
  }

  // -- acting -----------------------------------------------------------------------------------------------
  /** The seat this browser acts for now, if any (and nothing is playing). */
  private actor(m: WurfModel): number | null {
    return m.current !== null && !m.terminal && this.ctx.mySeats().includes(m.current) ? m.current : null;
  }

  private canAct(): boolean {
    const m = this.shown;
    return !!m && !this.busy && !this.running && this.actor(m) !== null;
  }

  private send(move: string): void {
    const m = this.shown;
    if (!m || !this.canAct()) return;
    const seat = this.actor(m) as number;
    if (this.ctx.act(seat, move)) {
      this.busy = true;
      this.scene?.setAim(null);
      this.drawControls(m);
    }
  }

  private throwAllowed(m: WurfModel): boolean {
    return m.legal.some((a) => a.startsWith("throw "));
  }

  private sendThrow(): void {
    const m = this.shown;
    if (!m || !this.canAct() || !this.throwAllowed(m)) return;
    if (this.real) this.send("throw real");
    else this.send(throwMove(this.aim.x, this.aim.y, this.aim.power));
  }

  private setAim(p: Partial<{ x: number; y: number; power: number }>): void {
    const f = this.shown?.geometry.floor ?? 200;
    const clamp = (v: number, lo: number, hi: number): number => Math.min(hi, Math.max(lo, v));
    this.aim = {
      x: clamp(p.x ?? this.aim.x, 0, f),
      y: clamp(p.y ?? this.aim.y, 0, f),
      power: Math.round(clamp(p.power ?? this.aim.power, 0, 1) * 100) / 100,
    };
    this.powerInput.value = String(this.aim.power);
    this.powerOut.textContent = t("wurf.aim_at", { cell: cellOf(this.aim.x, this.aim.y, f), power: formatNumber(this.aim.power) });
    const m = this.shown;
    this.scene?.setAim(m && this.canAct() && this.throwAllowed(m) && !this.real ? this.aim : null);
  }

  private pointerDown(e: PointerEvent): void {
    const m = this.shown;
    const scene = this.scene;
    if (!m || !scene || !this.canAct() || this.real) return;
    // The thrower's edge (the near rim and the table in front of the box) starts an aim; a die starts a move.
    const edge = scene.floorAt(e, m.geometry.wall);
    if (edge && edge.y <= 0 && this.throwAllowed(m)) {
      this.drag = { kind: "aim", fromY: edge.y };
    } else {
      const die = scene.pick(e);
      if (die === null || !this.canRearrange(m)) return;
      this.drag = { kind: "die", index: die };
    }
    scene.orbit = false;
    this.scene?.canvas.setPointerCapture(e.pointerId);
    e.preventDefault();
  }

  private pointerMove(e: PointerEvent): void {
    const m = this.shown;
    const scene = this.scene;
    if (!this.drag || !m || !scene) return;
    if (this.drag.kind === "aim") {
      const at = scene.floorAt(e, 0);
      if (!at) return;
      // The run-up: the farther behind the box's inner edge the drag began, the harder the throw.
      const runUp = -this.drag.fromY / (m.geometry.rim + RUN_UP_MM);
      this.setAim({ x: at.x, y: at.y, power: runUp });
    } else {
      const at = scene.floorAt(e, m.geometry.die / 2);
      if (!at) return;
      const lo = m.geometry.die * 0.75;
      const hi = m.geometry.floor - lo;
      const x = Math.min(hi, Math.max(lo, at.x));
      const y = Math.min(hi, Math.max(lo, at.y));
      this.moves.set(this.drag.index, [x, y]);
      scene.placeDie(this.drag.index, x, y);
    }
  }

  private pointerUp(e: PointerEvent): void {
    const d = this.drag;
    this.cancelDrag();
    if (!d) return;
    if (d.kind === "aim") {
      const m = this.shown;
      const at = this.scene?.floorAt(e, 0);
      if (m && at && at.y >= 0 && at.y <= m.geometry.floor && at.x >= 0 && at.x <= m.geometry.floor) this.sendThrow();
      else this.setAim({});
    } else {
      this.drawControls(this.shown as WurfModel);
    }
  }

  private cancelDrag(): void {
    this.drag = null;
    if (this.scene) this.scene.orbit = true;
  }

  private canRearrange(m: WurfModel): boolean {
    return !m.rearranged && !this.real && m.arena.every((d) => d.x !== null) && m.arena.length > 0 && m.legal.some((a) => a.startsWith("throw "));
  }

  private resetMoves(): void {
    this.moves.clear();
    if (this.shown) this.scene?.setLayout(this.rest(this.shown));
  }

  private key(e: KeyboardEvent): void {
    if (e.ctrlKey || e.metaKey || e.altKey) return;
    const el = e.target as HTMLElement | null;
    if (el && (el.tagName === "INPUT" || el.tagName === "TEXTAREA" || el.tagName === "SELECT" || el.isContentEditable)) {
      if (!(el === this.powerInput && (e.key === "Enter" || e.key === " "))) return;
    }
    const m = this.shown;
    if (!m) return;
    if (this.realEntryOpen() && this.entryKey(e.key)) {
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
    else if (k === "Enter" || k === " ") this.sendThrow();
    else if (k.toLowerCase() === "e" && m.legal.includes("end")) this.send("end");
    else if (k.toLowerCase() === "t" && this.scene) this.topBtn.click();
    else return;
    e.preventDefault();
  }

  private async playReplay(): Promise<void> {
    const r = this.replay;
    const m = this.shown;
    if (!r || !m || !this.scene || this.running) return;
    this.running = true;
    this.replayBtn.disabled = true;
    this.drawControls(m);
    await this.scene.playThrow(r.dice, r.motion, fates(r.dice, m.last?.takenFaces ?? []), this.rest(m), () => undefined);
    this.running = false;
    this.replayBtn.disabled = false;
    this.drawControls(m);
  }

  // -- the hint ---------------------------------------------------------------------------------------------
  /** The page's hint for the seat to move (null: closed or being asked again): its map over the arena. */
  showHints(res: HintsResult | null): void {
    this.heat = heatOf(res);
    this.drawHeat();
  }

  /** A hint's move as an instruction (the hint list): where to aim and how hard, gather, end the turn. */
  moveText(move: string): string | null {
    const throwAt = /^throw (-?[\d.]+),(-?[\d.]+) p([\d.]+)/.exec(move);
    if (throwAt) {
      const [x, y, power] = throwAt.slice(1).map(Number);
      return t("wurf.hint.throw", { cell: cellOf(x, y, this.shown?.geometry.floor ?? 200), x: formatNumber(Math.round(x)), y: formatNumber(Math.round(y)), power: formatNumber(power) });
    }
    if (move.startsWith("move ")) return t("wurf.hint.gather");
    if (move === "end") return t("wurf.hint.end");
    return null;
  }

  private drawHeat(): void {
    const m = this.running ? null : this.heat;
    this.scene?.setHeat(m ? heatCanvas(m) : null, m ? m.best : null);
    const can = !!this.shown && this.canAct() && this.throwAllowed(this.shown) && !this.real;
    this.legend.show(m, can);
  }

  /** "Use this throw": the aim and power of the hint's best throw; the player still throws. */
  private useBest(): void {
    const b = this.heat?.best;
    if (!b || !this.canAct()) return;
    this.setAim({ x: b.x, y: b.y, power: b.power });
    this.throwBtn.focus();
  }

  // -- real dice ------------------------------------------------------------------------------------------
  private enterer(m: WurfModel): number | null {
    if (!this.real || !m.chance || m.terminal) return null;
    return this.real.enter.find((s) => this.ctx.mySeats().includes(s)) ?? null;
  }

  private realEntryOpen(): boolean {
    return !this.realBox.hidden && !this.running;
  }

  /** How many dice the pending entry lists: the first die (start), or the arena before the throw + those thrown. */
  private entryWanted(m: WurfModel): number {
    return m.phase === "setup" ? 1 : m.arena.length + m.pendingDice;
  }

  private entryKey(key: string): boolean {
    const k = key.toLowerCase();
    if (k === "backspace") this.entryBack();
    else if (k === "enter") this.entryConfirm();
    else if (k === "x" || k === "1") this.entryAdd("X");
    else if (["2", "3", "4", "5", "6"].includes(k)) this.entryAdd(k);
    else if (k === "o") this.entryAdd("out");
    else if (k === "r") this.entryAdd("rim");
    else return false;
    return true;
  }

  private entryAdd(v: string): void {
    const m = this.shown;
    if (!m || this.entry.length >= this.entryWanted(m)) return;
    if (m.phase === "setup" && !["2", "3", "4", "5", "6"].includes(v)) return;
    this.entry.push(v);
    this.drawEntry(m);
  }

  private entryBack(): void {
    this.entry.pop();
    if (this.shown) this.drawEntry(this.shown);
  }

  private entryConfirm(): void {
    const m = this.shown;
    if (!m || this.entry.length !== this.entryWanted(m)) return;
    const seat = this.enterer(m);
    if (seat === null) return;
    const text = m.phase === "setup" ? `start ${this.entry[0]}` : `lands ${this.entry.join(" ")}`;
    if (this.ctx.enter(seat, text)) {
      this.busy = true;
      this.entry = [];
      this.drawEntry(m);
    }
  }

  private drawEntry(m: WurfModel): void {
    const seat = this.enterer(m);
    this.realBox.hidden = seat === null;
    clear(this.realBox);
    if (seat === null) {
      this.entry = [];
      return;
    }
    const want = this.entryWanted(m);
    const setup = m.phase === "setup";
    const prompt = setup ? t("wurf.entry.start") : t("wurf.entry.prompt", { n: want });
    const slots = h(
      "div",
      { class: "entry-slots", "data-testid": "wurf-entry-slots" },
      Array.from({ length: want }, (_, k) => h("span", { class: `wurf-slot${this.entry[k] ? " filled" : ""}`, "data-testid": "wurf-entry-slot", "data-value": this.entry[k] ?? "" }, this.entry[k] ? this.entryLabel(this.entry[k]) : "·")),
    );
    const pad = h(
      "div",
      { class: "wurf-pad" },
      ENTRY_KEYS.filter((k) => !setup || /^[2-6]$/.test(k)).map((k) =>
        h("button", { type: "button", class: `btn${k === "X" ? " x" : ""}`, "data-testid": `wurf-entry-${k}`, disabled: this.busy || this.entry.length >= want, onclick: () => this.entryAdd(k) }, this.entryLabel(k)),
      ),
    );
    const back = h("button", { type: "button", class: "btn", "data-testid": "wurf-entry-back", disabled: !this.entry.length, onclick: () => this.entryBack() }, t("wurf.entry.undo"));
    const ok = h("button", { type: "button", class: "btn primary", "data-testid": "wurf-entry-confirm", disabled: this.busy || this.entry.length !== want, onclick: () => this.entryConfirm() }, t("wurf.entry.confirm"));
    this.realBox.append(h("p", { class: "entry-prompt" }, prompt), h("p", { class: "muted small" }, setup ? "" : t("wurf.entry.help")), slots, pad, h("div", { class: "controls" }, back, ok));
  }

  private entryLabel(k: string): string {
    return k === "out" ? t("wurf.die.out") : k === "rim" ? t("wurf.die.rim") : k;
  }

  // -- drawing --------------------------------------------------------------------------------------------
  private readonly aimHelp = h("div", { class: "wurf-aim-help" });
  private readonly gatherHelp = h("p", { class: "muted small", id: "wurf-gather-help", "data-testid": "wurf-gather-help" }, t("wurf.gather_help"));
  // the aiming keys at a table the server throws for; the entry keys at a real-dice table
  private readonly keysHelp = h("p", { class: "muted small keys-help", "data-testid": "wurf-keys-help" }, t("wurf.keys_help"));

  private buildAimBox(): void {
    // The aiming help and power only matter when the server throws the dice (not at a real-dice table).
    // The buttons and the power first: the help under them may fall below the fold on a small screen.
    append(this.aimHelp, [
      h("label", { class: "wurf-power" }, t("wurf.power"), " ", this.powerInput, " ", this.powerOut),
      h("p", { class: "muted small", "data-testid": "wurf-aim-help" }, t("wurf.aim_help")),
      h("p", { class: "muted small" }, t("wurf.power_help")),
    ]);
    append(this.aimBox, [
      h("div", { class: "controls" }, this.throwBtn, this.endBtn, this.gatherBtn, this.moveBtn, this.moveReset),
      this.aimHelp,
      this.gatherHelp,
      this.keysHelp,
    ]);
    this.setAim({});
  }

  private drawDom(m: WurfModel): void {
    this.drawStatus(m);
    this.drawControls(m);
    this.drawBoard(m);
    this.drawList(m);
    if (this.real && this.enterer(m) !== null) {
      if (this.realBox.hidden) this.entry = [];
      this.drawEntry(m);
    } else {
      this.realBox.hidden = true;
      this.entry = [];
    }
  }

  private drawStatus(m: WurfModel): void {
    clear(this.status);
    if (m.terminal) {
      const names = m.winners.map((w) => this.name(w));
      this.status.textContent = t("wurf.status.over", { names: names.join(", "), n: names.length });
      return;
    }
    if (m.current === null) {
      this.status.textContent = m.chance && this.real ? t("wurf.status.enter") : t("wurf.status.rolling");
      return;
    }
    const name = this.name(m.current);
    const mine = this.actor(m) !== null;
    const parts: string[] = [mine ? t("wurf.status.your_turn", { name }) : t("wurf.status.playing", { name })];
    if (m.bigNext) parts.push(t("wurf.status.big", { n: m.diceNext }));
    else if (m.phase === "choice") parts.push(t("wurf.status.choice"));
    if (m.match.enabled) parts.push(t("wurf.status.game_of", { game: m.match.game, games: m.match.games }));
    this.status.append(h("span", { class: mine ? "you" : "" }, parts[0]), parts.length > 1 ? h("span", { class: "muted" }, " · ", parts.slice(1).join(" · ")) : "");
  }

  private drawControls(m: WurfModel): void {
    const can = this.canAct();
    const throwing = can && this.throwAllowed(m);
    this.aimBox.hidden = this.actor(m) === null;
    this.aimHelp.hidden = this.real !== null;
    this.throwBtn.disabled = !throwing;
    this.throwBtn.textContent = this.real ? t("wurf.threw_real", { n: m.diceNext || 1 }) : m.bigNext ? t("wurf.throw_big", { n: m.diceNext }) : t("wurf.throw");
    this.endBtn.disabled = !(can && m.legal.includes("end"));
    const gather = m.legal.find((a) => a.startsWith("move "));
    this.gatherBtn.hidden = this.gatherHelp.hidden = !gather || this.real !== null;
    this.keysHelp.textContent = this.real ? t("wurf.entry.keys") : t("wurf.keys_help");
    this.root.classList.toggle("real", this.real !== null);
    this.gatherBtn.disabled = !(can && gather);
    this.moveBtn.hidden = this.moveReset.hidden = this.moves.size === 0;
    this.moveBtn.disabled = !can;
    this.powerInput.disabled = !throwing || this.real !== null;
    this.legend.usable(throwing && this.real === null);
    this.setAim({});
    if (can) this.focus?.restore(this.throwBtn, this.endBtn);
  }

  private drawBoard(m: WurfModel): void {
    clear(this.board);
    const turnsFor = m.current;
    this.board.append(
      h("thead", null, h("tr", null, h("th", { scope: "col" }, t("wurf.col.player")), h("th", { scope: "col", class: "num" }, t("wurf.col.dice")), m.match.enabled ? h("th", { scope: "col", class: "num" }, t("wurf.col.points")) : null, h("th", { scope: "col" }, t("wurf.col.status")))),
      h(
        "tbody",
        null,
        m.supplies.map((n, seat) =>
          h(
            "tr",
            { class: [seat === m.current ? "current" : "", m.winners.includes(seat) ? "winner" : "", m.alive[seat] === false ? "out" : ""].join(" ").trim(), "data-seat": seat },
            h("th", { scope: "row" }, seat === m.current ? "▶ " : "", this.name(seat), this.ctx.mySeats().includes(seat) ? h("span", { class: "you-tag" }, " ", t("thousand.you")) : null),
            h("td", { class: "num supply", "data-testid": "wurf-supply" }, formatNumber(n)),
            m.match.enabled ? h("td", { class: "num" }, formatNumber(m.match.points[seat] ?? 0)) : null,
            h("td", { class: "status" }, m.winners.includes(seat) ? h("span", { class: "badge seat" }, t("badge.winner")) : m.alive[seat] === false ? h("span", { class: "badge muted" }, t("wurf.badge.out")) : seat === turnsFor ? h("span", { class: "badge open" }, t("wurf.badge.turn")) : ""),
          ),
        ),
      ),
    );
    clear(this.turnThrows);
    for (const line of this.throwsThisTurn) this.turnThrows.append(h("li", null, line));
    this.turnThrows.hidden = !this.throwsThisTurn.length;
    this.noThrows.hidden = this.throwsThisTurn.length > 0;
    clear(this.matchBox);
    if (m.match.enabled) this.matchBox.append(h("h3", { class: "small" }, t("wurf.match.title", { game: m.match.game, games: m.match.games })), this.matchTable(m));
  }

  /** Match points per game: an eliminated player scores the players still in that game, the winner 0. */
  private matchTable(m: WurfModel): HTMLElement {
    const n = m.supplies.length;
    const games = m.match.eliminations.filter((g) => g.length);
    return h(
      "table",
      { class: "scoreboard wurf-match-table", "data-testid": "wurf-match-table" },
      h("thead", null, h("tr", null, h("th", { scope: "col" }, t("wurf.match.game")), Array.from({ length: n }, (_, s) => h("th", { scope: "col", class: "num" }, this.name(s))))),
      h(
        "tbody",
        null,
        games.map((g, gi) =>
          h(
            "tr",
            { "data-game": gi + 1 },
            h("th", { scope: "row" }, formatNumber(gi + 1)),
            Array.from({ length: n }, (_, s) => {
              const pos = g.indexOf(s);
              const done = g.length === n;
              const pts = pos < 0 ? null : done && pos === n - 1 ? 0 : n - 1 - pos;
              return h("td", { class: "num" }, pts === null ? "·" : formatNumber(pts));
            }),
          ),
        ),
        h("tr", { class: "total" }, h("th", { scope: "row" }, t("wurf.match.total")), m.match.points.map((p) => h("td", { class: "num" }, h("b", null, formatNumber(p))))),
      ),
    );
  }

  private drawList(m: WurfModel): void {
    clear(this.diceList);
    this.diceList.dataset.count = String(m.arena.length);
    m.arena.forEach((d) =>
      this.diceList.append(
        h("li", { "data-face": faceText(d.face), "data-x": d.x ?? "", "data-y": d.y ?? "" }, d.x !== null && d.y !== null ? t("wurf.die_at", { face: faceText(d.face), cell: cellOf(d.x, d.y, m.geometry.floor) }) : faceText(d.face)),
      ),
    );
    if (!m.arena.length) this.diceList.append(h("li", { class: "muted" }, t("wurf.arena_empty")));
  }
}

function append(el: HTMLElement, children: HTMLElement[]): HTMLElement {
  for (const c of children) el.append(c);
  return el;
}

export type { MessageId };
