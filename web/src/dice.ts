// Dice drawn as SVG with pips; a short CSS tumble when freshly rolled (skipped under reduced motion).
import { h as vh, type VNode, type VNodeData } from "snabbdom";
import { t } from "./i18n";
import { patch } from "./vdom";

// Pip positions on a 3×3 grid (0..2 in x and y) for each face.
const PIPS: Record<number, [number, number][]> = {
  1: [[1, 1]],
  2: [[0, 0], [2, 2]],
  3: [[0, 0], [1, 1], [2, 2]],
  4: [[0, 0], [2, 0], [0, 2], [2, 2]],
  5: [[0, 0], [2, 0], [1, 1], [0, 2], [2, 2]],
  6: [[0, 0], [2, 0], [0, 1], [2, 1], [0, 2], [2, 2]],
};

export interface DieOptions {
  rolling?: boolean;
  scoring?: boolean;
  setAside?: boolean;
  delay?: number;
}

/** A die as a snabbdom vnode (the tables patch it in place; `key` makes a new roll a new element, whose tumble
 * plays again). `data` adds the caller's attributes, classes and handlers. */
export function dieVNode(face: number, opts: DieOptions = {}, data: VNodeData = {}, kids: VNode[] = []): VNode {
  const pips = (PIPS[face] ?? []).map(([gx, gy]) => vh("circle", { attrs: { cx: 15 + gx * 15, cy: 15 + gy * 15, r: 5.5, class: face === 1 || face === 5 ? "pip pip-red" : "pip" } }));
  const svg = vh("svg", { attrs: { viewBox: "0 0 60 60", "aria-hidden": "true" } }, [vh("rect", { attrs: { x: 2, y: 2, width: 56, height: 56, rx: 10, class: "die-body" } }), ...pips, ...kids]);
  return vh(
    "span",
    {
      ...data,
      class: { die: true, rolling: !!opts.rolling, scoring: !!opts.scoring, "set-aside": !!opts.setAside, ...(data.class ?? {}) },
      style: opts.delay ? { animationDelay: `${opts.delay}ms` } : {},
      attrs: { role: "img", "aria-label": t("dice.showing", { face }), "data-face": face, ...(data.attrs ?? {}) },
    },
    [svg],
  );
}

/** The same die as a DOM element (pages drawn without snabbdom). */
export function die(face: number, opts: DieOptions = {}): HTMLElement {
  return patch(document.createElement("span"), dieVNode(face, opts)).elm as HTMLElement;
}

/** An empty slot where a die will land (dice still in hand, not yet rolled). */
export function dieSlot(): HTMLElement {
  const el = document.createElement("span");
  el.className = "die slot";
  el.setAttribute("aria-hidden", "true");
  return el;
}
