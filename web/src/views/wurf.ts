// Der große Wurf table, the page's GameView: creates the controller (wurf-ctrl.ts), patches its view
// (wurf-view.ts, snabbdom) on every redraw, and mounts the 3D arena (wurf-scene.ts, three.js, loaded only for this
// game) into the view's stage — an imperative widget the controller hands dice, aim and hint to, as lichess does
// with chessground. Reads WurfState.public_view() (wurf-model.ts).
import type { VNode } from "snabbdom";
import { h as vh } from "snabbdom";
import { patch } from "../vdom";
import type { HintsResult, LogEntry, View } from "../api";
import { FocusKeeper } from "../focus";
import { formatNumber, t } from "../i18n";
import { WurfCtrl, rest } from "./wurf-ctrl";
import { WurfDrag } from "./wurf-drag";
import { read, type WurfModel } from "./wurf-model";
import type { WurfScene } from "./wurf-scene";
import { view } from "./wurf-view";
import { matchTable } from "./wurf-view-side";
import { cellOf, describeEvent } from "./wurf-words";
import type { GameView, ViewContext } from "./index";

export class WurfView implements GameView {
  private readonly ctrl: WurfCtrl;
  private vnode: VNode;
  private readonly focus: FocusKeeper;
  private readonly onKey = (e: KeyboardEvent): void => this.ctrl.key(e);
  private destroyed = false;

  constructor(root: HTMLElement, ctx: ViewContext) {
    this.ctrl = new WurfCtrl(ctx, () => this.draw(), (m) => this.mountScene(m));
    const host = document.createElement("div");
    root.append(host);
    this.vnode = patch(host, view(this.ctrl));
    this.focus = new FocusKeeper(this.el());
    document.addEventListener("keydown", this.onKey);
  }

  destroy(): void {
    this.destroyed = true;
    this.ctrl.destroy();
    document.removeEventListener("keydown", this.onKey);
    this.ctrl.scene?.destroy();
  }

  private el(): HTMLElement {
    return this.vnode.elm as HTMLElement;
  }

  private control(testid: string): HTMLElement | null {
    return this.el().querySelector<HTMLElement>(`[data-testid="${testid}"]`);
  }

  private draw(): void {
    if (this.destroyed) return;
    this.vnode = patch(this.vnode, view(this.ctrl));
    const next = this.ctrl.focusNext;
    this.ctrl.focusNext = null;
    if (next) this.control(next)?.focus();
    // keyboard play keeps its place: a redraw that disabled the focused control gives the focus back
    else if (this.ctrl.canAct()) this.focus.restore(this.control("wurf-throw"), this.control("wurf-end"));
  }

  /** The scene, loaded and mounted into the stage on the first position shown (null: no WebGL here). */
  private async mountScene(m: WurfModel): Promise<WurfScene | null> {
    const ctrl = this.ctrl;
    if (ctrl.scene || ctrl.stage) return ctrl.scene;
    const mod = await import("./wurf-scene");
    if (this.destroyed || ctrl.scene || ctrl.stage) return ctrl.scene;
    const stage = this.control("wurf-stage") as (HTMLElement & { wurf?: WurfScene }) | null;
    let scene: WurfScene | null = null;
    try {
      if (stage && mod.webglAvailable()) scene = new mod.WurfScene(stage, m.geometry);
    } catch {
      scene = null;
    }
    if (!scene || !stage) {
      ctrl.stage = "no-webgl";
      ctrl.redraw();
      return null;
    }
    ctrl.stage = "3d";
    stage.wurf = scene; // tests measure the frame rate through it
    scene.setLayout(rest(m));
    ctrl.attachScene(scene);
    new WurfDrag(ctrl).wire(scene.canvas);
    ctrl.redraw();
    return scene;
  }

  update(state: View, fresh: LogEntry | null): void {
    this.ctrl.update(state, fresh);
  }

  extras(extras: Record<string, unknown>, log: LogEntry[]): void {
    this.ctrl.extras(extras, log);
  }

  refused(): void {
    this.ctrl.refused();
  }

  settled(): Promise<void> {
    return this.ctrl.settled();
  }

  showHints(res: HintsResult | null): void {
    this.ctrl.showHints(res);
  }

  describe(entry: LogEntry, state: View | null): string[] {
    return describeEvent(entry, this.ctrl.model, state ? read(state) : null, (s) => this.ctrl.name(s));
  }

  summary(state: View): { headline: string; body: HTMLElement } {
    const m = read(state);
    const names = m.winners.map((s) => this.ctrl.name(s));
    const headline = names.length ? t("table.winners", { names: names.join(", "), n: names.length }) : t("table.game_over");
    const body = m.match.enabled
      ? matchTable(m, (s) => this.ctrl.name(s))
      : vh("p", t("wurf.summary.supply", { name: names[0] ?? "", n: m.supplies[m.winners[0] ?? 0] ?? 0 }));
    return { headline, body: patch(document.createElement("div"), vh("div", [body])).elm as HTMLElement };
  }

  /** A hint's move as an instruction (the hint list): where to aim and how hard, gather, end the turn. */
  moveText(move: string): string | null {
    const throwAt = /^throw (-?[\d.]+),(-?[\d.]+) p([\d.]+)/.exec(move);
    if (throwAt) {
      const [x, y, power] = throwAt.slice(1).map(Number);
      return t("wurf.hint.throw", { cell: cellOf(x, y, this.ctrl.shown?.geometry.floor ?? 200), x: formatNumber(Math.round(x)), y: formatNumber(Math.round(y)), power: formatNumber(power) });
    }
    if (move.startsWith("move ")) return t("wurf.hint.gather");
    if (move === "end") return t("wurf.hint.end");
    return null;
  }
}
