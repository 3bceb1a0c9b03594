// Ratings (docs/ratings.md): the leaderboard page "/leaderboard/:game", a profile's rating with its chart (an SVG and
// the same figures as a table), the rating change on the game-over card, why a table is not rated, and the
// new-table form's "Rated game" control.
import { api, type PlayerRating, type RatingChange } from "./api";
import { append, clear, h } from "./dom";
import { apiErrorText } from "./errors";
import { formatNumber, t, type MessageId } from "./i18n";
import { gameTitle } from "./names";
import "./ratings.css";

const NS = "http://www.w3.org/2000/svg";
const W = 600;
const H = 160;
const PAD = 60;

/** "1540", or "1540?" while provisional (as lichess marks it); the "?" is explained by the element's title. */
export function ratingText(rating: number, provisional: boolean): HTMLElement {
  return h(
    "span",
    { class: "rating", "data-rating": rating, ...(provisional ? { "data-provisional": "true", title: t("rating.provisional") } : {}) },
    String(rating), // a rating is a name-like number: 1540, never 1,540
    provisional ? h("abbr", { title: t("rating.provisional"), "aria-label": t("rating.provisional") }, "?") : "",
  );
}

/** The server's reasons for an unrated table (web/ratings.py REASONS). */
const WHY: Record<string, MessageId> = {
  real_dice: "rated.why.real_dice",
  alone: "rated.why.alone",
  no_person: "rated.why.no_person",
  hints: "rated.why.hints",
  hot_seat: "rated.why.hot_seat",
  two_seats: "rated.why.two_seats",
  unlinked: "rated.why.unlinked",
  chosen: "rated.why.chosen",
};

/** Why a table is not rated, in the players' words. */
export function unratedText(reason: string | null | undefined): string {
  return t(WHY[reason ?? "chosen"] ?? "rated.why.chosen");
}

const signed = (d: number): string => (d > 0 ? `+${d}` : d < 0 ? `−${-d}` : "±0");

/** The game-over card's line per rated player: "Ann 1512 → 1524? (+12)". */
export function ratingChanges(changes: RatingChange[], seatName: (seat: number) => string): HTMLElement {
  return h(
    "div",
    { class: "rating-changes", "data-testid": "rating-changes", "aria-live": "polite" },
    h("h3", null, t("rating.changes")),
    h(
      "ul",
      null,
      changes.map((c) =>
        h(
          "li",
          { "data-seat": c.seat, "data-delta": c.delta },
          h("span", null, seatName(c.seat)),
          " ",
          h("span", { class: "muted" }, String(c.before), " → "),
          ratingText(c.rating, c.provisional),
          " ",
          h("b", { class: c.delta > 0 ? "delta up" : c.delta < 0 ? "delta down" : "delta" }, `(${signed(c.delta)})`),
        ),
      ),
    ),
  );
}

function svg<K extends keyof SVGElementTagNameMap>(tag: K, attrs: Record<string, string | number>, text?: string): SVGElementTagNameMap[K] {
  const node = document.createElementNS(NS, tag);
  for (const [k, v] of Object.entries(attrs)) node.setAttribute(k, String(v));
  if (text !== undefined) node.textContent = text;
  return node;
}

const date = (at: number): string => new Date(at * 1000).toLocaleDateString(document.documentElement.lang || undefined, { dateStyle: "medium" });

/** The rating after each rated game, oldest left; a hollow mark while provisional (shape, not colour alone). */
function ratingChart(points: PlayerRating["points"], label: string): SVGSVGElement {
  const values = points.map((p) => p.rating);
  const lo = Math.floor((Math.min(...values) - 20) / 50) * 50;
  const hi = Math.ceil((Math.max(...values) + 20) / 50) * 50;
  const n = Math.max(1, points.length - 1);
  const x = (i: number): number => PAD + ((W - PAD - 8) * i) / n;
  const y = (v: number): number => 8 + ((H - 16) * (hi - v)) / (hi - lo);
  const chart = svg("svg", { viewBox: `0 0 ${W} ${H}`, class: "value-chart profile-chart rating-chart", role: "img", "aria-label": label });
  for (const v of [lo, (lo + hi) / 2, hi]) {
    chart.append(svg("line", { x1: PAD, x2: W - 8, y1: y(v), y2: y(v), class: "grid" }), svg("text", { x: PAD - 4, y: y(v) + 4, class: "tick" }, String(Math.round(v))));
  }
  chart.append(svg("polyline", { points: points.map((p, i) => `${x(i).toFixed(1)},${y(p.rating).toFixed(1)}`).join(" "), class: "line seat-0" }));
  points.forEach((p, i) => chart.append(svg("circle", { cx: x(i), cy: y(p.rating), r: 3.5, class: p.provisional ? "mark provisional" : "mark good" })));
  return chart;
}

/** A profile's ratings: each game's rating, a link to its leaderboard, and its chart with a table of the figures. */
export function ratingsSection(ratings: PlayerRating[]): HTMLElement | null {
  if (!ratings.length) return null;
  return h(
    "section",
    { class: "profile-ratings", "data-testid": "profile-ratings" },
    h("h2", null, t("rating.title")),
    ratings.map((r) => {
      const label = t("rating.chart", { game: gameTitle(r.game) });
      return h(
        "figure",
        { class: "profile-figure", "data-testid": `rating-${r.game}` },
        h(
          "figcaption",
          null,
          h("b", null, gameTitle(r.game)),
          ": ",
          ratingText(r.rating, r.provisional),
          " · ",
          t("rating.games", { n: r.games }),
          " · ",
          h("a", { href: `/leaderboard/${r.game}`, "data-link": true }, t("rating.board_link")),
        ),
        r.points.length > 1 ? ratingChart(r.points, label) : null,
        h(
          "details",
          null,
          h("summary", null, t("rating.chart_table")),
          h(
            "table",
            { class: "profile-table" },
            h("caption", { class: "sr-only" }, label),
            h("thead", null, h("tr", null, h("th", { scope: "col" }, t("profile.col.date")), h("th", { scope: "col" }, t("rating.col.rating")))),
            h(
              "tbody",
              null,
              r.points.map((p) => h("tr", null, h("td", null, date(p.at)), h("td", null, ratingText(p.rating, p.provisional)))),
            ),
          ),
        ),
      );
    }),
  );
}

const GAMES = ["thousand", "clever", "wurf"];

/** "/leaderboard/:game": the active, established players by rating; the reader's own line; the rules in words. */
export function renderLeaderboard(app: HTMLElement, game: string): () => void {
  const body = h("div", { "aria-live": "polite" }, h("p", { class: "muted" }, t("common.loading")));
  const tabs = h(
    "nav",
    { class: "board-tabs", "aria-label": t("board.games") },
    GAMES.map((g) => h("a", { class: g === game ? "btn primary" : "btn", href: `/leaderboard/${g}`, "data-link": true, ...(g === game ? { "aria-current": "page" } : {}) }, gameTitle(g))),
  );
  app.append(h("section", { class: "card leaderboard-page", "data-testid": "leaderboard" }, h("h1", null, t("board.title", { game: gameTitle(game) })), tabs, body));
  let alive = true;
  api
    .leaderboard(game)
    .then((b) => {
      if (!alive) return;
      clear(body);
      const me = b.me
        ? h(
            "p",
            { class: "board-me", "data-testid": "board-me" },
            t("board.you"),
            " ",
            ratingText(b.me.rating, b.me.provisional),
            " · ",
            b.me.rank
              ? t("board.your_rank", { rank: b.me.rank })
              : b.me.provisional
                ? t("board.you_provisional")
                : b.me.active
                  ? t("board.you_below")
                  : t("board.you_inactive", { days: b.active_days }),
          )
        : null;
      const rows = b.players.map((p) =>
        h(
          "tr",
          { "data-player": p.id },
          h("td", null, formatNumber(p.rank)),
          h("td", null, h("a", { href: `/player/${p.id}`, "data-link": true, translate: "no" }, p.name ? h("bdi", null, p.name) : t("profile.unnamed"))),
          h("td", null, ratingText(p.rating, p.provisional)),
          h("td", null, formatNumber(p.games)),
        ),
      );
      append(body, [
        me,
        b.players.length
          ? h(
              "table",
              { class: "profile-table board-table", "data-testid": "board-table" },
              h("caption", { class: "sr-only" }, t("board.title", { game: gameTitle(game) })),
              h("thead", null, h("tr", null, h("th", { scope: "col" }, "#"), h("th", { scope: "col" }, t("board.col.player")), h("th", { scope: "col" }, t("rating.col.rating")), h("th", { scope: "col" }, t("board.col.games")))),
              h("tbody", null, rows),
            )
          : h("p", { class: "muted", "data-testid": "board-empty" }, t("board.empty")),
        h("p", { class: "muted small" }, t("board.rules", { days: b.active_days })),
      ]);
    })
    .catch((err: unknown) => {
      if (!alive) return;
      clear(body);
      body.append(h("p", { class: "error", role: "alert" }, apiErrorText(err)));
    });
  return () => {
    alive = false;
  };
}

/** The new-table form's "Rated game" checkbox. A rated game has no hints: ticking it turns hints off, turning hints on
 * unticks it; until the player touches it, it follows the hints box (the form sets hints by who plays: off between
 * people, so rated). `follow(form)`: listen after the form's own handlers (seat changes bubble up to it). */
export function ratedOption(hintsBox: HTMLInputElement): { row: HTMLElement; value: () => boolean; follow: (form: HTMLElement) => void } {
  const box = h("input", { type: "checkbox", id: "rated-game", "data-testid": "rated-option", checked: !hintsBox.checked });
  let touched = false;
  box.addEventListener("change", () => {
    touched = true;
    if (box.checked && hintsBox.checked) {
      hintsBox.checked = false;
      hintsBox.dispatchEvent(new Event("change", { bubbles: true }));
    }
  });
  hintsBox.addEventListener("change", () => {
    if (hintsBox.checked && box.checked) box.checked = false;
  });
  const follow = (form: HTMLElement): void => {
    const sync = (e: Event): void => {
      if (!touched && e.target !== box) box.checked = !hintsBox.checked; // (a click on the box itself is the player's)
    };
    form.addEventListener("change", sync);
    form.addEventListener("click", sync);
  };
  const row = h(
    "div",
    { class: "rated-option" },
    h("div", { class: "row" }, box, h("label", { for: "rated-game" }, t("lobby.rated"))),
    h("p", { class: "muted small" }, t("lobby.rated_hint")),
  );
  return { row, value: () => box.checked, follow };
}
