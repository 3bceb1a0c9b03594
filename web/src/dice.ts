// Dice drawn as SVG with pips; a short CSS tumble when freshly rolled (skipped under reduced motion).
import { t } from "./i18n";

const SVG = "http://www.w3.org/2000/svg";

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

export function die(face: number, opts: DieOptions = {}): HTMLElement {
  const wrap = document.createElement("span");
  wrap.className = "die";
  if (opts.rolling) wrap.classList.add("rolling");
  if (opts.scoring) wrap.classList.add("scoring");
  if (opts.setAside) wrap.classList.add("set-aside");
  if (opts.delay) wrap.style.animationDelay = `${opts.delay}ms`;
  wrap.setAttribute("role", "img");
  wrap.setAttribute("aria-label", t("dice.showing", { face }));
  wrap.dataset.face = String(face);

  const svg = document.createElementNS(SVG, "svg");
  svg.setAttribute("viewBox", "0 0 60 60");
  svg.setAttribute("aria-hidden", "true");
  const body = document.createElementNS(SVG, "rect");
  body.setAttribute("x", "2");
  body.setAttribute("y", "2");
  body.setAttribute("width", "56");
  body.setAttribute("height", "56");
  body.setAttribute("rx", "10");
  body.setAttribute("class", "die-body");
  svg.append(body);
  for (const [gx, gy] of PIPS[face] ?? []) {
    const pip = document.createElementNS(SVG, "circle");
    pip.setAttribute("cx", String(15 + gx * 15));
    pip.setAttribute("cy", String(15 + gy * 15));
    pip.setAttribute("r", "5.5");
    pip.setAttribute("class", face === 1 || face === 5 ? "pip pip-red" : "pip");
    svg.append(pip);
  }
  wrap.append(svg);
  return wrap;
}

/** An empty slot where a die will land (dice still in hand, not yet rolled). */
export function dieSlot(): HTMLElement {
  const el = document.createElement("span");
  el.className = "die slot";
  el.setAttribute("aria-hidden", "true");
  return el;
}
