// Der große Wurf by pointer: a drag from the thrower's edge aims (the run-up behind the rim sets the power, the
// release throws), a drag of a die moves it (sent with "Move"). Input for the controller, wired to the canvas
// by the adapter (wurf.ts).
import type { WurfCtrl } from "./wurf-ctrl";

/** Run-up beyond the rim (mm at rim height) that gives power 1: the rim itself spans about half the power. */
const RUN_UP_MM = 30;

export class WurfDrag {
  private drag: { kind: "aim"; fromY: number } | { kind: "die"; index: number } | null = null;

  constructor(private readonly ctrl: WurfCtrl) {}

  /** Listen on the scene's canvas. */
  wire(canvas: HTMLCanvasElement): void {
    canvas.addEventListener("pointerdown", (e) => this.down(e));
    canvas.addEventListener("pointermove", (e) => this.move(e));
    canvas.addEventListener("pointerup", (e) => this.up(e));
    canvas.addEventListener("pointercancel", () => this.cancel());
  }

  private down(e: PointerEvent): void {
    const { shown: m, scene } = this.ctrl;
    if (!m || !scene || !this.ctrl.canAct() || this.ctrl.real) return;
    // The thrower's edge (the near rim and the table in front of the box) starts an aim; a die starts a move.
    const edge = scene.floorAt(e, m.geometry.wall);
    if (edge && edge.y <= 0 && this.ctrl.throwAllowed()) {
      this.drag = { kind: "aim", fromY: edge.y };
    } else {
      const die = scene.pick(e);
      if (die === null || !this.ctrl.canRearrange()) return;
      this.drag = { kind: "die", index: die };
    }
    scene.orbit = false;
    scene.canvas.setPointerCapture(e.pointerId);
    e.preventDefault();
  }

  private move(e: PointerEvent): void {
    const { shown: m, scene } = this.ctrl;
    if (!this.drag || !m || !scene) return;
    if (this.drag.kind === "aim") {
      const at = scene.floorAt(e, 0);
      if (!at) return;
      // The run-up: the farther behind the box's inner edge the drag began, the harder the throw.
      const runUp = -this.drag.fromY / (m.geometry.rim + RUN_UP_MM);
      this.ctrl.setAim({ x: at.x, y: at.y, power: runUp });
    } else {
      const at = scene.floorAt(e, m.geometry.die / 2);
      if (!at) return;
      const lo = m.geometry.die * 0.75;
      const hi = m.geometry.floor - lo;
      const x = Math.min(hi, Math.max(lo, at.x));
      const y = Math.min(hi, Math.max(lo, at.y));
      this.ctrl.moves.set(this.drag.index, [x, y]);
      scene.placeDie(this.drag.index, x, y);
    }
  }

  private up(e: PointerEvent): void {
    const d = this.drag;
    this.cancel();
    if (!d) return;
    if (d.kind === "aim") {
      const m = this.ctrl.shown;
      const at = this.ctrl.scene?.floorAt(e, 0);
      if (m && at && at.y >= 0 && at.y <= m.geometry.floor && at.x >= 0 && at.x <= m.geometry.floor) this.ctrl.throw();
      else this.ctrl.redraw();
    } else {
      this.ctrl.redraw(); // "Move" and "Put back" appear
    }
  }

  private cancel(): void {
    this.drag = null;
    if (this.ctrl.scene) this.ctrl.scene.orbit = true;
  }
}
