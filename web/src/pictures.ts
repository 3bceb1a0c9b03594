// The games drawn as SVG by the project: five dice of Dice 1000, a Clever score sheet (whole, by area, a worked
// turn), the Wurf arena.
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

/** A label squeezed into `width` units when its letters (about 6.8 units each, bold) would not fit. */
function fitText(x: number, y: number, label: string, cls: string, width: number): SVGTextElement {
  const node = text(x, y, label, cls, "start");
  if (label.length * 6.8 > width) {
    node.setAttribute("textLength", String(width));
    node.setAttribute("lengthAdjust", "spacingAndGlyphs");
  }
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
export function svgDie(x: number, y: number, face: number, angle = 0, size = 60, colour = ""): SVGGElement {
  const s = size / 60;
  const g = el("g", { transform: `translate(${x} ${y}) rotate(${angle} ${size / 2} ${size / 2}) scale(${s})`, class: colour ? `pic-die ${colour}` : "pic-die" });
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

type Area = "yellow" | "blue" | "green" | "orange" | "purple";

/** Yellow's printed numbers (0: crossed from the start) and blue's sums (0: the blue+white icon, no cell). */
const YELLOW = [
  [3, 6, 5, 0],
  [2, 1, 0, 5],
  [1, 0, 2, 4],
  [0, 3, 4, 6],
];
const BLUE = [
  [0, 2, 3, 4],
  [5, 6, 7, 8],
  [9, 10, 11, 12],
];
const GREEN_MIN = [1, 2, 3, 4, 5, 1, 2, 3, 4, 5, 6];
const ORANGE_TIMES: Record<number, string> = { 3: "×2", 6: "×2", 8: "×2", 10: "×3" };

/** A cross over a cell; `fresh`: the one the example just made (drawn in red). */
function cross(x: number, y: number, w: number, hgt: number, fresh = false): SVGElement {
  return el("path", { d: `M${x + 4} ${y + 3} L${x + w - 4} ${y + hgt - 3} M${x + w - 4} ${y + 3} L${x + 4} ${y + hgt - 3}`, class: fresh ? "pic-cross new" : "pic-cross" });
}

/** Ganz schön clever: the sheet's five coloured areas with the round track and the dice fields above; the area
 * names stand beside or under their cells, never on them. */
export function cleverPicture(label: string, areas?: Record<Area | "track", string>): SVGSVGElement {
  const kids: SVGElement[] = [el("rect", { x: 0, y: 0, width: 340, height: 250, rx: 12, class: "pic-sheet" })];
  for (let i = 0; i < 6; i++) kids.push(el("circle", { cx: 24 + i * 22, cy: 20, r: 8, class: "pic-round" }));
  for (let i = 0; i < 3; i++) kids.push(el("rect", { x: 216 + i * 40, y: 8, width: 32, height: 24, rx: 5, class: "pic-slot" }));
  YELLOW.forEach((row, r) =>
    row.forEach((v, c) => {
      const x = 12 + c * 30;
      const y = 42 + r * 22;
      kids.push(el("rect", { x, y, width: 26, height: 18, rx: 3, class: v ? "pic-cell yellow" : "pic-cell yellow done" }));
      kids.push(v ? text(x + 13, y + 13, String(v), "pic-num") : cross(x, y, 26, 18));
    }),
  );
  BLUE.forEach((row, r) =>
    row.forEach((v, c) => {
      const x = 196 + c * 34;
      const y = 42 + r * 22;
      if (!v) return;
      kids.push(el("rect", { x, y, width: 30, height: 18, rx: 3, class: "pic-cell blue" }), text(x + 15, y + 13, String(v), "pic-num"));
    }),
  );
  kids.push(svgDie(148, 58, 4, 10, 26, "c-yellow"), svgDie(150, 96, 2, -8, 26, "c-blue"));
  const rows: [Area, number][] = [["green", 160], ["orange", 188], ["purple", 216]];
  for (const [colour, y] of rows)
    for (let c = 0; c < 11; c++) {
      const x = 86 + c * 22.6;
      kids.push(el("rect", { x, y, width: 20.5, height: 20, rx: 3, class: `pic-cell ${colour}` }));
      if (colour === "green") kids.push(text(x + 10.25, y + 14, `≥${GREEN_MIN[c]}`, "pic-num small"));
      if (colour === "orange" && ORANGE_TIMES[c]) kids.push(text(x + 10.25, y + 14, ORANGE_TIMES[c], "pic-num small"));
    }
  if (areas) {
    kids.push(
      text(72, 143, areas.yellow, "pic-label dark"),
      text(264, 121, areas.blue, "pic-label dark"),
      text(154, 24, areas.track, "pic-label dark", "start"),
      // (a row's name in the gutter left of its cells: small enough for the longest, Polish "pomarańczowy")
      fitText(6, 174, areas.green, "pic-label dark row", 76),
      fitText(6, 202, areas.orange, "pic-label dark row", 76),
      fitText(6, 230, areas.purple, "pic-label dark row", 76),
    );
  }
  return svg("0 0 340 250", label, ...kids);
}

/** One area of the Clever sheet as a strip, with an example of what goes in it. */
export function cleverAreaPicture(area: Area, label: string): SVGSVGElement {
  const kids: SVGElement[] = [];
  if (area === "yellow" || area === "blue") {
    const grid = area === "yellow" ? YELLOW : BLUE;
    grid.forEach((row, r) =>
      row.forEach((v, c) => {
        const x = 4 + c * 34;
        const y = 4 + r * 24;
        if (!v && area === "blue") return;
        kids.push(el("rect", { x, y, width: 30, height: 20, rx: 3, class: v ? `pic-cell ${area}` : "pic-cell yellow done" }));
        kids.push(v ? text(x + 15, y + 14, String(v), "pic-num") : cross(x, y, 30, 20));
        // the example: yellow 2 crossed; blue 3 + white 6 = 9 crossed
        if ((area === "yellow" && r === 1 && c === 0) || (area === "blue" && v === 9)) kids.push(cross(x, y, 30, 20, true));
      }),
    );
    if (area === "yellow") kids.push(svgDie(150, 30, 2, 0, 34, "c-yellow"));
    else kids.push(svgDie(146, 26, 3, 0, 30, "c-blue"), text(183, 46, "+", "pic-num"), svgDie(192, 26, 6, 0, 30, "c-white"), text(234, 46, "= 9", "pic-num", "start"));
    return svg(area === "yellow" ? "0 0 200 104" : "0 0 270 80", label, ...kids);
  }
  const values: Record<"green" | "orange" | "purple", (string | null)[]> = {
    green: ["×", "×", "×", null, null, null, null, null, null, null, null],
    orange: ["3", "5", "2", "4×2=8", null, null, null, null, null, null, null],
    purple: ["2", "5", "6", "3", "4", null, null, null, null, null, null],
  };
  for (let c = 0; c < 11; c++) {
    const x = 4 + c * 30;
    kids.push(el("rect", { x, y: 4, width: 27, height: 30, rx: 3, class: `pic-cell ${area}` }));
    const v = values[area][c];
    if (area === "green") {
      kids.push(text(x + 13.5, 30, `≥${GREEN_MIN[c]}`, "pic-num small"));
      if (v) kids.push(cross(x, 4, 27, 30, c === 2));
    } else if (area === "orange") {
      if (ORANGE_TIMES[c]) kids.push(text(x + 13.5, 31, ORANGE_TIMES[c], "pic-num small"));
      if (v) kids.push(text(x + 13.5, 20, v.split("×")[0], "pic-num"));
    } else if (v) {
      kids.push(text(x + 13.5, 24, v, "pic-num"));
    }
  }
  return svg("0 0 338 38", label, ...kids);
}

/** A bonus chain: the yellow 5 completes yellow's first row, whose bonus crosses blue's 10, which completes
 * blue's last row, whose bonus is a fox. */
export function cleverChainPicture(label: string): SVGSVGElement {
  const kids: SVGElement[] = [];
  const arrow = (x: number): SVGElement => el("path", { d: `M${x} 20 L${x + 16} 20 M${x + 10} 14 L${x + 16} 20 L${x + 10} 26`, class: "pic-arrow" });
  [3, 6, 5, 0].forEach((v, c) => {
    const x = 4 + c * 26;
    kids.push(el("rect", { x, y: 10, width: 23, height: 20, rx: 3, class: v ? "pic-cell yellow" : "pic-cell yellow done" }));
    if (v) kids.push(text(x + 11.5, 24, String(v), "pic-num"));
    kids.push(cross(x, 10, 23, 20, v === 5));
  });
  kids.push(arrow(110));
  kids.push(el("rect", { x: 132, y: 10, width: 20, height: 20, rx: 3, class: "pic-cell blue" }), cross(132, 10, 20, 20));
  kids.push(arrow(158));
  [9, 10, 11, 12].forEach((v, c) => {
    const x = 180 + c * 26;
    kids.push(el("rect", { x, y: 10, width: 23, height: 20, rx: 3, class: "pic-cell blue" }), text(x + 11.5, 24, String(v), "pic-num"));
    kids.push(cross(x, 10, 23, 20, v === 10));
  });
  kids.push(arrow(284));
  // the fox: an orange head with two ears
  kids.push(
    el("path", { d: "M304 6 L312 15 L322 15 L330 6 L329 22 L317 36 L305 22 Z", class: "pic-fox" }),
    el("circle", { cx: 312, cy: 21, r: 1.8, class: "pic-fox-eye" }),
    el("circle", { cx: 322, cy: 21, r: 1.8, class: "pic-fox-eye" }),
    el("circle", { cx: 317, cy: 33, r: 2, class: "pic-fox-eye" }),
  );
  return svg("0 0 334 40", label, ...kids);
}

/** The worked turn of How to play: rows of dice (colour, face, what happened: taken, to the platter, gone). */
export function cleverTurnPicture(label: string, words: { roll(n: number): string; platter: string }): SVGSVGElement {
  type D = [string, number, "" | "taken" | "platter"];
  const rows: [string, D[]][] = [
    [words.roll(1), [["white", 5, ""], ["yellow", 2, "taken"], ["blue", 6, ""], ["green", 4, ""], ["orange", 3, ""], ["purple", 1, "platter"]]],
    [words.roll(2), [["white", 6, ""], ["blue", 3, "platter"], ["green", 5, ""], ["orange", 4, "taken"]]],
    [words.roll(3), [["white", 6, "taken"], ["green", 2, "platter"]]],
    [words.platter, [["purple", 1, ""], ["blue", 3, "taken"], ["green", 2, ""]]],
  ];
  const kids: SVGElement[] = [];
  rows.forEach(([name, dice], r) => {
    const y = 6 + r * 44;
    if (r === 3) kids.push(el("rect", { x: 84, y: y - 4, width: 40 * dice.length + 12, height: 42, rx: 21, class: "pic-platter" }));
    kids.push(text(4, y + 22, name, "pic-label dark", "start"));
    dice.forEach(([colour, face, what], i) => {
      const x = 92 + i * 40;
      if (what === "taken") kids.push(el("circle", { cx: x + 17, cy: y + 17, r: 20, class: "pic-taken" }));
      const d = svgDie(x, y, face, 0, 34, `c-${colour}`);
      if (what === "platter") d.classList.add("faded");
      kids.push(d);
    });
  });
  return svg("0 0 340 178", label, ...kids);
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
