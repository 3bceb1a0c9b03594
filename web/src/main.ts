// A small router: "/" home, "/new?game=G" the table form, "/rules?game=G" how to play, "/table/:id" a table,
// "/table/:id/analysis" the analysis and replay of a finished game, "/player/:id" a player's profile (by public id),
// "/leaderboard/:game" a game's leaderboard, "/puzzles/thousand[/ID]" and "/puzzles/clever[/ID]" puzzles (one by its link),
// "/strategy/thousand" the solved strategy of Dice 1000, "/strategy/clever" where Clever's master bot's points come from.
// Links marked data-link navigate without reloading. The language switcher re-renders the page in place.
import "./style.css";
import { renderHome } from "./home";
import { renderAnalysis } from "./analysis";
import { renderHowTo } from "./howto";
import { LANGS, currentLanguage, initLanguage, languageName, setLanguage, t, type Lang } from "./i18n";
import { renderLobby } from "./lobby";
import { renderProfile } from "./profile";
import { renderPuzzles } from "./puzzles";
import { renderStrategy } from "./strategy";
import { renderCleverStrategy } from "./strategy-clever";
import { renderLeaderboard } from "./ratings";
import { renderTable } from "./table";
import { clear, h, navigate } from "./dom";
import { nameChip, setPageTitle, watchYourTurn } from "./me";
import { registerServiceWorker } from "./install";

type Cleanup = () => void;
let cleanup: Cleanup | null = null;

function route(): void {
  cleanup?.();
  cleanup = null;
  const app = document.getElementById("app") as HTMLElement;
  clear(app);
  const path = location.pathname.replace(/\/+$/, "") || "/";
  const game = new URLSearchParams(location.search).get("game") ?? "thousand";
  const table = /^\/table\/([A-Za-z0-9_-]+)$/.exec(path);
  const analysis = /^\/table\/([A-Za-z0-9_-]+)\/analysis$/.exec(path);
  const player = /^\/player\/([A-Za-z0-9_-]+)$/.exec(path);
  const board = /^\/leaderboard\/([a-z]+)$/.exec(path);
  const puzzles = /^\/puzzles\/(thousand|clever)(?:\/([A-Za-z0-9_-]+))?$/.exec(path);
  if (path === "/") cleanup = renderHome(app);
  else if (path === "/new") cleanup = renderLobby(app, game);
  else if (path === "/rules") renderHowTo(app, game);
  else if (table) cleanup = renderTable(app, table[1]);
  else if (analysis) cleanup = renderAnalysis(app, analysis[1]);
  else if (player) cleanup = renderProfile(app, player[1]);
  else if (board) cleanup = renderLeaderboard(app, board[1]);
  else if (puzzles) cleanup = renderPuzzles(app, puzzles[1], puzzles[2] ?? null);
  else if (path === "/strategy/thousand") cleanup = renderStrategy(app);
  else if (path === "/strategy/clever") cleanup = renderCleverStrategy(app);
  else {
    app.append(
      h("section", { class: "card" }, h("h1", null, t("page.not_found")), h("p", null, h("a", { href: "/", "data-link": true }, t("nav.back_home")))),
    );
  }
  setPageTitle(`${t("site.name")} — ${t("site.tagline")}`); // "(N) " first while it is your turn somewhere
  drawNav();
}

const nav = h("nav", { class: "topnav", "aria-label": "main" });
let chip: HTMLElement | null = null;
const langSel = h("select", { id: "lang", class: "lang-switch" });

function drawNav(): void {
  clear(nav);
  nav.setAttribute("aria-label", t("nav.label"));
  nav.append(
    h("a", { href: "/", "data-link": true }, t("nav.games")),
    h("a", { href: "/rules?game=thousand", "data-link": true }, t("nav.how_to_play")),
  );
  langSel.setAttribute("aria-label", t("nav.language"));
  langSel.title = t("nav.language");
  clear(langSel);
  for (const l of LANGS) langSel.append(h("option", { value: l, selected: l === currentLanguage(), lang: l }, languageName(l)));
  // the player's name, editable here (drawn again in the page's language after a switch)
  const fresh = nameChip();
  if (chip) chip.replaceWith(fresh);
  else langSel.before(fresh);
  chip = fresh;
}

langSel.addEventListener("change", () => {
  void setLanguage(langSel.value as Lang).then(route);
});
const topbar = document.querySelector(".topbar");
topbar?.insertBefore(nav, document.getElementById("status"));
topbar?.append(langSel);

document.addEventListener("click", (e) => {
  const a = (e.target as Element | null)?.closest?.("a[data-link]") as HTMLAnchorElement | null;
  if (!a || e.ctrlKey || e.metaKey || e.shiftKey || a.target) return;
  e.preventDefault();
  navigate(a.getAttribute("href") ?? "/");
});
window.addEventListener("popstate", route);
void initLanguage().then(() => {
  route();
  watchYourTurn();
});
registerServiceWorker();
