// A player's profile, "/player/:id" (by public id: names are not unique): results per game, the analysed figures
// (mean loss per decision, luck; stored by the server's analyst after each game), a chart of the loss over time per
// game with the same figures as a table (its text alternative), and the last games with links to their analysis.
import { api, ApiError, type PlayerProfile, type PuzzleRating, type TableSeat } from "./api";
import { append, clear, h } from "./dom";
import { apiErrorText } from "./errors";
import { formatNumber, t, type MessageId } from "./i18n";
import { gameTitle, presetName, seatLabel } from "./names";
import { loadMe } from "./me";
import { notificationsCard } from "./notify";
import { ratingsSection } from "./ratings";

const NS = "http://www.w3.org/2000/svg";
const W = 600;
const H = 160;
const PAD = 52;
const RESULT: Record<string, MessageId> = { win: "profile.result.win", loss: "profile.result.loss", draw: "profile.result.draw" };

type Point = PlayerProfile["points"][number];

const fig = (v: number | null | undefined): string => (v === null || v === undefined ? "—" : formatNumber(Math.round(v * 100) / 100));
const mean = (xs: number[]): number | null => (xs.length ? xs.reduce((a, b) => a + b, 0) / xs.length : null);
const date = (at: number): string => new Date(at * 1000).toLocaleDateString(document.documentElement.lang || undefined, { dateStyle: "medium" });

function svg<K extends keyof SVGElementTagNameMap>(tag: K, attrs: Record<string, string | number>, text?: string): SVGElementTagNameMap[K] {
  const node = document.createElementNS(NS, tag);
  for (const [k, v] of Object.entries(attrs)) node.setAttribute(k, String(v));
  if (text !== undefined) node.textContent = text;
  return node;
}

/** `v` rounded up to one significant digit (an axis' top); 1 for nothing to show. */
function roundUp(v: number): number {
  if (!(v > 0)) return 1;
  const step = 10 ** Math.floor(Math.log10(v));
  return Math.ceil(v / step) * step;
}

/** The mean loss per decision of each analysed game, oldest left; lower is better. */
function lossChart(points: Point[], label: string): SVGSVGElement {
  const hi = roundUp(Math.max(...points.map((p) => p.accuracy)) * 1.1);
  const n = Math.max(1, points.length - 1);
  const x = (i: number): number => PAD + ((W - PAD - 8) * i) / n;
  const y = (v: number): number => 8 + ((H - 16) * (hi - v)) / hi;
  const chart = svg("svg", { viewBox: `0 0 ${W} ${H}`, class: "value-chart profile-chart", role: "img", "aria-label": label });
  for (const v of [0, hi / 2, hi]) {
    chart.append(svg("line", { x1: PAD, x2: W - 8, y1: y(v), y2: y(v), class: "grid" }), svg("text", { x: PAD - 4, y: y(v) + 4, class: "tick" }, fig(v)));
  }
  chart.append(svg("polyline", { points: points.map((p, i) => `${x(i).toFixed(1)},${y(p.accuracy).toFixed(1)}`).join(" "), class: "line seat-0" }));
  points.forEach((p, i) => chart.append(svg("circle", { cx: x(i), cy: y(p.accuracy), r: 3, class: "mark good" })));
  return chart;
}

function chartSection(game: string, points: Point[]): HTMLElement {
  const label = t("profile.chart", { game: gameTitle(game) });
  const rows = points.map((p) => h("tr", null, h("td", null, date(p.at)), h("td", null, fig(p.accuracy)), h("td", null, fig(p.luck))));
  return h(
    "figure",
    { class: "profile-figure", "data-testid": `profile-chart-${game}` },
    h("figcaption", null, label),
    lossChart(points, label),
    h(
      "details",
      null,
      h("summary", null, t("profile.chart_table")),
      h(
        "table",
        { class: "profile-table" },
        h("thead", null, h("tr", null, h("th", { scope: "col" }, t("profile.col.date")), h("th", { scope: "col" }, t("profile.col.loss")), h("th", { scope: "col" }, t("profile.col.luck")))),
        h("tbody", null, ...rows),
      ),
    ),
  );
}

function opponent(s: TableSeat): HTMLElement | string {
  const name = seatLabel(s);
  if (s.kind !== "human" || !s.player || s.deleted) return name;
  return h("a", { href: `/player/${s.player}`, "data-link": true, translate: "no" }, name);
}

function lastRow(g: PlayerProfile["last"][number]): HTMLElement {
  const outcome = g.result ? t(RESULT[g.result] ?? "profile.result.draw") : "";
  const vs = g.opponents.flatMap((s, i) => [i ? ", " : "", opponent(s)]);
  return h(
    "li",
    { class: "table-item", "data-table": g.table_id, "data-result": g.result ?? "" },
    h(
      "div",
      { class: "yg-info" },
      h(
        "div",
        null,
        outcome ? h("span", { class: `badge result ${g.result ?? ""}` }, outcome) : null,
        g.resigned ? h("span", { class: "badge" }, t("profile.resigned")) : null,
        h("b", null, gameTitle(g.game)),
        " ",
        h("span", { class: "muted" }, [g.preset ? presetName(g.game, g.preset) : "", date(g.at)].filter(Boolean).join(" · ")),
      ),
      h(
        "div",
        { class: "small" },
        vs.length ? [t("profile.vs"), " ", ...vs, " · "] : null,
        t("profile.score", { score: fig(g.score) }),
        " · ",
        g.accuracy === null ? h("span", { class: "muted" }, t(g.analysed ? "profile.no_figures" : "profile.pending")) : t("profile.loss_of_game", { loss: fig(g.accuracy), luck: fig(g.luck) }),
      ),
    ),
    h("div", { class: "table-actions" }, h("a", { class: "btn", href: g.analysis, "data-link": true, "data-analysis": g.table_id }, t("finished.analysis"))),
  );
}

function draw(body: HTMLElement, p: PlayerProfile): void {
  clear(body);
  const name = p.deleted ? t("seat.deleted") : p.name ? h("bdi", { translate: "no" }, p.name) : t("profile.unnamed");
  const byGame = new Map<string, Point[]>();
  for (const pt of p.points) byGame.set(pt.game, [...(byGame.get(pt.game) ?? []), pt]);
  const gameRows = p.games.map((g) => {
    const pts = byGame.get(g.game) ?? [];
    const luck = pts.map((x) => x.luck).filter((x): x is number => x !== null);
    return h(
      "tr",
      { "data-game": g.game },
      h("th", { scope: "row" }, gameTitle(g.game)),
      h("td", { "data-figure": "played" }, formatNumber(g.played)),
      h("td", { "data-figure": "wins" }, formatNumber(g.wins)),
      h("td", { "data-figure": "losses" }, formatNumber(g.losses)),
      h("td", { "data-figure": "draws" }, formatNumber(g.draws)),
      h("td", { "data-figure": "loss" }, fig(mean(pts.map((x) => x.accuracy)))),
      h("td", { "data-figure": "luck" }, fig(mean(luck))),
    );
  });
  const head = ["profile.col.game", "profile.col.played", "profile.col.wins", "profile.col.losses", "profile.col.draws", "profile.col.loss", "profile.col.luck"] as const;
  append(body, [
    h("h1", { class: "table-title", "data-testid": "profile-name" }, name),
    p.games.length
      ? h(
          "div",
          { class: "profile-scroll", tabindex: 0, role: "region", "aria-label": t("profile.games") }, // scrolls sideways on a phone
          h(
            "table",
            { class: "profile-table", "data-testid": "profile-games" },
            h("caption", null, t("profile.games")),
            h("thead", null, h("tr", null, ...head.map((id) => h("th", { scope: "col" }, t(id))))),
            h("tbody", null, ...gameRows),
          ),
        )
      : h("p", { class: "muted" }, t("profile.none")),
    ratingsSection(p.ratings ?? []),
    puzzleLine("thousand", p.puzzles, "profile-puzzles"),
    puzzleLine("clever", p.puzzles_clever, "profile-puzzles-clever"),
    p.points.length ? h("h2", null, t("profile.over_time")) : null,
    ...[...byGame].map(([game, pts]) => chartSection(game, pts)),
    p.last.length ? h("h2", null, t("profile.last")) : null,
    p.last.length ? h("ul", { class: "tables", "data-testid": "profile-last" }, ...p.last.map(lastRow)) : null,
  ]);
}

/** A game's puzzle rating and streak, a link to its puzzles (nothing before the first rated answer). */
function puzzleLine(game: "thousand" | "clever", r: PuzzleRating | null | undefined, testid: string): HTMLElement | null {
  if (!r) return null;
  const said = { rating: `${r.rating}${r.provisional ? "?" : ""}`, streak: r.streak, best: r.best_streak, solved: r.solved, tried: r.tried };
  return h("p", { "data-testid": testid }, h("a", { href: `/puzzles/${game}`, "data-link": true }, game === "clever" ? t("puzzle.clever.profile.line", said) : t("puzzle.profile.line", said)));
}

export function renderProfile(app: HTMLElement, playerId: string): () => void {
  const body = h("div", { "aria-live": "polite" }, h("p", { class: "muted" }, t("common.loading")));
  app.append(h("section", { class: "card profile-page", "data-testid": "profile" }, body));
  let alive = true;
  api
    .player(playerId)
    .then(async (p) => {
      if (!alive) return;
      draw(body, p);
      if ((await loadMe())?.id === p.id && alive) body.append(notificationsCard()); // one's own profile only
    })
    .catch((err: unknown) => {
      if (!alive) return;
      clear(body);
      const text = err instanceof ApiError && err.status === 404 ? t("profile.not_found") : apiErrorText(err);
      body.append(h("p", { class: "error", role: "alert" }, text), h("p", null, h("a", { href: "/", "data-link": true }, t("nav.back_home"))));
    });
  return () => {
    alive = false;
  };
}
