// The value chart of the Analysis page, drawn in SVG by hand (a few dozen nodes: a chart library would weigh more
// than the page). One line per seat over the game's events, the classified decisions as dots, the current step as
// a vertical line; a click picks the nearest event.
import type { AnalysisResult } from "./api";
import { formatNumber } from "./i18n";

const NS = "http://www.w3.org/2000/svg";
const W = 600;
const H = 200;
const LEFT = 40;
const RIGHT = 8;
const TOP = 8;
const BOTTOM = 8;

function el<K extends keyof SVGElementTagNameMap>(tag: K, attrs: Record<string, string | number>, text?: string): SVGElementTagNameMap[K] {
  const node = document.createElementNS(NS, tag);
  for (const [k, v] of Object.entries(attrs)) node.setAttribute(k, String(v));
  if (text !== undefined) node.textContent = text;
  return node;
}

/** Lower and upper bound of the y axis: 0–100 for win %, else the series' range widened to round numbers. */
function yRange(a: AnalysisResult): [number, number] {
  if (a.unit === "win%") return [0, 100];
  const all = a.series.flat();
  let lo = Math.min(...all);
  let hi = Math.max(...all);
  if (!Number.isFinite(lo) || !Number.isFinite(hi)) return [0, 1];
  if (hi - lo < 1) hi = lo + 1;
  const step = 10 ** Math.floor(Math.log10(hi - lo));
  lo = Math.floor(lo / step) * step;
  hi = Math.ceil(hi / step) * step;
  return [lo, hi];
}

export class ValueChart {
  readonly svg: SVGSVGElement;
  private readonly cursor: SVGLineElement;
  private readonly n: number;

  constructor(
    a: AnalysisResult,
    label: string,
    private readonly pick: (step: number) => void,
  ) {
    this.n = Math.max(1, a.series.length - 1);
    const [lo, hi] = yRange(a);
    const x = (k: number): number => LEFT + ((W - LEFT - RIGHT) * k) / this.n;
    const y = (v: number): number => TOP + ((H - TOP - BOTTOM) * (hi - v)) / (hi - lo);
    this.svg = el("svg", { viewBox: `0 0 ${W} ${H}`, class: "value-chart", role: "img", "aria-label": label, "data-testid": "chart" });
    const ticks = a.unit === "win%" ? [0, 25, 50, 75, 100] : [lo, (lo + hi) / 2, hi];
    for (const v of ticks) {
      this.svg.append(
        el("line", { x1: LEFT, x2: W - RIGHT, y1: y(v), y2: y(v), class: v === 50 && a.unit === "win%" ? "grid mid" : "grid" }),
        el("text", { x: LEFT - 4, y: y(v) + 4, class: "tick" }, a.unit === "win%" ? `${formatNumber(v)}%` : formatNumber(Math.round(v))),
      );
    }
    const seats = a.players.length;
    for (let seat = 0; seat < seats; seat++) {
      const points = a.series.map((row, k) => `${x(k).toFixed(1)},${y(row[seat] ?? lo).toFixed(1)}`).join(" ");
      this.svg.append(el("polyline", { points, class: `line seat-${seat % 4}`, "data-seat": seat }));
    }
    for (const s of a.steps) {
      if (s.kind !== "decision" || !s.class) continue;
      const v = a.series[s.n]?.[s.seat] ?? lo;
      this.svg.append(el("circle", { cx: x(s.n), cy: y(v), r: s.class === "blunder" ? 5 : 4, class: `mark ${s.class}`, "data-step": s.n }));
    }
    this.cursor = el("line", { x1: LEFT, x2: LEFT, y1: TOP, y2: H - BOTTOM, class: "cursor", "data-testid": "chart-cursor" });
    this.svg.append(this.cursor);
    this.svg.addEventListener("click", (e) => {
      const box = this.svg.getBoundingClientRect();
      if (box.width <= 0) return;
      const at = ((e.clientX - box.left) / box.width) * W;
      const k = Math.round(((at - LEFT) / (W - LEFT - RIGHT)) * this.n);
      this.pick(Math.min(this.n, Math.max(0, k)));
    });
  }

  /** Mark the current step. */
  show(step: number): void {
    const cx = LEFT + ((W - LEFT - RIGHT) * step) / this.n;
    this.cursor.setAttribute("x1", cx.toFixed(1));
    this.cursor.setAttribute("x2", cx.toFixed(1));
    this.cursor.dataset.step = String(step);
  }
}
