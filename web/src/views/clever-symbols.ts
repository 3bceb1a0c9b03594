// Colour is never the only signal: each Clever colour has a shape of its own, drawn on its dice, beside its area's
// title and on its bonus squares (yellow ◆, blue ▲, green ■, orange ★, purple ⬢). Green and orange, blue and
// purple look alike to the colour-blind (deuteranopia, protanopia); their shapes do not.
import { h, type VNode } from "snabbdom";
import type { Area } from "./clever-model";

type Path = (cx: number, cy: number, r: number) => string;

const poly = (pts: [number, number][]): string => `M ${pts.map(([x, y]) => `${x.toFixed(2)} ${y.toFixed(2)}`).join(" L ")} Z`;

/** A regular shape's corners: `n` points at radius `r` (and `inner` between them for a star), the first on top. */
function ring(cx: number, cy: number, n: number, r: number, inner?: number): [number, number][] {
  const pts: [number, number][] = [];
  const steps = inner === undefined ? n : 2 * n;
  for (let i = 0; i < steps; i++) {
    const a = -Math.PI / 2 + (i * 2 * Math.PI) / steps;
    const rr = inner !== undefined && i % 2 ? inner : r;
    pts.push([cx + rr * Math.cos(a), cy + rr * Math.sin(a)]);
  }
  return pts;
}

export const SYMBOL_PATH: Record<Area, Path> = {
  yellow: (cx, cy, r) => poly([[cx, cy - r], [cx + r * 0.8, cy], [cx, cy + r], [cx - r * 0.8, cy]]),
  blue: (cx, cy, r) => poly([[cx, cy - r], [cx + r, cy + r * 0.78], [cx - r, cy + r * 0.78]]),
  green: (cx, cy, r) => poly([[cx - r * 0.78, cy - r * 0.78], [cx + r * 0.78, cy - r * 0.78], [cx + r * 0.78, cy + r * 0.78], [cx - r * 0.78, cy + r * 0.78]]),
  orange: (cx, cy, r) => poly(ring(cx, cy + r * 0.08, 5, r * 1.05, r * 0.45)),
  purple: (cx, cy, r) => poly(ring(cx, cy, 6, r * 0.95)),
};

/** A die's badge: a white disc on its lower right corner with its colour's shape (dice.ts draws on 60 × 60; the
 * disc stands out of the die a little so that it never covers a pip). Drawn only, never read out: the die's
 * name says its colour. */
export function symbolVNode(area: Area): VNode {
  return h("g", { attrs: { class: `csym csym-${area}` } }, [
    h("circle", { attrs: { cx: 56, cy: 56, r: 10, class: "csym-disc" } }),
    h("path", { attrs: { d: SYMBOL_PATH[area](56, 56, 6.5), class: "csym-shape" } }),
  ]);
}
