// Der große Wurf: the public view read into typed data, the outcome notation parsed, the motion payload decoded.
// Field names follow WurfState.public_view() (dicehall/wurf/state.py); the motion format is docs/wurf.md.
import type { View } from "../api";

type Obj = Record<string, unknown>;

/** A die lying in the arena: face 1 = X; x/y null when its place is unknown (real dice). */
export interface ArenaDie {
  index: number;
  face: number;
  x: number | null;
  y: number | null;
  yaw: number;
}

export interface Geometry {
  floor: number;
  wall: number;
  rim: number;
  die: number;
}

export interface LastThrow {
  thrower: number;
  thrown: number;
  big: boolean;
  left: number;
  cocked: number;
  cockedLost: number;
  xRemoved: number;
  taken: number;
  takenFaces: number[];
  eliminated: boolean;
}

export interface WurfModel {
  current: number | null;
  chance: boolean;
  terminal: boolean;
  phase: string;
  legal: string[];
  geometry: Geometry;
  arena: ArenaDie[];
  supplies: number[];
  alive: boolean[];
  winners: number[];
  outOfGame: number;
  box: number;
  bigNext: boolean;
  diceNext: number;
  rearranged: boolean;
  /** Dice of the throw whose outcome is due (real dice: what the entry lists besides the arena). */
  pendingDice: number;
  last: LastThrow | null;
  match: { enabled: boolean; game: number; games: number; points: number[]; eliminations: number[][] };
  names: string[];
}

const num = (v: unknown, d = 0): number => (typeof v === "number" && Number.isFinite(v) ? v : d);
const nums = (v: unknown): number[] => (Array.isArray(v) ? v.filter((x): x is number => typeof x === "number") : []);

export function faceOf(name: unknown): number {
  if (name === "X" || name === 1) return 1;
  const n = Number(name);
  return n >= 2 && n <= 6 ? n : 1;
}

export function read(v: View): WurfModel {
  const o = v as unknown as Obj;
  const g = (o.geometry ?? {}) as Obj;
  const floor = num(g.floor_mm, num(o.arena_mm, 200));
  const arena = (Array.isArray(o.arena) ? (o.arena as Obj[]) : []).map((d, i) => ({
    index: num(d.index, i),
    face: faceOf(d.face),
    x: typeof d.x === "number" ? d.x : null,
    y: typeof d.y === "number" ? d.y : null,
    yaw: num(d.yaw),
  }));
  const lt = o.last_throw as Obj | null | undefined;
  const m = (o.match ?? {}) as Obj;
  const cp = v.current_player;
  return {
    current: typeof cp === "number" ? cp : null,
    chance: cp === "chance",
    terminal: Boolean(v.terminal),
    phase: typeof o.phase === "string" ? o.phase : "",
    legal: Array.isArray(v.legal_actions) ? v.legal_actions : [],
    geometry: { floor, wall: num(g.wall_mm, 30), rim: num(g.rim_mm, 25), die: num(g.die_mm, 16) },
    arena,
    supplies: nums(o.supplies),
    alive: Array.isArray(o.alive) ? o.alive.map(Boolean) : [],
    winners: nums(v.winners),
    outOfGame: num(o.out_of_game),
    box: num(o.box),
    bigNext: Boolean(o.big_throw_next),
    diceNext: num(o.dice_next_throw),
    rearranged: Boolean(o.rearranged),
    pendingDice: num(o.pending_dice),
    last: lt
      ? {
          thrower: num(lt.thrower),
          thrown: num(lt.thrown),
          big: Boolean(lt.big),
          left: num(lt.left),
          cocked: num(lt.cocked),
          cockedLost: num(lt.cocked_lost),
          xRemoved: num(lt.x_removed),
          taken: num(lt.taken),
          takenFaces: nums(lt.taken_faces),
          eliminated: Boolean(lt.eliminated),
        }
      : null,
    match: {
      enabled: Boolean(m.enabled),
      game: num(m.game, 1),
      games: num(m.games, 1),
      points: nums(m.points),
      eliminations: Array.isArray(m.eliminations) ? (m.eliminations as unknown[]).map(nums) : [],
    },
    names: Array.isArray(o.names) ? (o.names as unknown[]).map(String) : [],
  };
}

/** One die of an outcome (`lands ...`): status, face (for a cocked die the face of its re-throw), place if known. */
export interface Landed {
  status: "arena" | "out" | "rim" | "cocked";
  face: number;
  x: number | null;
  y: number | null;
  yaw: number;
}

/** The dice of a `lands ...` move, in the outcome's order (the arena dice before the throw, then the thrown dice). */
export function parseLands(move: string): Landed[] | null {
  const parts = move.trim().split(/\s+/);
  if (parts[0] !== "lands") return null;
  return parts.slice(1).map((tok) => {
    const low = tok.toLowerCase();
    if (low === "out" || low === "rim") return { status: low, face: 0, x: null, y: null, yaw: 0 };
    const cocked = low.startsWith("c") && tok.length > 1;
    const [face, at] = (cocked ? tok.slice(1) : tok).split("@");
    const pos = at ? at.split(",").map(Number) : [];
    return {
      status: cocked ? "cocked" : "arena",
      face: faceOf(face),
      x: pos.length >= 2 ? pos[0] : null,
      y: pos.length >= 2 ? pos[1] : null,
      yaw: pos.length >= 3 ? pos[2] : 0,
    };
  });
}

/** What happens to each die of an outcome when the throw is resolved (the engine's order, state.py). */
export type Fate = "stays" | "out" | "rim" | "x" | "cocked-x" | "taken";

export function fates(dice: Landed[], takenFaces: number[]): Fate[] {
  return dice.map((d) => {
    if (d.status === "out" || d.status === "rim") return d.status;
    if (d.face === 1) return d.status === "cocked" ? "cocked-x" : "x";
    return takenFaces.includes(d.face) ? "taken" : "stays";
  });
}

/** A throw aimed at (x, y) mm with power and spin, in the engine's notation. */
export function throwMove(x: number, y: number, power: number, spin = 0.5): string {
  const mm = (v: number): string => {
    const r = Math.round(v * 10) / 10;
    return Number.isInteger(r) ? String(r) : r.toFixed(1);
  };
  return `throw ${mm(x)},${mm(y)} p${power.toFixed(2)} s${spin.toFixed(2)}`;
}

export function moveMove(moves: Map<number, [number, number]>): string {
  const mm = (v: number): string => String(Math.round(v * 10) / 10);
  return "move " + [...moves.entries()].sort((a, b) => a[0] - b[0]).map(([i, [x, y]]) => `${i}>${mm(x)},${mm(y)}`).join(" ");
}

/** A decoded motion: per moving die (index into the outcome) its track of poses (mm, quaternion w x y z). */
export interface Track {
  start: number;
  left: boolean;
  /** 7 values per frame of the track: x, y, z, qw, qx, qy, qz. */
  poses: Float32Array;
  length: number;
}

export interface Motion {
  fps: number;
  frames: number;
  tracks: Map<number, Track>;
}

/** Decode the motion payload (format 1): base64 → zlib (DecompressionStream) → delta-coded int16 columns. */
export async function decodeMotion(raw: unknown): Promise<Motion | null> {
  if (typeof raw !== "object" || raw === null) return null;
  const m = raw as Obj;
  if (m.v !== 1 || typeof m.data !== "string") return null;
  const bytes = Uint8Array.from(atob(m.data), (c) => c.charCodeAt(0));
  const stream = new Blob([bytes]).stream().pipeThrough(new DecompressionStream("deflate"));
  const buf = await new Response(stream).arrayBuffer();
  const v = new Int16Array(buf);
  const dice = nums(m.dice);
  const starts = nums(m.start);
  const ends = nums(m.end);
  const left = nums(m.left);
  const tracks = new Map<number, Track>();
  let at = 0;
  dice.forEach((die, i) => {
    const n = ends[i] - starts[i] + 1;
    const cols: Int16Array[] = [];
    for (let c = 0; c < 7; c++, at += n) {
      const col = new Int16Array(n);
      for (let k = 0; k < n; k++) col[k] = (k ? col[k - 1] : 0) + v[at + k]; // wraps like the encoder
      cols.push(col);
    }
    const poses = new Float32Array(n * 7);
    for (let k = 0; k < n; k++) {
      for (let c = 0; c < 3; c++) poses[k * 7 + c] = cols[c][k] / 10;
      let norm = 0;
      for (let c = 3; c < 7; c++) norm += (cols[c][k] / 32767) ** 2;
      norm = Math.sqrt(norm) || 1;
      for (let c = 3; c < 7; c++) poses[k * 7 + c] = cols[c][k] / 32767 / norm;
    }
    tracks.set(die, { start: starts[i], left: Boolean(left[i]), poses, length: n });
  });
  return { fps: num(m.fps, 50), frames: num(m.frames, 1), tracks };
}
