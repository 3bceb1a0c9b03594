// The games drawn as SVG by the project: five dice of Dice 1000, a Clever score sheet, the Wurf arena.
// Built with DOM calls (no markup strings), so the pages stay CSP-clean.
const NS = "http://www.w3.org/2000/svg";
type SvgAttrs = Record<string, string | number>;

function el<K extends keyof SVGElementTagNameMap>(tag: K, attrs: SvgAttrs = {}, ...kids: SVGElement[]): SVGElementTagNameMap[K] {
  const node = document.createElementNS(NS, tag);
  for (const [k, v] of Object.entries(attrs)) node.setAttribute(k, String(v));
  node.append(...kids);
  return node;
}

function text(x: number, y: number, label: string, cls = "pic-label", anchor: "start" | "middle" = "middle"): SVGTextElement {
  const node = el("text", { x, y, class: cls, "text-anchor": anchor });
  node.textContent = label;
  return node;
}

function svg(viewBox: string, label: string, ...kids: SVGElement[]): SVGSVGElement {
  const root = el("svg", { viewBox, role: "img", class: "picture" }, ...kids);
  root.setAttribute("aria-label", label);
  return root;
}

const PIPS: Record<number, [number, number][]> = {
  1: [[1, 1]],
  2: [[0, 0], [2, 2]],
  3: [[0, 0], [1, 1], [2, 2]],
  4: [[0, 0], [2, 0], [0, 2], [2, 2]],
  5: [[0, 0], [2, 0], [1, 1], [0, 2], [2, 2]],
  6: [[0, 0], [2, 0], [0, 1], [2, 1], [0, 2], [2, 2]],
};

/** One die (60×60 units) at (x, y), turned by `angle` degrees; face 0 draws the Wurf die's X face. */
export function svgDie(x: number, y: number, face: number, angle = 0, size = 60): SVGGElement {
  const s = size / 60;
  const g = el("g", { transform: `translate(${x} ${y}) rotate(${angle} ${size / 2} ${size / 2}) scale(${s})`, class: "pic-die" });
  g.append(el("rect", { x: 2, y: 2, width: 56, height: 56, rx: 10, class: "die-body" }));
  if (face === 0) {
    g.append(el("path", { d: "M18 18 L42 42 M42 18 L18 42", class: "pic-x" }));
    return g;
  }
  for (const [gx, gy] of PIPS[face] ?? []) {
    g.append(el("circle", { cx: 15 + gx * 15, cy: 15 + gy * 15, r: 5.5, class: face === 1 || face === 5 ? "pip pip-red" : "pip" }));
  }
  return g;
}

/** Dice 1000: a roll of five dice on the felt, the scoring 1s and 5s in red. */
export function thousandPicture(label: string): SVGSVGElement {
  return svg(
    "0 0 320 180",
    label,
    el("rect", { x: 0, y: 0, width: 320, height: 180, rx: 16, class: "pic-felt" }),
    svgDie(28, 40, 1, -12),
    svgDie(92, 88, 5, 8),
    svgDie(150, 30, 3, 15),
    svgDie(200, 92, 1, -5),
    svgDie(246, 36, 5, 22),
    text(160, 168, "1000", "pic-score"),
  );
}

/** Ganz schön clever: the sheet's five coloured areas with the round track and the dice fields above. */
export function cleverPicture(label: string, areas?: Record<"yellow" | "blue" | "green" | "orange" | "purple" | "track", string>): SVGSVGElement {
  const kids: SVGElement[] = [el("rect", { x: 0, y: 0, width: 320, height: 220, rx: 12, class: "pic-sheet" })];
  // round track and the three dice fields
  for (let i = 0; i < 6; i++) kids.push(el("circle", { cx: 24 + i * 22, cy: 20, r: 8, class: "pic-round" }));
  for (let i = 0; i < 3; i++) kids.push(el("rect", { x: 196 + i * 40, y: 8, width: 32, height: 24, rx: 5, class: "pic-slot" }));
  // yellow 4×4 grid with the diagonal crossed out, blue 4×3 grid
  for (let r = 0; r < 4; r++)
    for (let c = 0; c < 4; c++) kids.push(el("rect", { x: 12 + c * 30, y: 42 + r * 22, width: 26, height: 18, rx: 3, class: r === c ? "pic-cell yellow done" : "pic-cell yellow" }));
  for (let r = 0; r < 3; r++)
    for (let c = 0; c < 4; c++) kids.push(el("rect", { x: 180 + c * 32, y: 42 + r * 22, width: 28, height: 18, rx: 3, class: "pic-cell blue" }));
  const rows: ["green" | "orange" | "purple", number][] = [["green", 140], ["orange", 166], ["purple", 192]];
  for (const [colour, y] of rows)
    for (let c = 0; c < 11; c++) kids.push(el("rect", { x: 12 + c * 27.5, y, width: 24, height: 18, rx: 3, class: `pic-cell ${colour}` }));
  kids.push(svgDie(150, 60, 4, 10, 26), svgDie(150, 96, 2, -8, 26));
  if (areas) {
    kids.push(
      text(72, 138, areas.yellow, "pic-label dark"),
      text(244, 120, areas.blue, "pic-label dark"),
      text(152, 24, areas.track, "pic-label dark", "start"),
      text(160, 153, areas.green, "pic-label dark"),
      text(160, 179, areas.orange, "pic-label dark"),
      text(160, 205, areas.purple, "pic-label dark"),
    );
  }
  return svg("0 0 320 220", label, ...kids);
}

/** Der große Wurf: the arena box with its foam mat, dice lying in it (one on its X face), a throw coming in. */
export function wurfPicture(label: string, parts?: { arena: string; mat: string; x: string; out: string }): SVGSVGElement {
  const kids: SVGElement[] = [
    el("rect", { x: 0, y: 0, width: 320, height: parts ? 256 : 200, rx: 14, class: "pic-table" }),
    el("rect", { x: 40, y: 30, width: 220, height: 150, rx: 10, class: "pic-arena" }),
    el("rect", { x: 54, y: 44, width: 192, height: 122, rx: 6, class: "pic-mat" }),
    svgDie(80, 70, 3, -10, 40),
    svgDie(138, 100, 3, 18, 40),
    svgDie(190, 58, 0, 6, 40),
    svgDie(100, 120, 5, 30, 40),
    svgDie(272, 150, 2, 12, 34),
    el("path", { d: "M300 16 Q 250 20 215 48", class: "pic-throw" }),
    svgDie(284, 4, 6, 20, 30),
  ];
  if (!parts) return svg("0 0 320 200", label, ...kids);
  // labels as a legend under the box, so that no language's words cover the dice
  kids.push(
    text(150, 22, parts.arena, "pic-label"),
    text(150, 196, parts.mat, "pic-label dark"),
    svgDie(16, 206, 0, 0, 20),
    text(44, 221, parts.x, "pic-label dark", "start"),
    svgDie(16, 230, 2, 12, 20),
    text(44, 245, parts.out, "pic-label dark", "start"),
  );
  return svg("0 0 320 256", label, ...kids);
}
