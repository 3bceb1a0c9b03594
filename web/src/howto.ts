// How to play, for each game, in our own concise words with pictures: the scoring table of Dice 1000 (drawn
// with dice), the areas of the Clever sheet, the Wurf arena.
import { die } from "./dice";
import { h } from "./dom";
import { formatNumber, t, type MessageId } from "./i18n";
import { cleverAreaPicture, cleverChainPicture, cleverPicture, cleverTurnPicture, wurfPicture } from "./pictures";
import { VIEWS } from "./views";

const TEXT: Record<string, MessageId[]> = {
  thousand: [
    "howto.thousand.goal",
    "howto.thousand.turn",
    "howto.thousand.bank",
    "howto.thousand.zero",
    "howto.thousand.hot",
    "howto.thousand.opening",
    "howto.thousand.pits",
    "howto.thousand.overtake",
    "howto.thousand.dump",
    "howto.thousand.bolts",
    "howto.thousand.barrel",
  ],
  clever: ["howto.clever.goal", "howto.clever.active", "howto.clever.platter", "howto.clever.passive", "howto.clever.end"],
  wurf: ["howto.wurf.goal", "howto.wurf.setup", "howto.wurf.turn", "howto.wurf.x", "howto.wurf.gather", "howto.wurf.out", "howto.wurf.master", "howto.wurf.end"],
};

const TITLES: Record<string, MessageId> = { thousand: "game.thousand.title", clever: "game.clever.title", wurf: "game.wurf.title" };

/** The scoring table: singles, three/four/five of a kind, straights — each row drawn with dice. */
function scoringTable(): HTMLElement {
  const dice = (faces: number[]): HTMLElement => h("span", { class: "mini-dice" }, faces.map((f) => die(f, { scoring: f === 1 || f === 5 })));
  const kinds: [number, number, number, number][] = [
    [1, 100, 200, 1000],
    [2, 20, 40, 200],
    [3, 30, 60, 300],
    [4, 40, 80, 400],
    [5, 50, 100, 500],
    [6, 60, 120, 600],
  ];
  const pts = (n: number): HTMLElement => h("td", { class: "num" }, formatNumber(n));
  return h(
    "div",
    { class: "scoring" },
    h("h3", null, t("howto.thousand.scoring_title")),
    h(
      "table",
      { class: "scoring-table", "data-testid": "scoring-table" },
      h("thead", null, h("tr", null, h("th", { scope: "col" }, t("howto.thousand.col_face")), h("th", { scope: "col", class: "num" }, "×3"), h("th", { scope: "col", class: "num" }, "×4"), h("th", { scope: "col", class: "num" }, "×5"))),
      h("tbody", null, kinds.map(([face, three, four, five]) => h("tr", null, h("th", { scope: "row" }, dice([face])), pts(three), pts(four), pts(five)))),
    ),
    h(
      "table",
      { class: "scoring-table" },
      h(
        "tbody",
        null,
        h("tr", null, h("th", { scope: "row" }, dice([1])), h("td", null, t("howto.thousand.single")), pts(10)),
        h("tr", null, h("th", { scope: "row" }, dice([5])), h("td", null, t("howto.thousand.single")), pts(5)),
        h("tr", null, h("th", { scope: "row" }, dice([1, 2, 3, 4, 5])), h("td", null, t("howto.thousand.small_straight")), pts(125)),
        h("tr", null, h("th", { scope: "row" }, dice([2, 3, 4, 5, 6])), h("td", null, t("howto.thousand.big_straight")), pts(250)),
      ),
    ),
    h("p", { class: "muted small" }, t("howto.thousand.scoring_note")),
  );
}

function picture(game: string): HTMLElement {
  if (game === "thousand") return scoringTable();
  if (game === "clever")
    return h(
      "figure",
      { class: "howto-pic" },
      cleverPicture(t("howto.clever.picture"), {
        yellow: t("howto.clever.area.yellow"),
        blue: t("howto.clever.area.blue"),
        green: t("howto.clever.area.green"),
        orange: t("howto.clever.area.orange"),
        purple: t("howto.clever.area.purple"),
        track: t("howto.clever.area.track"),
      }),
      h("figcaption", { class: "muted small" }, t("howto.clever.picture")),
    );
  return h(
    "figure",
    { class: "howto-pic" },
    wurfPicture(t("howto.wurf.picture"), { arena: t("howto.wurf.part.arena"), mat: t("howto.wurf.part.mat"), x: t("howto.wurf.part.x"), out: t("howto.wurf.part.out") }),
    h("figcaption", { class: "muted small" }, t("howto.wurf.picture")),
  );
}

const AREAS = [
  ["yellow", "howto.clever.yellow"],
  ["blue", "howto.clever.blue"],
  ["green", "howto.clever.green"],
  ["orange", "howto.clever.orange"],
  ["purple", "howto.clever.purple"],
] as const;

/** Clever beyond the basics: a worked turn, each area with a picture of what goes in it, and the bonuses. */
function cleverMore(): HTMLElement[] {
  const turn = h(
    "section",
    { class: "howto-section", "data-testid": "howto-example" },
    h("h2", null, t("howto.clever.h.example")),
    h(
      "div",
      { class: "howto-body" },
      h("ol", { class: "howto-steps" }, (["howto.clever.example1", "howto.clever.example2", "howto.clever.example3", "howto.clever.example4"] as const).map((id) => h("li", null, t(id)))),
      h(
        "figure",
        { class: "howto-pic" },
        cleverTurnPicture(t("howto.clever.example.picture"), { roll: (n) => t("howto.clever.example.roll", { n }), platter: t("howto.clever.example.platter") }),
        h("figcaption", { class: "muted small" }, t("howto.clever.example.picture")),
      ),
    ),
  );
  const areas = h(
    "section",
    { class: "howto-section", "data-testid": "howto-areas" },
    h("h2", null, t("howto.clever.h.areas")),
    AREAS.map(([a, words]) => h("div", { class: `howto-area area-${a}`, "data-area": a }, h("div", { class: "howto-area-pic" }, cleverAreaPicture(a, t(`howto.clever.area.${a}`))), h("p", null, t(words)))),
  );
  const bonus = h(
    "section",
    { class: "howto-section", "data-testid": "howto-bonus" },
    h("h2", null, t("howto.clever.h.bonus")),
    (["howto.clever.bonus_intro", "howto.clever.plus1", "howto.clever.reroll", "howto.clever.fox", "howto.clever.chain"] as const).map((id) => h("p", null, t(id))),
    h("figure", { class: "howto-pic howto-chain" }, cleverChainPicture(t("howto.clever.chain_picture")), h("figcaption", { class: "muted small" }, t("howto.clever.chain_picture"))),
  );
  return [turn, areas, bonus];
}

export function renderHowTo(app: HTMLElement, wanted: string): void {
  const game = wanted in TEXT ? wanted : "thousand";
  const tabs = h(
    "nav",
    { class: "tabs", "aria-label": t("howto.games") },
    Object.keys(TEXT).map((g) => h("a", { href: `/rules?game=${g}`, "data-link": true, class: g === game ? "tab active" : "tab", "aria-current": g === game ? "page" : null }, t(TITLES[g]))),
  );
  const play = game in VIEWS ? h("p", null, h("a", { class: "btn primary", href: "/", "data-link": true }, t("howto.play_now"))) : h("p", { class: "muted" }, t("home.coming_cli", { game }));
  app.append(
    h(
      "section",
      { class: "howto card", "data-testid": "howto", "data-game": game },
      tabs,
      h("h1", null, t("howto.title", { game: t(TITLES[game]) })),
      h("div", { class: "howto-body" }, h("div", { class: "howto-text" }, TEXT[game].map((id) => h("p", null, t(id)))), picture(game)),
      game === "clever" ? cleverMore() : null,
      game === "thousand" ? h("p", null, h("a", { href: "/puzzles/thousand", "data-link": true, "data-testid": "howto-puzzles" }, t("puzzle.page.practise"))) : null,
      game === "clever" ? h("p", null, h("a", { href: "/puzzles/clever", "data-link": true, "data-testid": "howto-puzzles" }, t("puzzle.clever.page.practise"))) : null,
      game === "thousand" ? h("p", null, h("a", { href: "/strategy/thousand", "data-link": true, "data-testid": "howto-strategy" }, t("strategy.page.learn"))) : null,
      game === "clever" ? h("p", null, h("a", { href: "/strategy/clever", "data-link": true, "data-testid": "howto-strategy" }, t("strategy.clever.page.learn"))) : null,
      play,
    ),
  );
}
