// The Clever score sheet drawn in SVG like the paper one, from the layout the server sends: the round track and
// the action bars, yellow and blue grids with their row/column/diagonal bonuses and points, the green, orange and
// purple tracks with minimums, multipliers and bonus icons, and the score line. Cells a move can reach glow;
// every cell carries `data-target` (`yellow.r1c2`, `blue.r2c3`, `green`, ...) for the click handler.
// Built as snabbdom vnodes and patched into the page: an event changes a few cells, and patching keeps the other
// ~600 nodes (docs/web-frontend.md, "Rendering library").
import { h as vh, type VNode } from "snabbdom";
import { formatNumber, t } from "../i18n";
import type { Area, Bonus, Layout, SheetModel } from "./clever-model";
import { SYMBOL_PATH } from "./clever-symbols";
import { areaWord, bonusWord } from "./clever-words";

type Attrs = Record<string, string | number | null | undefined | false>;
type Kid = VNode | string | null | false | undefined;

/** An SVG element: attributes (null/false left out) and children (nested arrays flattened). */
export function s(tag: string, attrs: Attrs = {}, ...kids: (Kid | Kid[])[]): VNode {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(attrs)) if (v !== null && v !== undefined && v !== false) out[k] = String(v);
  const children = kids.flat().filter((k): k is VNode | string => k !== null && k !== false && k !== undefined);
  return vh(tag, { attrs: out }, children);
}

const text = (x: number, y: number, str: string | number, cls: string, size?: number): VNode =>
  s("text", { x, y, class: cls, "font-size": size, "text-anchor": "middle", "dominant-baseline": "central" }, String(str));

/** A cross as the pen draws it. */
function cross(cx: number, cy: number, r: number, cls = "pen"): VNode {
  return s("g", { class: cls }, s("line", { x1: cx - r, y1: cy - r, x2: cx + r, y2: cy + r }), s("line", { x1: cx + r, y1: cy - r, x2: cx - r, y2: cy + r }));
}

const BONUS_AREA: Partial<Record<Bonus, string>> = { yellow_x: "yellow", blue_x: "blue", green_x: "green", orange_4: "orange", orange_5: "orange", orange_6: "orange", purple_6: "purple", black: "black" };
const BONUS_MARK: Partial<Record<Bonus, string>> = { yellow_x: "X", blue_x: "X", green_x: "X", orange_4: "4", orange_5: "5", orange_6: "6", purple_6: "6", black: "X/6" };

/** A colour's shape (clever-symbols.ts): on a white disc of radius `r` when `disc`, else alone. */
export function symbolMark(area: Area, cx: number, cy: number, r: number, disc = true): VNode {
  return s(
    "g",
    { class: `csym csym-${area}`, "aria-hidden": "true" },
    disc ? s("circle", { cx, cy, r, class: "csym-disc" }) : null,
    s("path", { d: SYMBOL_PATH[area](cx, cy, disc ? r * 0.66 : r), class: "csym-shape" }),
  );
}

const AREA_OF_BONUS: Partial<Record<Bonus, Area>> = { yellow_x: "yellow", blue_x: "blue", green_x: "green", orange_4: "orange", orange_5: "orange", orange_6: "orange", purple_6: "purple" };

/** A bonus as the sheet prints it: a coloured square with X or a number (and its colour's shape on a disc at its
 * corner), the re-roll arrows, +1, the fox. */
export function bonusIcon(b: Bonus, cx: number, cy: number, size: number): VNode {
  const r = size / 2;
  let body: Kid[];
  if (b === "reroll") {
    const a = r * 0.72;
    body = [
      s("circle", { cx, cy, r, class: "bonus-bg" }),
      s("path", { d: `M ${cx - a} ${cy} A ${a} ${a} 0 1 1 ${cx} ${cy + a}`, class: "bonus-arrow" }),
      s("path", { d: `M ${cx - a - r * 0.28} ${cy - r * 0.15} L ${cx - a} ${cy + r * 0.3} L ${cx - a + r * 0.3} ${cy - r * 0.1} Z`, class: "bonus-arrowhead" }),
    ];
  } else if (b === "plus_one") {
    body = [s("circle", { cx, cy, r, class: "bonus-bg" }), text(cx, cy + 0.5, "+1", "bonus-text", size * 0.5)];
  } else if (b === "fox") {
    body = [foxHead(cx, cy, size)];
  } else {
    const area = AREA_OF_BONUS[b];
    body = [
      s("rect", { x: cx - r, y: cy - r, width: size, height: size, rx: size * 0.18, class: `bonus-sq sq-${BONUS_AREA[b]}` }),
      text(cx, cy + 0.5, BONUS_MARK[b] ?? "", "bonus-sq-text", b === "black" ? size * 0.36 : size * 0.6),
      area ? symbolMark(area, cx - r * 0.95, cy - r * 0.95, size * 0.3) : null,
    ];
  }
  return s("g", { class: `bonus bonus-${b}` }, s("title", {}, bonusWord(b)), body);
}

/** A fox's head: ears, a face narrowing to the nose, eyes. */
export function foxHead(cx: number, cy: number, size: number): VNode {
  const k = size / 20;
  const p = (x: number, y: number): string => `${cx + x * k} ${cy + y * k}`;
  return s(
    "g",
    { class: "fox" },
    s("path", { d: `M ${p(-9, -8)} L ${p(-4, -3)} L ${p(4, -3)} L ${p(9, -8)} L ${p(8, 1)} L ${p(0, 9)} L ${p(-8, 1)} Z`, class: "fox-face" }),
    s("path", { d: `M ${p(-6, 2)} L ${p(0, 9)} L ${p(6, 2)} L ${p(0, 4)} Z`, class: "fox-cheek" }),
    s("circle", { cx: cx - 3.2 * k, cy: cy - 0.5 * k, r: 1.1 * k, class: "fox-eye" }),
    s("circle", { cx: cx + 3.2 * k, cy: cy - 0.5 * k, r: 1.1 * k, class: "fox-eye" }),
    s("circle", { cx, cy: cy + 8 * k, r: 1.3 * k, class: "fox-eye" }),
  );
}

export interface SheetOptions {
  /** `data-target` keys of the cells the chosen die (or bonus) can go to. */
  targets: Set<string>;
  /** Cells to show as the last entry (a short flash). */
  fresh: Set<string>;
  round: number;
  rounds: number;
  label: string;
  seat: number;
}

const W = 640;
const CELL = 52;
const AREA_LABEL = areaWord;
/** A font size at which `label` (bold capitals) fits `width`: long names ("ФИОЛЕТОВАЯ") get smaller type. */
const fitSize = (label: string, width: number, size: number): number => Math.min(size, width / (label.length * 0.8));

/** A cell that a move may aim at: its key for the click handler, lit when the chosen die can go there. */
function cell(key: string, o: SheetOptions, cls: string, label: string | null, kids: Kid[]): VNode {
  const classes = [cls, o.targets.has(key) ? "target" : "", o.fresh.has(key) ? "fresh" : ""].filter(Boolean).join(" ");
  const lit = o.targets.has(key);
  return s("g", { class: classes, "data-target": key, role: label === null ? null : "button", "aria-label": label, tabindex: lit ? 0 : null }, kids);
}

function actionBar(kind: "reroll" | "plus_one", bar: { gained: number; used: number }, circles: number, x: number, y: number): VNode {
  const slots = Array.from({ length: circles }, (_, i) => {
    const cx = x + 44 + i * 30;
    const state = i < bar.used ? "used" : i < bar.gained ? "available" : "empty";
    return s("g", { class: `slot slot-${state}` }, s("circle", { cx, cy: y, r: 11, class: "slot-ring" }), state === "used" ? cross(cx, y, 6.5) : null);
  });
  return s("g", { class: `bar bar-${kind}`, "data-testid": `bar-${kind}` }, bonusIcon(kind, x + 14, y, 24), slots);
}

function roundTrack(l: Layout, o: SheetOptions, y: number): VNode {
  const rounds = Array.from({ length: o.rounds }, (_, i) => {
    const x = 48 + i * 50;
    const cls = i + 1 < o.round ? "round done" : i + 1 === o.round ? "round now" : "round";
    const bonus = l.round_bonuses[i];
    return s(
      "g",
      { class: cls, "data-round": i + 1 },
      s("rect", { x, y, width: 44, height: 40, rx: 7 }),
      text(x + 12, y + 20, i + 1, "round-num", 15),
      bonus ? bonusIcon(bonus, x + 31, y + 20, 18) : null,
      i + 1 < o.round ? cross(x + 12, y + 20, 7) : null,
    );
  });
  return s("g", { class: "rounds", "data-testid": "round-track" }, text(22, y + 20, t("clever.sheet.round"), "label-small", 11), rounds);
}

function crossGrid(area: "yellow" | "blue", l: Layout, sh: SheetModel, o: SheetOptions, x0: number, y0: number): VNode {
  const lay = l[area];
  const crossed = sh[area];
  const rows = lay.values.length;
  const cols = lay.values[0].length;
  const printed = new Set(lay.printed.map(([r, c]) => `${r},${c}`));
  const kids: Kid[] = [
    s("rect", { x: x0 - 6, y: y0 - 24, width: cols * CELL + 12 + 40, height: 268, rx: 12, class: "area-bg" }),
    symbolMark(area, x0 + 12, y0 - 12, 7, false),
    s("text", { x: x0 + 24, y: y0 - 12, class: "area-title", "font-size": 13, "text-anchor": "start", "dominant-baseline": "central" }, AREA_LABEL(area)),
  ];
  for (let r = 0; r < rows; r++) {
    for (let c = 0; c < cols; c++) {
      const x = x0 + c * CELL;
      const y = y0 + r * CELL;
      const v = lay.values[r][c];
      const cx = x + CELL / 2;
      const cy = y + CELL / 2;
      const box = s("rect", { x: x + 3, y: y + 3, width: CELL - 6, height: CELL - 6, rx: 6 });
      if (area === "blue" && v === null) {
        // the slot where blue + white is added up
        kids.push(
          s(
            "g",
            { class: "blue-sum" },
            s("title", {}, t("clever.sheet.blue_plus_white")),
            s("rect", { x: x + 4, y: y + 4, width: CELL - 8, height: CELL - 8, rx: 8 }),
            s("rect", { x: cx - 19, y: cy - 8, width: 16, height: 16, rx: 3, class: "mini-die mini-blue" }),
            text(cx, cy, "+", "blue-sum-text", 12),
            s("rect", { x: cx + 3, y: cy - 8, width: 16, height: 16, rx: 3, class: "mini-die mini-white" }),
          ),
        );
      } else if (printed.has(`${r},${c}`)) {
        kids.push(s("g", { class: "cell printed" }, box, cross(cx, cy, 12, "printed-x")));
      } else {
        kids.push(cell(`${area}.r${r + 1}c${c + 1}`, o, "cell", `${AREA_LABEL(area)} ${v}`, [box, text(cx, cy, v ?? "", "cell-num", 22), crossed[r]?.[c] ? cross(cx, cy, 13) : null]));
      }
    }
    const b = lay.row_bonuses[r];
    if (b) kids.push(bonusIcon(b, x0 + cols * CELL + 20, y0 + r * CELL + CELL / 2, 26));
  }
  for (let c = 0; c < cols; c++) {
    const cx = x0 + c * CELL + CELL / 2;
    const y = y0 + rows * CELL + 16;
    const b = lay.column_bonuses[c];
    if (b) kids.push(bonusIcon(b, cx, y, 24));
    const pts = lay.column_points?.[c];
    if (pts !== undefined) kids.push(s("g", { class: "col-points" }, s("rect", { x: cx - 17, y: y - 11, width: 34, height: 22, rx: 11 }), text(cx, y, pts, "col-points-text", 13)));
  }
  if (lay.count_points) {
    // the blue scoring table: points for 1, 2, ... crosses (the current count marked)
    const count = crossed.flat().filter(Boolean).length;
    const y = y0 + rows * CELL + 44;
    const bw = (cols * CELL + 36) / lay.count_points.length;
    lay.count_points.forEach((p, i) => {
      const x = x0 + i * bw;
      kids.push(s("g", { class: i + 1 === count ? "count now" : "count" }, s("rect", { x, y: y - 10, width: bw - 2, height: 20, rx: 4 }), text(x + bw / 2 - 1, y, p, "count-text", 10)));
    });
  }
  for (const d of lay.diagonals) {
    if (!d.bonus) continue;
    const [lr, lc] = d.cells[d.cells.length - 1];
    kids.push(s("line", { x1: x0 + lc * CELL + CELL - 4, y1: y0 + lr * CELL + CELL - 4, x2: x0 + cols * CELL + 10, y2: y0 + rows * CELL + 6, class: "diag" }));
    kids.push(bonusIcon(d.bonus, x0 + cols * CELL + 20, y0 + rows * CELL + 16, 24));
  }
  return s("g", { class: `area area-${area}`, "data-area": area }, kids);
}

function track(area: "green" | "orange" | "purple", l: Layout, sh: SheetModel, o: SheetOptions, y0: number): VNode {
  const n = area === "purple" ? l.purple.length : l[area].bonuses.length;
  const bonuses = l[area].bonuses;
  const x0 = 74;
  const cw = (W - x0 - 6) / n;
  const filled = area === "green" ? sh.green : area === "orange" ? sh.orange.length : sh.purple.length;
  const kids: Kid[] = [
    s("rect", { x: 2, y: y0 - 4, width: W - 4, height: 76, rx: 12, class: "area-bg" }),
    text(38, y0 + 16, AREA_LABEL(area), "area-title", fitSize(AREA_LABEL(area), 68, 12)),
    symbolMark(area, 38, y0 + 42, 9, false),
  ];
  for (let i = 0; i < n; i++) {
    const x = x0 + i * cw;
    const cx = x + cw / 2;
    const next = i === filled;
    const inner: Kid[] = [s("rect", { x: x + 2, y: y0, width: cw - 4, height: 44, rx: 6 })];
    let printed = ""; // what the cell shows, said in its name too (a name holds the visible text)
    if (area === "green") {
      printed = `≥${l.green.minimums[i]}`;
      inner.push(text(cx, y0 + 22, printed, "cell-min", 14), i < sh.green ? cross(cx, y0 + 22, 12) : null);
    } else {
      const written = (area === "orange" ? sh.orange : sh.purple)[i];
      if (area === "orange" && l.orange.multipliers[i] > 1) {
        printed = `×${l.orange.multipliers[i]}`;
        inner.push(text(x + cw - 10, y0 + 9, printed, "mult", 10));
      }
      if (written !== undefined) inner.push(text(cx, y0 + 24, written, "written", 20));
    }
    // every cell of a track means "the next one": only that one lights up
    kids.push(next ? cell(area, o, "cell track-cell next", `${AREA_LABEL(area)} ${printed}`.trim(), inner) : s("g", { class: "cell track-cell", "data-target": area }, inner));
    const b = bonuses[i];
    if (b) kids.push(bonusIcon(b, cx, y0 + 58, 20));
  }
  // purple rises: a "<" between neighbours, drawn over the cell borders
  if (area === "purple") for (let i = 1; i < n; i++) kids.push(s("g", { class: "lt-mark" }, s("circle", { cx: x0 + i * cw, cy: y0 + 22, r: 7 }), text(x0 + i * cw, y0 + 21, "<", "lt", 12)));
  return s("g", { class: `area area-${area} track`, "data-area": area }, kids);
}

function scoreLine(sh: SheetModel, y: number): VNode {
  const parts: [string, string, number][] = [
    ...(["yellow", "blue", "green", "orange", "purple"] as Area[]).map((a): [string, string, number] => [a, AREA_LABEL(a), sh.areas[a]]),
    ["fox", t("clever.sheet.fox_points", { n: sh.foxes }), sh.foxPoints],
  ];
  const bw = 76;
  const kids: Kid[] = [];
  parts.forEach(([cls, label, value], i) => {
    const x = 6 + i * (bw + 12);
    kids.push(s("g", { class: `score-box score-${cls}`, "data-score": cls }, s("rect", { x, y, width: bw, height: 40, rx: 8 }), text(x + bw / 2, y + 25, formatNumber(value), "score-num", 17), text(x + bw / 2, y + 9, label, "score-label", 9)));
    if (i < parts.length - 1) kids.push(text(x + bw + 6, y + 22, "+", "op", 14));
  });
  const x = 6 + parts.length * (bw + 12);
  kids.push(text(x - 6, y + 22, "=", "op", 14), s("g", { class: "score-box score-total", "data-score": "total" }, s("rect", { x, y, width: W - x - 4, height: 40, rx: 8 }), text(x + (W - x - 4) / 2, y + 22, formatNumber(sh.total), "score-num total", 20)));
  return s("g", { class: "score-line", "data-testid": "score-line" }, kids);
}

/** The whole sheet of one player. */
export function drawSheet(l: Layout, sh: SheetModel, o: SheetOptions): VNode {
  const H = 690;
  return s(
    "svg",
    { viewBox: `0 0 ${W} ${H}`, class: o.targets.size ? "clever-sheet choosing" : "clever-sheet", role: "group", "aria-label": o.label, "data-seat": o.seat },
    roundTrack(l, o, 4),
    s("g", { class: "foxes", "data-testid": "foxes" }, foxHead(W - 64, 24, 30), text(W - 30, 24, `×${sh.foxes}`, "fox-count", 18)),
    actionBar("reroll", sh.rerolls, l.action_circles, 4, 66),
    actionBar("plus_one", sh.plusOnes, l.action_circles, 330, 66),
    crossGrid("yellow", l, sh, o, 12, 116),
    crossGrid("blue", l, sh, o, 338, 116),
    track("green", l, sh, o, 384),
    track("orange", l, sh, o, 466),
    track("purple", l, sh, o, 548),
    scoreLine(sh, 636),
  );
}
