// The front door: the three games with a picture, what each is, players and length; one-click starts for the
// games with a board in the browser (the others honestly marked as coming); the open tables to join or watch.
import { saveToken, type SeatSpec } from "./api";
import { showCreated } from "./created";
import { h, navigate, toast } from "./dom";
import { apiErrorText } from "./errors";
import { t, type MessageId } from "./i18n";
import { askNameOnce } from "./me";
import { myName } from "./names";
import { cleverPicture, thousandPicture, wurfPicture } from "./pictures";
import { finishedGames } from "./finished-list";
import { createTable } from "./quota";
import { openTables } from "./tables-list";
import { yourGames } from "./your-games";
import { VIEWS } from "./views";

interface GameCard {
  name: string;
  picture: (label: string) => SVGSVGElement;
  blurb: MessageId;
  players: MessageId;
  length: MessageId;
  /** Has a one-player game (Clever's solo). */
  solo?: boolean;
}

const GAMES: GameCard[] = [
  { name: "thousand", picture: thousandPicture, blurb: "home.thousand.blurb", players: "home.thousand.players", length: "home.thousand.length" },
  { name: "clever", picture: (l) => cleverPicture(l), blurb: "home.clever.blurb", players: "home.clever.players", length: "home.clever.length", solo: true },
  { name: "wurf", picture: (l) => wurfPicture(l), blurb: "home.wurf.blurb", players: "home.wurf.players", length: "home.wurf.length" },
];

const TITLES: Record<string, MessageId> = { thousand: "game.thousand.title", clever: "game.clever.title", wurf: "game.wurf.title" };

type Start = "bot" | "hotseat" | "invite" | "solo" | "realdice";

/** Create a table in one click and go there (invite: show the link to send first). */
async function start(game: string, how: Start, button: HTMLButtonElement, result: HTMLElement): Promise<void> {
  await askNameOnce(); // the first table asks the player's name (once; it can be skipped)
  // Seats nobody named go without a name: the server keeps them language-neutral, each page words them.
  const seats: SeatSpec[] = [{ kind: "human", name: myName() || undefined, me: true }]; // mine: Your games, Resume
  if (how === "bot") seats.push({ kind: "bot", bot: "expert" });
  else if (how === "solo") {
    // one seat: the whole game is this player's
  } else seats.push({ kind: "human" });
  const here = how === "invite" ? new Set([0]) : new Set([0, 1]);
  const dice = how === "realdice" ? "real" : "rolled"; // the score pad: people at this screen throw real dice
  button.disabled = true;
  button.setAttribute("aria-busy", "true");
  const label = button.textContent;
  button.textContent = t("home.starting");
  try {
    const created = await createTable({ game, preset: null, overrides: {}, seats, dice });
    if (created === null) return; // the quota dialog was closed: nothing made
    for (const s of created.seats) if (s.token && here.has(s.seat)) saveToken(created.table_id, s.seat, s.token);
    if (how === "invite") showCreated(result, created, here);
    else navigate(`/table/${created.table_id}`);
  } catch (err) {
    toast(apiErrorText(err));
  } finally {
    button.disabled = false;
    button.removeAttribute("aria-busy");
    button.textContent = label;
  }
}

export function renderHome(app: HTMLElement): () => void {
  const result = h("div", { class: "card created", hidden: true, "data-testid": "created" });
  const cards = GAMES.map((g) => {
    const title = t(TITLES[g.name]);
    const playable = g.name in VIEWS;
    const actions = h("div", { class: "game-actions" });
    if (playable) {
      const btn = (how: Start, id: MessageId, primary = false): HTMLButtonElement => {
        const b = h("button", { type: "button", class: primary ? "btn primary" : "btn", "data-start": `${g.name}-${how}` }, t(id));
        b.addEventListener("click", () => void start(g.name, how, b, result));
        return b;
      };
      actions.append(
        btn("bot", "home.start.bot", true),
        ...(g.solo ? [btn("solo", "home.start.solo")] : []),
        btn("hotseat", "home.start.hotseat"),
        btn("invite", "home.start.invite"),
        btn("realdice", "home.start.realdice"),
        h("a", { class: "btn ghost", href: `/new?game=${g.name}`, "data-link": true }, t("home.start.custom")),
      );
    } else {
      actions.append(h("span", { class: "badge coming" }, t("home.coming")), h("span", { class: "muted small" }, t("home.coming_cli", { game: g.name })));
    }
    return h(
      "article",
      { class: "card game-card", "data-game": g.name },
      h("div", { class: "game-pic" }, g.picture(t("home.picture_of", { game: title }))),
      h("h2", null, title),
      h("p", null, t(g.blurb)),
      h("p", { class: "game-meta muted small" }, t(g.players), " · ", t(g.length)),
      actions,
      h(
        "p",
        { class: "small" },
        h("a", { href: `/rules?game=${g.name}`, "data-link": true, "data-howto": g.name }, t("home.how_to_play")),
        playable ? [" · ", h("a", { href: `/leaderboard/${g.name}`, "data-link": true, "data-board": g.name }, t("home.leaderboard"))] : null,
        g.name === "thousand" || g.name === "clever" ? [" · ", h("a", { href: `/puzzles/${g.name}`, "data-link": true, "data-puzzles": g.name }, t("puzzle.page.link"))] : null,
        g.name === "thousand" || g.name === "clever" ? [" · ", h("a", { href: `/strategy/${g.name}`, "data-link": true, "data-strategy": g.name }, t("strategy.page.link"))] : null,
      ),
    );
  });
  const yoursBox = h("section", { class: "card your-games", id: "your-games" }); // the quota dialog links here
  const tablesBox = h("div", { class: "table-list" });
  const finishedBox = h("div", { class: "table-list" });
  app.append(
    h(
      "section",
      { class: "home" },
      h("header", { class: "hero" }, h("h1", null, t("home.title")), h("p", null, t("home.intro"))),
      yoursBox,
      h("div", { class: "game-grid" }, cards),
      result,
      h("section", { class: "card" }, h("h2", null, t("tables.title")), tablesBox),
      h("section", { class: "card" }, h("h2", null, t("finished.title")), finishedBox),
    ),
  );
  const stopYours = yourGames(yoursBox);
  // strangers' tables with a free seat: this player's own are in Your games
  const stopOpen = openTables(tablesBox, () => Object.keys(VIEWS), t("tables.none_home"), undefined, true);
  const stopFinished = finishedGames(finishedBox, Object.keys(VIEWS));
  return () => {
    stopYours();
    stopOpen();
    stopFinished();
  };
}
