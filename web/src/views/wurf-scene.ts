// Der große Wurf in three.js: the box as the arena models build it (foam floor, walls, rim, the table it stands
// on), 16 mm dice with faces X, 2–6, the throw's motion played back, marks and removals, the aim arc, orbit/zoom
// and a top view. Arena millimetres (x east, y north, z up from the floor) map to three's (x, z, −y) around the
// floor's centre; a die's local axes carry the faces as in the engine (+z X, +x 2, +y 3, −y 4, −x 5, −z 6).
import * as THREE from "three";
import { OrbitControls } from "three/examples/jsm/controls/OrbitControls.js";
import { RoundedBoxGeometry } from "three/examples/jsm/geometries/RoundedBoxGeometry.js";
import type { Fate, Geometry, Landed, Motion } from "./wurf-model";

/** A die to draw at rest: face up (1 = X), place in arena mm (null: unknown, drawn on a grid), yaw in degrees. */
export interface RestDie {
  face: number;
  x: number | null;
  y: number | null;
  yaw: number;
}

/** Pixels per CSS pixel when the CPU draws (the browser scales the picture up): fill rate is its cost. */
const SOFTWARE_PIXEL_RATIO = 0.75;
const TABLE_MM = -60; // the table the box stands on (the physics model parks dice that left the box there)
const PIPS: Record<number, [number, number][]> = {
  2: [[0.27, 0.27], [0.73, 0.73]],
  3: [[0.25, 0.25], [0.5, 0.5], [0.75, 0.75]],
  4: [[0.27, 0.27], [0.73, 0.27], [0.27, 0.73], [0.73, 0.73]],
  5: [[0.26, 0.26], [0.74, 0.26], [0.5, 0.5], [0.26, 0.74], [0.74, 0.74]],
  6: [[0.27, 0.24], [0.73, 0.24], [0.27, 0.5], [0.73, 0.5], [0.27, 0.76], [0.73, 0.76]],
};
/** Face shown on each side of three's box geometry, in its material order (+x, −x, +y, −y, +z, −z). */
const SIDE_FACES = [2, 5, 1, 6, 4, 3];
/** The die's local axis (three's frame) carrying each face. */
const FACE_AXIS: Record<number, THREE.Vector3> = {
  1: new THREE.Vector3(0, 1, 0),
  2: new THREE.Vector3(1, 0, 0),
  3: new THREE.Vector3(0, 0, -1),
  4: new THREE.Vector3(0, 0, 1),
  5: new THREE.Vector3(-1, 0, 0),
  6: new THREE.Vector3(0, -1, 0),
};
const UP = new THREE.Vector3(0, 1, 0);

function faceTexture(face: number): THREE.CanvasTexture {
  const size = 128;
  const c = document.createElement("canvas");
  c.width = c.height = size;
  const g = c.getContext("2d");
  if (!g) throw new Error("no 2D canvas");
  g.fillStyle = "#f7f3ea";
  g.fillRect(0, 0, size, size);
  g.strokeStyle = "#d8d0bf";
  g.lineWidth = 6;
  g.strokeRect(3, 3, size - 6, size - 6);
  if (face === 1) {
    // The X: a bold red cross, unmistakable from any angle.
    g.strokeStyle = "#c8102e";
    g.lineWidth = 20;
    g.lineCap = "round";
    g.beginPath();
    g.moveTo(30, 30);
    g.lineTo(98, 98);
    g.moveTo(98, 30);
    g.lineTo(30, 98);
    g.stroke();
  } else {
    g.fillStyle = "#1d1d1f";
    for (const [px, py] of PIPS[face]) {
      g.beginPath();
      g.arc(px * size, py * size, 13, 0, Math.PI * 2);
      g.fill();
    }
  }
  const tex = new THREE.CanvasTexture(c);
  tex.colorSpace = THREE.SRGBColorSpace;
  tex.anisotropy = 4;
  return tex;
}

/** The orientation of a die lying flat with `face` up, turned by `yaw` degrees about the vertical. */
export function restQuaternion(face: number, yaw: number): THREE.Quaternion {
  const q = new THREE.Quaternion().setFromUnitVectors(FACE_AXIS[face] ?? UP, UP);
  return new THREE.Quaternion().setFromAxisAngle(UP, (yaw * Math.PI) / 180).multiply(q);
}

interface Anim {
  duration: number;
  elapsed: number;
  step(t: number): void;
  done(): void;
}

export class WurfScene {
  readonly canvas: HTMLCanvasElement;
  private readonly renderer: THREE.WebGLRenderer;
  private readonly scene = new THREE.Scene();
  private readonly camera: THREE.PerspectiveCamera;
  private readonly controls: OrbitControls;
  private readonly dieGeometry: THREE.BufferGeometry;
  private readonly materials: Record<"plain" | "out" | "taken", THREE.Material[]>;
  private readonly markGeometry: THREE.RingGeometry;
  private readonly markMaterials: Record<"out" | "taken", THREE.MeshBasicMaterial>;
  /** The dice now drawn, in the order of the view's arena (or of the outcome while a throw plays). */
  private dice: THREE.Mesh[] = [];
  private readonly aim = new THREE.Group();
  private readonly heat = new THREE.Group();
  /** Whether the hint's map is drawn (tests read it). */
  heatShown = false;
  private readonly anims: Anim[] = [];
  /** The animation time of the throw being played, in ms. */
  private plannedMs = 0;
  private dirty = true;
  private frameId = 0;
  private last = 0;
  private readonly resize: ResizeObserver;
  /** Frames drawn (tests read it to measure the frame rate). */
  framesDrawn = 0;
  top = false;
  readonly software: boolean;
  /** The player turned or zoomed the view: a resize keeps their camera. */
  private moved = false;

  constructor(
    private readonly host: HTMLElement,
    readonly geo: Geometry,
  ) {
    // A software renderer (SwiftShader, llvmpipe) draws without antialiasing and shadows at 3/4 of the pixels,
    // so it keeps its frame rate; a GPU gets the full picture.
    this.software = softwareGL();
    this.renderer = new THREE.WebGLRenderer({ antialias: !this.software, powerPreference: "high-performance" });
    this.canvas = this.renderer.domElement;
    this.canvas.setAttribute("data-testid", "wurf-canvas");
    this.canvas.dataset.quality = this.software ? "software" : "full";
    this.renderer.setPixelRatio(this.software ? SOFTWARE_PIXEL_RATIO : Math.min(window.devicePixelRatio || 1, 2));
    this.renderer.shadowMap.enabled = !this.software;
    this.renderer.shadowMap.type = THREE.PCFShadowMap;
    host.append(this.canvas);
    this.camera = new THREE.PerspectiveCamera(38, 4 / 3, 5, 5000);
    this.controls = new OrbitControls(this.camera, this.canvas);
    this.controls.maxPolarAngle = Math.PI * 0.47;
    this.controls.minDistance = 120;
    this.controls.maxDistance = 1200;
    this.controls.addEventListener("change", () => (this.dirty = true));
    this.controls.addEventListener("start", () => (this.moved = true));
    this.defaultView();

    this.scene.background = new THREE.Color("#20262e");
    this.scene.add(new THREE.HemisphereLight("#ffffff", "#4a4036", 1.6));
    const sun = new THREE.DirectionalLight("#ffffff", 2.2);
    sun.position.set(-120, 420, 260);
    sun.castShadow = true;
    sun.shadow.mapSize.set(1024, 1024);
    const half = geo.floor / 2 + geo.rim + 40;
    Object.assign(sun.shadow.camera, { left: -half, right: half, top: half, bottom: -half, near: 100, far: 900 });
    this.scene.add(sun);
    this.buildBox();

    const face = [1, 2, 3, 4, 5, 6].map((f) => faceTexture(f));
    const set = (color: string): THREE.Material[] =>
      SIDE_FACES.map((f) => new THREE.MeshLambertMaterial({ map: face[f - 1], color: new THREE.Color(color) }));
    this.materials = { plain: set("#ffffff"), out: set("#ff8a8a"), taken: set("#ffe27a") };
    this.dieGeometry = new RoundedBoxGeometry(geo.die, geo.die, geo.die, 2, geo.die * 0.09);
    this.markGeometry = new THREE.RingGeometry(geo.die * 0.75, geo.die * 0.98, 32);
    this.markMaterials = {
      out: new THREE.MeshBasicMaterial({ color: "#ff3b3b", side: THREE.DoubleSide }),
      taken: new THREE.MeshBasicMaterial({ color: "#ffd23f", side: THREE.DoubleSide }),
    };
    this.scene.add(this.aim, this.heat);

    this.resize = new ResizeObserver(() => this.fit());
    this.resize.observe(host);
    this.fit();
    const loop = (now: number): void => {
      this.frameId = requestAnimationFrame(loop);
      const dt = this.last ? Math.min(100, now - this.last) : 16;
      this.last = now;
      this.tick(dt);
    };
    this.frameId = requestAnimationFrame(loop);
  }

  destroy(): void {
    cancelAnimationFrame(this.frameId);
    this.resize.disconnect();
    this.controls.dispose();
    this.renderer.dispose();
    this.canvas.remove();
  }

  // -- coordinates ------------------------------------------------------------------------------------------
  /** Arena mm → a point in the scene. */
  point(x: number, y: number, z: number): THREE.Vector3 {
    const c = this.geo.floor / 2;
    return new THREE.Vector3(x - c, z, c - y);
  }

  /** Where a pointer event meets the horizontal plane at height `z` mm, in arena mm (null: above the horizon). */
  floorAt(ev: { clientX: number; clientY: number }, z = 0): { x: number; y: number } | null {
    const r = this.canvas.getBoundingClientRect();
    const ndc = new THREE.Vector2(((ev.clientX - r.left) / r.width) * 2 - 1, -((ev.clientY - r.top) / r.height) * 2 + 1);
    const ray = new THREE.Raycaster();
    ray.setFromCamera(ndc, this.camera);
    const hit = new THREE.Vector3();
    if (!ray.ray.intersectPlane(new THREE.Plane(UP, -z), hit)) return null;
    const c = this.geo.floor / 2;
    return { x: hit.x + c, y: c - hit.z };
  }

  /** Screen position (CSS px, relative to the canvas) of an arena point: tests and hints use it. */
  screenOf(x: number, y: number, z = 0): { x: number; y: number } {
    const p = this.point(x, y, z).project(this.camera);
    const r = this.canvas.getBoundingClientRect();
    return { x: ((p.x + 1) / 2) * r.width, y: ((1 - p.y) / 2) * r.height };
  }

  /** The index (in the drawn order) of the die under the pointer, if any. */
  pick(ev: { clientX: number; clientY: number }): number | null {
    const r = this.canvas.getBoundingClientRect();
    const ndc = new THREE.Vector2(((ev.clientX - r.left) / r.width) * 2 - 1, -((ev.clientY - r.top) / r.height) * 2 + 1);
    const ray = new THREE.Raycaster();
    ray.setFromCamera(ndc, this.camera);
    const hit = ray.intersectObjects(this.dice.filter((d) => d.visible), false)[0];
    return hit ? this.dice.indexOf(hit.object as THREE.Mesh) : null;
  }

  set orbit(on: boolean) {
    this.controls.enabled = on;
  }

  busy(): boolean {
    return this.anims.length > 0;
  }

  // -- views ------------------------------------------------------------------------------------------------
  defaultView(): void {
    this.top = false;
    this.moved = false;
    const f = this.geo.floor;
    this.camera.up.set(0, 1, 0);
    this.controls.target.copy(this.point(f / 2, f * 0.45, 0));
    // A portrait screen (phone) has the wider lens: come closer so the dice stay big enough to read.
    const near = this.camera.aspect < 0.9 ? 0.78 : 1;
    this.camera.position.copy(this.point(f / 2, -f * 0.8, f * 1.35).sub(this.controls.target).multiplyScalar(near).add(this.controls.target));
    this.controls.update();
    this.dirty = true;
  }

  topView(): void {
    this.top = true;
    this.moved = false;
    const f = this.geo.floor;
    this.camera.position.copy(this.point(f / 2, f / 2 - 0.5, f * 2.45));
    this.controls.target.copy(this.point(f / 2, f / 2, 0));
    this.controls.update();
    this.dirty = true;
  }

  private fit(): void {
    const w = Math.max(1, this.host.clientWidth);
    const h = Math.max(1, this.host.clientHeight);
    this.renderer.setSize(w, h, false);
    this.camera.aspect = w / h;
    // Keep the whole box in sight on narrow (phone) screens.
    this.camera.fov = w / h < 0.9 ? 58 : 38;
    this.camera.updateProjectionMatrix();
    if (!this.moved) {
      if (this.top) this.topView();
      else this.defaultView();
    }
    this.dirty = true;
  }

  // -- the box ----------------------------------------------------------------------------------------------
  private buildBox(): void {
    const { floor: f, wall: w, rim: r } = this.geo;
    const table = new THREE.Mesh(new THREE.PlaneGeometry(4000, 4000), new THREE.MeshLambertMaterial({ color: "#6b4a2f" }));
    table.rotation.x = -Math.PI / 2;
    table.position.copy(this.point(f / 2, f / 2, TABLE_MM));
    table.receiveShadow = true;
    this.scene.add(table);
    const foam = new THREE.Mesh(new THREE.PlaneGeometry(f, f), new THREE.MeshLambertMaterial({ color: "#2f6f62" }));
    foam.rotation.x = -Math.PI / 2;
    foam.position.copy(this.point(f / 2, f / 2, 0));
    foam.receiveShadow = true;
    this.scene.add(foam);
    // The aim grid (cells a–e × 1–5 of the terminal notation), faint on the foam.
    const grid = new THREE.GridHelper(f, 5, "#4f9484", "#4f9484");
    grid.position.copy(this.point(f / 2, f / 2, 0.3));
    this.scene.add(grid);
    const wood = new THREE.MeshLambertMaterial({ color: "#c9a66b" });
    const inner = new THREE.MeshLambertMaterial({ color: "#a9834c" });
    const h = w - TABLE_MM;
    const part = (x0: number, y0: number, x1: number, y1: number): void => {
      const m = new THREE.Mesh(new THREE.BoxGeometry(x1 - x0, h, y1 - y0), [inner, inner, wood, wood, inner, inner]);
      m.position.copy(this.point((x0 + x1) / 2, (y0 + y1) / 2, TABLE_MM + h / 2));
      m.castShadow = true;
      m.receiveShadow = true;
      this.scene.add(m);
    };
    part(-r, f, f + r, f + r); // north
    part(-r, -r, f + r, 0); // south: the thrower's edge
    part(-r, 0, 0, f); // west
    part(f, 0, f + r, f); // east
  }

  // -- dice -------------------------------------------------------------------------------------------------
  private newDie(): THREE.Mesh {
    const m = new THREE.Mesh(this.dieGeometry, this.materials.plain);
    m.castShadow = true;
    m.receiveShadow = true;
    this.scene.add(m);
    return m;
  }

  private clearMarks(m: THREE.Mesh): void {
    m.material = this.materials.plain;
    m.scale.setScalar(1);
    for (const c of [...m.children]) m.remove(c);
  }

  private mark(m: THREE.Mesh, kind: "out" | "taken"): void {
    m.material = this.materials[kind];
    const ring = new THREE.Mesh(this.markGeometry, this.markMaterials[kind]);
    // The ring floats flat above the die whatever the die's own orientation.
    const undo = m.quaternion.clone().invert();
    ring.position.set(0, this.geo.die * 0.62, 0).applyQuaternion(undo);
    ring.rotation.x = -Math.PI / 2;
    ring.quaternion.premultiply(undo);
    m.add(ring);
  }

  /** Where a die of `n` with an unknown place is drawn (real dice): a grid over the floor. */
  private gridSpot(k: number): { x: number; y: number } {
    const per = 5;
    const step = this.geo.floor / (per + 1);
    return { x: step * (1 + (k % per)), y: step * (1 + Math.floor(k / per)) };
  }

  private restPose(d: RestDie, k: number): { p: THREE.Vector3; q: THREE.Quaternion } {
    const spot = d.x !== null && d.y !== null ? { x: d.x, y: d.y } : this.gridSpot(k);
    return { p: this.point(spot.x, spot.y, this.geo.die / 2), q: restQuaternion(d.face, d.yaw) };
  }

  /** Draw exactly these dice at rest (no animation); stops any animation under way. */
  setLayout(dice: RestDie[]): void {
    for (const a of this.anims.splice(0)) a.done();
    while (this.dice.length < dice.length) this.dice.push(this.newDie());
    for (const m of this.dice.splice(dice.length)) this.scene.remove(m);
    dice.forEach((d, k) => {
      const m = this.dice[k];
      this.clearMarks(m);
      const { p, q } = this.restPose(d, k);
      m.position.copy(p);
      m.quaternion.copy(q);
      m.visible = true;
    });
    this.dirty = true;
  }

  /** Slide the drawn dice to a new layout of the same dice (a rearrangement everyone sees). */
  moveTo(dice: RestDie[], ms = 450): Promise<void> {
    if (dice.length !== this.dice.length) {
      this.setLayout(dice);
      return Promise.resolve();
    }
    const from = this.dice.map((m) => ({ p: m.position.clone(), q: m.quaternion.clone() }));
    const to = dice.map((d, k) => this.restPose(d, k));
    return this.animate(ms, (t) => {
      const e = t * t * (3 - 2 * t);
      this.dice.forEach((m, k) => {
        m.position.lerpVectors(from[k].p, to[k].p, e);
        m.quaternion.slerpQuaternions(from[k].q, to[k].q, e);
      });
    });
  }

  /** Move one drawn die by hand (rearranging, before it is sent). */
  placeDie(k: number, x: number, y: number): void {
    const m = this.dice[k];
    if (!m) return;
    m.position.copy(this.point(x, y, this.geo.die / 2 + 1.5));
    this.dirty = true;
  }

  private animate(ms: number, step: (t: number) => void): Promise<void> {
    this.plannedMs += ms;
    return new Promise((resolve) => {
      this.anims.push({ duration: ms, elapsed: 0, step, done: () => (step(1), resolve()) });
      this.dirty = true;
    });
  }

  /**
   * Play a throw: the flight from the motion (interpolated between its frames) or, without one, the dice dropping
   * onto their places; then the dice the rules remove are marked red and the dice taken gold (`onMarked` is called
   * then, for the caption); then they go (removed ones sink, taken ones fly to the thrower) and the dice that stay
   * slide to `after` (the arena as the new state records it).
   */
  async playThrow(dice: Landed[], motion: Motion | null, fate: Fate[], after: RestDie[], onMarked: () => void, speed = 1): Promise<void> {
    for (const a of this.anims.splice(0)) a.done();
    // Less motion asked for (the system's setting): the same throw, over in a quarter of the time.
    if (matchMedia("(prefers-reduced-motion: reduce)").matches) speed *= 4;
    this.plannedMs = 0;
    const before = this.dice.length;
    while (this.dice.length < dice.length) this.dice.push(this.newDie());
    for (const m of this.dice.splice(dice.length)) this.scene.remove(m);
    // Every die starts where the outcome or its track puts it at the release.
    const rest = dice.map((d, k): { p: THREE.Vector3; q: THREE.Quaternion } | null =>
      d.status === "out" || d.status === "rim" ? null : this.restPose({ face: d.face, x: d.x, y: d.y, yaw: d.yaw }, k),
    );
    this.dice.forEach((m, k) => {
      this.clearMarks(m);
      m.visible = true;
      const r = rest[k];
      if (k < before && !motion?.tracks.has(k)) return; // an arena die that did not move stays where it is drawn
      if (r) {
        m.position.copy(r.p);
        m.quaternion.copy(r.q);
      }
    });
    if (motion && motion.tracks.size) await this.fly(motion, speed);
    else await this.drop(dice, before, rest);
    this.dice.forEach((m, k) => {
      const f = fate[k];
      if (f === "taken") this.mark(m, "taken");
      else if (f !== "stays" && m.visible) this.mark(m, "out");
    });
    onMarked();
    this.dirty = true;
    await this.animate(900 / speed, () => undefined);
    // Removal: the dice that stay slide to their recorded places (dice lying on others, cocked dice put back).
    const stay: { m: THREE.Mesh; to: { p: THREE.Vector3; q: THREE.Quaternion } }[] = [];
    let n = 0;
    this.dice.forEach((m, k) => {
      if (fate[k] === "stays") {
        const d = after[n];
        if (d) stay.push({ m, to: this.restPose(d, n) });
        n++;
      }
    });
    const from = this.dice.map((m) => ({ p: m.position.clone(), q: m.quaternion.clone() }));
    const home = this.point(this.geo.floor / 2, -this.geo.rim - 60, this.geo.wall + 40);
    await this.animate(650 / speed, (t) => {
      const e = t * t * (3 - 2 * t);
      this.dice.forEach((m, k) => {
        const f = fate[k];
        if (f === "stays") return;
        if (f === "taken") {
          m.position.lerpVectors(from[k].p, home, e);
          m.position.y += Math.sin(Math.PI * e) * 40;
        } else {
          m.position.copy(from[k].p);
          m.position.y -= e * 10;
        }
        m.scale.setScalar(Math.max(0.001, 1 - e));
      });
      for (const s of stay) {
        const k = this.dice.indexOf(s.m);
        s.m.position.lerpVectors(from[k].p, s.to.p, e);
        s.m.quaternion.slerpQuaternions(from[k].q, s.to.q, e);
      }
    });
    this.setLayout(after);
    this.canvas.dataset.throwMs = String(Math.round(this.plannedMs)); // how long the last throw played
  }

  private fly(motion: Motion, speed: number): Promise<void> {
    const seconds = Math.max(0.1, (motion.frames - 1) / motion.fps);
    const qa = new THREE.Quaternion();
    const qb = new THREE.Quaternion();
    const pose = (tr: { poses: Float32Array }, k: number, q: THREE.Quaternion): THREE.Vector3 => {
      const o = k * 7;
      const v = tr.poses;
      // Arena quaternion (w, x, y, z) → three's frame: the vector part turns like a position (x, z, −y).
      q.set(v[o + 4], v[o + 6], -v[o + 5], v[o + 3]);
      return this.point(v[o], v[o + 1], v[o + 2]);
    };
    return this.animate((seconds * 1000) / speed, (t) => {
      const f = t * (motion.frames - 1);
      for (const [die, tr] of motion.tracks) {
        const m = this.dice[die];
        if (!m) continue;
        const local = Math.min(Math.max(f - tr.start, 0), tr.length - 1);
        const a = Math.floor(local);
        const b = Math.min(a + 1, tr.length - 1);
        const w = local - a;
        const pa = pose(tr, a, qa);
        const pb = pose(tr, b, qb);
        m.position.lerpVectors(pa, pb, w);
        m.quaternion.slerpQuaternions(qa, qb, w);
        m.visible = !(tr.left && f > tr.start + tr.length - 1);
      }
    });
  }

  /** No motion (fast model, real dice): the thrown dice fall onto their places, the others change in place. */
  private drop(dice: Landed[], before: number, rest: ({ p: THREE.Vector3; q: THREE.Quaternion } | null)[]): Promise<void> {
    const from = this.dice.map((m) => ({ p: m.position.clone(), q: m.quaternion.clone() }));
    dice.forEach((_, k) => {
      if (k >= before) from[k].p = this.point(this.geo.floor / 2, -this.geo.rim - 40, this.geo.wall + 120);
    });
    return this.animate(700, (t) => {
      const e = 1 - (1 - t) * (1 - t);
      this.dice.forEach((m, k) => {
        const r = rest[k];
        if (!r) {
          m.visible = t < 0.5;
          return;
        }
        m.position.lerpVectors(from[k].p, r.p, e);
        if (k >= before) m.position.y += Math.sin(Math.PI * t) * 30;
        m.quaternion.slerpQuaternions(from[k].q, r.q, e);
      });
    });
  }

  // -- aiming -----------------------------------------------------------------------------------------------
  /** The aim: an arc from the thrower's edge to where the die first lands, a ring there; null hides it. */
  setAim(aim: { x: number; y: number; power: number } | null): void {
    for (const c of [...this.aim.children]) {
      this.aim.remove(c);
      if (c instanceof THREE.Mesh) c.geometry.dispose();
    }
    this.dirty = true;
    if (!aim) return;
    const { wall: w, rim: r, die } = this.geo;
    const color = new THREE.Color().setHSL(0.33 * (1 - aim.power), 0.85, 0.55);
    const mat = new THREE.MeshBasicMaterial({ color, depthTest: false, transparent: true, opacity: 0.9 });
    const start = this.point(aim.x, -r - 50, w + 70);
    const end = this.point(aim.x, aim.y, die / 2);
    // A lob rises high, a hard throw flies flat.
    const apex = start.clone().lerp(end, 0.5);
    apex.y = Math.max(start.y, end.y) + 150 * (1 - aim.power) + 10;
    const curve = new THREE.QuadraticBezierCurve3(start, apex, end);
    const tube = new THREE.Mesh(new THREE.TubeGeometry(curve, 40, 1.6, 6, false), mat);
    tube.renderOrder = 10;
    const ring = new THREE.Mesh(new THREE.RingGeometry(die * 0.7, die * 1.05, 40), mat);
    ring.rotation.x = -Math.PI / 2;
    ring.position.copy(this.point(aim.x, aim.y, 0.6));
    ring.renderOrder = 10;
    this.aim.add(tube, ring);
  }

  // -- the hint map ---------------------------------------------------------------------------------------
  /** The hint's map laid on the foam (under the dice) and a white cross-hair around the best throw; null hides
   *  both. `heatShown` tells tests what is drawn. */
  setHeat(picture: HTMLCanvasElement | null, best: { x: number; y: number } | null): void {
    for (const c of [...this.heat.children]) {
      this.heat.remove(c);
      if (c instanceof THREE.Mesh) {
        c.geometry.dispose();
        const mat = c.material as THREE.MeshBasicMaterial;
        mat.map?.dispose();
        mat.dispose();
      }
    }
    this.heatShown = picture !== null;
    this.dirty = true;
    if (!picture) return;
    const f = this.geo.floor;
    const tex = new THREE.CanvasTexture(picture);
    tex.colorSpace = THREE.SRGBColorSpace;
    tex.magFilter = THREE.LinearFilter;
    const plane = new THREE.Mesh(new THREE.PlaneGeometry(f, f), new THREE.MeshBasicMaterial({ map: tex, transparent: true, opacity: 0.62, depthWrite: false }));
    plane.rotation.x = -Math.PI / 2;
    plane.position.copy(this.point(f / 2, f / 2, 0.4));
    plane.renderOrder = 1;
    this.heat.add(plane);
    if (!best) return;
    const die = this.geo.die;
    const mark = (inner: number, outer: number, color: string): void => {
      const m = new THREE.Mesh(new THREE.RingGeometry(inner, outer, 40), new THREE.MeshBasicMaterial({ color, depthTest: false, transparent: true }));
      m.rotation.x = -Math.PI / 2;
      m.position.copy(this.point(best.x, best.y, 0.8));
      m.renderOrder = 11;
      this.heat.add(m);
    };
    // a ring around the spot (a die lying there stays visible inside it) and four ticks pointing at it
    mark(die * 1.3, die * 1.6, "#111111");
    mark(die * 1.36, die * 1.54, "#ffffff");
    for (const [dx, dy] of [[1, 0], [-1, 0], [0, 1], [0, -1]]) {
      const tick = new THREE.Mesh(new THREE.PlaneGeometry(dx ? die * 0.9 : die * 0.16, dy ? die * 0.9 : die * 0.16), new THREE.MeshBasicMaterial({ color: "#ffffff", depthTest: false, transparent: true }));
      tick.rotation.x = -Math.PI / 2;
      tick.position.copy(this.point(best.x + dx * die * 2.05, best.y + dy * die * 2.05, 0.9));
      tick.renderOrder = 12;
      this.heat.add(tick);
    }
  }

  // -- the loop ---------------------------------------------------------------------------------------------
  private tick(dt: number): void {
    if (this.anims.length) {
      for (const a of [...this.anims]) {
        a.elapsed += dt;
        const t = Math.min(1, a.elapsed / a.duration);
        if (t >= 1) {
          this.anims.splice(this.anims.indexOf(a), 1);
          a.done();
        } else a.step(t);
      }
      this.dirty = true;
    }
    if (!this.dirty) return;
    this.dirty = false;
    this.renderer.render(this.scene, this.camera);
    this.framesDrawn++;
  }

  /** Draw every frame for `ms` (the frame-rate test); resolves with the frames drawn per second. */
  measure(ms: number): Promise<number> {
    const start = this.framesDrawn;
    const t0 = performance.now();
    return this.animate(ms, () => {
      this.controls.update();
    }).then(() => ((this.framesDrawn - start) * 1000) / (performance.now() - t0));
  }
}

/** Whether WebGL is drawn by the CPU (no GPU): SwiftShader, llvmpipe, Mesa's software rasteriser. */
function softwareGL(): boolean {
  try {
    const g = document.createElement("canvas").getContext("webgl");
    const info = g?.getExtension("WEBGL_debug_renderer_info");
    const name = g && info ? String(g.getParameter(info.UNMASKED_RENDERER_WEBGL)) : "";
    g?.getExtension("WEBGL_lose_context")?.loseContext();
    return /swiftshader|llvmpipe|softpipe|software/i.test(name);
  } catch {
    return false;
  }
}

/** Whether this browser can draw WebGL at all (else the view says so and shows the dice as text). */
export function webglAvailable(): boolean {
  try {
    const c = document.createElement("canvas");
    return Boolean(c.getContext("webgl2") ?? c.getContext("webgl"));
  } catch {
    return false;
  }
}
