// The strategy page's map, drawn in SVG by hand as analysis-chart.ts: own score (rows) × opponent's score
// (columns), a number in every cell (colour is never the only signal), pit rows and the barrel framed. The SVG is an
// ARIA grid: one cell is in the tab order, the arrow keys (Home/End, PageUp/PageDown) move between cells, and
// hovering, focusing or tapping a cell calls `show` with its row and column.
import { formatNumber } from "./i18n";

const NS = "http://www.w3.org/2000/svg";
const CW = 34;
const CH = 24;
const LEFT = 44;
const TOP = 22;

function el<K extends keyof SVGElementTagNameMap>(tag: K, attrs: Record<string, string | number>, text?: string): SVGElementTagNameMap[K] {
  const node = document.createElementNS(NS, tag);
  for (const [k, v] of Object.entries(attrs)) node.setAttribute(k, String(v));
  if (text !== undefined) node.textContent = text;
  return node;
}

type Rgb = [number, number, number];
const mix = (a: Rgb, b: Rgb, f: number): Rgb => [0, 1, 2].map((i) => Math.round(a[i] + (b[i] - a[i]) * f)) as Rgb;

/** A colour along `stops` for `f` in [0, 1]. */
export function ramp(stops: Rgb[], f: number): Rgb {
  const x = Math.min(1, Math.max(0, f)) * (stops.length - 1);
  const i = Math.min(stops.length - 2, Math.floor(x));
  return mix(stops[i], stops[i + 1], x - i);
}

/** Dark text on light cells, white on dark ones (WCAG relative luminance). */
function inkOn([r, g, b]: Rgb): string {
  const lin = (c: number): number => ((c /= 255) <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4);
  const l = 0.2126 * lin(r) + 0.7152 * lin(g) + 0.0722 * lin(b);
  return l > 0.18 ? "#1d232a" : "#ffffff";
}

export const WIN_STOPS: Rgb[] = [[247, 251, 255], [158, 202, 225], [49, 130, 189], [8, 48, 107]];
export const BANK_STOPS: Rgb[] = [[255, 245, 235], [253, 174, 107], [217, 72, 1], [127, 39, 4]];
export const css = ([r, g, b]: Rgb): string => `rgb(${r},${g},${b})`;

export interface MapSpec {
  scores: number[];
  /** The text and colour of cell (own index, opponent index). */
  cell: (i: number, j: number) => { text: string; fill: Rgb };
  /** Short words for a cell's accessible name. */
  label: (i: number, j: number) => string;
  pits: number[][];
  barrel: number | null;
  name: string;
}

export class StrategyMap {
  readonly svg: SVGSVGElement;
  private cells: SVGGElement[][] = [];
  private at: [number, number] = [0, 0];

  constructor(
    private readonly spec: MapSpec,
    private readonly show: (i: number, j: number) => void,
  ) {
    const n = spec.scores.length;
    const W = LEFT + n * CW + 2;
    const H = TOP + n * CH + 2;
    this.svg = el("svg", { viewBox: `0 0 ${W} ${H}`, width: W, height: H, class: "strategy-map", role: "grid", "aria-label": spec.name, "data-testid": "strategy-map" });
    const head = el("g", { role: "row" });
    head.append(el("text", { x: 2, y: TOP - 7, class: "axis corner", role: "columnheader" }, "↓ →"));
    spec.scores.forEach((s, j) => head.append(el("text", { x: LEFT + j * CW + CW / 2, y: TOP - 7, class: "axis", role: "columnheader", "text-anchor": "middle" }, formatNumber(s))));
    this.svg.append(head);
    spec.scores.forEach((own, i) => {
      const row = el("g", { role: "row" });
      row.append(el("text", { x: LEFT - 5, y: TOP + i * CH + CH / 2 + 4, class: "axis", role: "rowheader", "text-anchor": "end" }, formatNumber(own)));
      const line: SVGGElement[] = [];
      spec.scores.forEach((_, j) => {
        const { text, fill } = spec.cell(i, j);
        const g = el("g", { role: "gridcell", tabindex: -1, class: "cell", "data-own": spec.scores[i], "data-opp": spec.scores[j], "aria-label": spec.label(i, j) });
        g.append(
          el("rect", { x: LEFT + j * CW, y: TOP + i * CH, width: CW - 1, height: CH - 1, fill: css(fill) }),
          el("text", { x: LEFT + j * CW + CW / 2, y: TOP + i * CH + CH / 2 + 4, "text-anchor": "middle", fill: inkOn(fill), "aria-hidden": "true" }, text),
        );
        g.addEventListener("focus", () => {
          this.at = [i, j];
          this.show(i, j);
        });
        g.addEventListener("click", () => this.focus(i, j));
        line.push(g);
        row.append(g);
      });
      this.cells.push(line);
      this.svg.append(row);
    });
    this.frames(n);
    this.svg.addEventListener("keydown", (e) => this.key(e));
    let last = "";
    let shown: SVGGElement | null = null;
    this.svg.addEventListener("mousemove", (e) => {
      // only a pointer that moved: content scrolled under a resting pointer (the keyboard moving the focus) does not
      // take the words away from the focused cell
      const at = `${e.clientX},${e.clientY}`;
      const cell = (e.target as Element).closest(".cell") as SVGGElement | null;
      if (at === last || !cell || cell === shown) return;
      last = at;
      shown = cell;
      const i = this.spec.scores.indexOf(Number(cell.dataset.own));
      const j = this.spec.scores.indexOf(Number(cell.dataset.opp));
      this.show(i, j);
    });
    this.cells[0][0].setAttribute("tabindex", "0");
  }

  /** Frames drawn over the cells: pit rows (own score in a pit), the barrel's row and column. */
  private frames(n: number): void {
    const { scores, pits, barrel } = this.spec;
    for (const [lo, hi] of pits) {
      const rows = scores.map((s, i) => (s >= lo && s < hi ? i : -1)).filter((i) => i >= 0);
      if (rows.length) this.svg.append(el("rect", { x: LEFT - 1, y: TOP + rows[0] * CH - 1, width: n * CW + 1, height: rows.length * CH + 1, class: "frame pit", "aria-hidden": "true" }));
    }
    const b = barrel === null ? -1 : scores.indexOf(barrel);
    if (b >= 0) {
      this.svg.append(
        el("rect", { x: LEFT - 1, y: TOP + b * CH - 1, width: n * CW + 1, height: CH + 1, class: "frame barrel", "aria-hidden": "true" }),
        el("rect", { x: LEFT + b * CW - 1, y: TOP - 1, width: CW + 1, height: n * CH + 1, class: "frame barrel", "aria-hidden": "true" }),
      );
    }
  }

  focus(i: number, j: number): void {
    const [pi, pj] = this.at;
    this.cells[pi][pj].setAttribute("tabindex", "-1");
    this.at = [i, j];
    const c = this.cells[i][j];
    c.setAttribute("tabindex", "0");
    c.focus();
  }

  private key(e: KeyboardEvent): void {
    const n = this.spec.scores.length;
    let [i, j] = this.at;
    const moves: Record<string, () => void> = {
      ArrowUp: () => (i = Math.max(0, i - 1)),
      ArrowDown: () => (i = Math.min(n - 1, i + 1)),
      ArrowLeft: () => (j = Math.max(0, j - 1)),
      ArrowRight: () => (j = Math.min(n - 1, j + 1)),
      Home: () => (j = 0),
      End: () => (j = n - 1),
      PageUp: () => (i = 0),
      PageDown: () => (i = n - 1),
    };
    const move = moves[e.key];
    if (!move) return;
    e.preventDefault();
    move();
    this.focus(i, j);
  }
}
