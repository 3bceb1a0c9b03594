// Der große Wurf hint: the map of what aiming at each point of the arena is worth (the server's `map` in a hint,
// docs/web-protocol.md), its colour scale, and the legend over the arena with the best throw in words and a
// "Use this throw" button (a snabbdom view). The 3D arena draws the map on its floor (wurf-scene.ts `setHeat`).
import type { HintsResult } from "../api";
import { h as vh, type VNode } from "snabbdom";
import { formatNumber, t } from "../i18n";
import { cellOf } from "./wurf-words";
import "./wurf-hint.css";

export interface HeatMap {
  grid: number;
  step_mm: number;
  arena_mm: number;
  /** values[row][col]: aiming at ((col + ½) step, (row + ½) step) mm; row 0 is the thrower's edge. */
  values: number[][];
  powers: number[][];
  best: { x: number; y: number; power: number; value: number };
  low: number;
}

export function heatOf(res: HintsResult | null): HeatMap | null {
  const m = (res as (HintsResult & { map?: HeatMap }) | null)?.map;
  return m && Array.isArray(m.values) && m.grid > 0 ? m : null;
}

/** Viridis (dark blue → green → yellow): ordered in lightness, readable with every kind of colour blindness. */
const RAMP: [number, number, number][] = [
  [68, 1, 84],
  [59, 82, 139],
  [33, 145, 140],
  [94, 201, 98],
  [253, 231, 37],
];

export function heatColor(u: number): [number, number, number] {
  const v = Math.min(1, Math.max(0, u)) * (RAMP.length - 1);
  const k = Math.min(RAMP.length - 2, Math.floor(v));
  const f = v - k;
  const [a, b] = [RAMP[k], RAMP[k + 1]];
  return [0, 1, 2].map((i) => Math.round(a[i] + (b[i] - a[i]) * f)) as [number, number, number];
}

/** Differences under this (half the 0.01 dice shown) are no difference: the server's TIE (dicehall/wurf/hints.py). */
const TIE = 0.005;

const css = (c: [number, number, number]): string => `rgb(${c[0]} ${c[1]} ${c[2]})`;
const GRADIENT = `linear-gradient(to right, ${RAMP.map((c) => css(c)).join(", ")})`;

export function highOf(m: HeatMap): number {
  return Math.max(m.best.value, ...m.values.flat());
}

/** The map as a picture, one pixel per aim point, north up (the scene lays it on the floor). */
export function heatCanvas(m: HeatMap): HTMLCanvasElement {
  const c = document.createElement("canvas");
  c.width = c.height = m.grid;
  const g = c.getContext("2d");
  if (!g) return c;
  const lo = m.low;
  const span = highOf(m) - lo;
  const img = g.createImageData(m.grid, m.grid);
  for (let row = 0; row < m.grid; row++) {
    for (let col = 0; col < m.grid; col++) {
      const u = span >= TIE ? (m.values[row][col] - lo) / span : 0.5; // all equal: one middle colour
      const [r, gr, b] = heatColor(u);
      const at = ((m.grid - 1 - row) * m.grid + col) * 4;
      img.data.set([r, gr, b, 255], at);
    }
  }
  g.putImageData(img, 0, 0);
  return c;
}

const dice = (v: number): string => formatNumber(Math.round(v * 100) / 100);

/** The best throw in words (also what a screen reader hears). */
export function bestWords(m: HeatMap): string {
  const b = m.best;
  return t("wurf.hint.best", { cell: cellOf(b.x, b.y, m.arena_mm), x: formatNumber(Math.round(b.x)), y: formatNumber(Math.round(b.y)), power: formatNumber(b.power), value: dice(b.value) });
}

/** The legend over the arena: scale with its numbers, the best throw in words, and "Use this throw" (enabled when
 * this browser's seat may throw now). Hidden without a map; the "best" line is live (a screen reader hears it). */
export function heatLegend(m: HeatMap | null, canUse: boolean, onUse: () => void): VNode {
  const high = m ? highOf(m) : 0;
  // a map of one value: say so (one colour would otherwise look like a hint to aim anywhere, or nowhere)
  const flat = !!m && high - m.low < TIE;
  const scale = m ? t("wurf.hint.scale", { low: dice(m.low), high: dice(high) }) : "";
  return vh("div.wurf-heat", { attrs: { "data-testid": "wurf-heat", hidden: m === null } }, [
    vh("div.wurf-heat-scale", [
      vh("span.wurf-heat-title", t("wurf.hint.title")),
      vh("span.wurf-heat-lo", { attrs: { "data-testid": "wurf-heat-low" } }, m ? dice(m.low) : ""),
      vh("div.wurf-heat-bar", { attrs: { role: "img", "aria-label": scale }, style: { background: GRADIENT } }),
      vh("span.wurf-heat-hi", { attrs: { "data-testid": "wurf-heat-high" } }, m ? dice(high) : ""),
      vh("button.btn.small", { attrs: { type: "button", "data-testid": "wurf-heat-use", disabled: !canUse }, on: { click: onUse } }, t("wurf.hint.use")),
    ]),
    vh("p.wurf-heat-key", { attrs: { "data-testid": "wurf-heat-key", hidden: !flat } }, flat ? t("wurf.hint.flat") : ""),
    vh("p.wurf-heat-best", { attrs: { "data-testid": "wurf-heat-best", "aria-live": "polite" } }, m ? bestWords(m) : ""),
  ]);
}
