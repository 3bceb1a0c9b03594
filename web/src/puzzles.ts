// "/puzzles/thousand": Dice 1000 puzzles, as lichess's. One position from a real game drawn as at the table (both
// scores with pits, barrel and bolts, the turn total, the last roll and the dice set aside), the question "Bank or
// roll?" (buttons, keys B and R), then the server's verdict: every option's chance to win (the hint panel's look),
// whether the choice was best, why, and the puzzle rating and streak. N or "Next puzzle" draws the next one near
// the player's rating; the theme filter keeps to one theme. The server checks every answer (docs/puzzles.md).
import { api, ApiError, type PuzzlePosition, type PuzzleVerdict } from "./api";
import { die } from "./dice";
import { append, clear, h } from "./dom";
import { apiErrorText, engineText } from "./errors";
import { formatNumber, t, tKey } from "./i18n";
import { read, statusBadges, type ThousandModel } from "./views/thousand";

const THEMES = ["opening", "pit escape", "barrel", "bolts", "hot dice", "bank or roll"];

export const themeName = (theme: string): string => tKey(`puzzle.theme.${theme.replace(/ /g, "_")}`, theme);
const pct = (v: number): string => `${formatNumber(Math.round(v * 10) / 10)} %`;
const signed = (n: number): string => (n > 0 ? `+${formatNumber(n)}` : n < 0 ? `−${formatNumber(-n)}` : formatNumber(0));

/** A move in words, as the hint panel says it ("Say “enough” and bank 320", "Roll 2 dice"). */
function moveWords(move: string, m: ThousandModel): string {
  return move === "bank" ? t("thousand.move.bank", { total: m.turnTotal }) : t("thousand.move.roll", { n: m.diceInHand });
}

/** Which dice of the roll scored (each scoring face once per occurrence). */
function scoring(roll: number[], scored: number[]): boolean[] {
  const left = [...scored];
  return roll.map((d) => {
    const i = left.indexOf(d);
    if (i >= 0) left.splice(i, 1);
    return i >= 0;
  });
}

function ratingText(r: { rating: number; provisional: boolean }): string {
  return `${r.rating}${r.provisional ? "?" : ""}`; // ratings read whole, as at chess: 1674, not 1,674
}

export function renderPuzzles(app: HTMLElement, game: string, linked: string | null = null): () => void {
  const theme = new URLSearchParams(location.search).get("theme") ?? "";
  const select = h("select", { id: "puzzle-theme", "data-testid": "puzzle-theme" }, h("option", { value: "" }, t("puzzle.page.all_themes")), THEMES.map((th) => h("option", { value: th, selected: th === theme }, themeName(th))));
  const rating = h("p", { class: "puzzle-rating", "data-testid": "puzzle-rating" });
  const board = h("div", { class: "puzzle-board", "data-testid": "puzzle-board" }, h("p", { class: "muted" }, t("puzzle.page.loading")));
  const bankBtn = h("button", { type: "button", class: "btn primary big", "data-testid": "puzzle-bank", "aria-keyshortcuts": "B", disabled: true }, t("thousand.bank"), h("kbd", { class: "key" }, "B"));
  const rollBtn = h("button", { type: "button", class: "btn primary big", "data-testid": "puzzle-roll", "aria-keyshortcuts": "R", disabled: true }, t("thousand.roll"), h("kbd", { class: "key" }, "R"));
  const nextBtn = h("button", { type: "button", class: "btn big", "data-testid": "puzzle-next", "aria-keyshortcuts": "N", hidden: true }, t("puzzle.page.next"), h("kbd", { class: "key" }, "N"));
  const question = h("h2", { id: "puzzle-question", class: "puzzle-question" }, t("puzzle.page.question"));
  const verdict = h("div", { class: "puzzle-verdict", "data-testid": "puzzle-verdict", "aria-live": "polite" });
  app.append(
    h(
      "section",
      { class: "card puzzle-page", "data-testid": "puzzle-page", "data-game": game },
      h(
        "div",
        { class: "puzzle-head" },
        h("h1", null, t("puzzle.page.title")),
        h("label", { class: "puzzle-filter", for: "puzzle-theme" }, t("puzzle.page.theme_label"), " ", select),
        rating,
      ),
      board,
      h("div", { class: "puzzle-ask", role: "group", "aria-labelledby": "puzzle-question" }, question, h("div", { class: "controls" }, bankBtn, rollBtn, nextBtn)),
      verdict,
      h("p", { class: "muted small puzzle-keys" }, t("puzzle.page.keys")),
    ),
  );

  let alive = true;
  let current: PuzzlePosition | null = null;
  let model: ThousandModel | null = null;
  let answered = false;
  let busy = false;

  const showRating = (r: PuzzlePosition["rating"], delta?: number, rated = true): void => {
    clear(rating);
    append(rating, [
      t("puzzle.page.rating", { rating: ratingText(r) }),
      delta !== undefined && rated ? h("span", { class: delta >= 0 ? "delta up" : "delta down", "data-testid": "puzzle-delta" }, ` (${signed(delta)})`) : null,
      " · ",
      h("span", { "data-testid": "puzzle-streak" }, t("puzzle.page.streak", { streak: r.streak })),
    ]);
  };

  const drawPosition = (p: PuzzlePosition): void => {
    clear(board);
    if (!p.view || p.mover === undefined) return;
    const m = (model = read(p.view));
    const rules = p.rules ?? {};
    const row = (seat: number, who: string): HTMLElement => {
      const pl = m.players[seat];
      return h("tr", { class: seat === p.mover ? "to-move" : "", "data-seat": seat === p.mover ? "you" : "opponent" }, h("th", { scope: "row" }, who), h("td", { class: "score" }, formatNumber(pl.score)), h("td", null, statusBadges(pl, m, rules)));
    };
    const mask = scoring(m.roll, m.rollScoring);
    append(board, [
      h("p", { class: "puzzle-theme", "data-testid": "puzzle-theme-name" }, t("puzzle.page.theme", { theme: themeName(p.theme ?? "") })),
      h("table", { class: "scoreboard puzzle-scores", "data-testid": "puzzle-scores" }, h("caption", { class: "sr-only" }, t("puzzle.page.scores")), h("tbody", null, row(p.mover, t("puzzle.page.you")), row(1 - p.mover, t("puzzle.page.opponent")))),
      h(
        "div",
        { class: "felt" },
        h("div", { class: "felt-row" }, h("span", { class: "label" }, t("puzzle.page.last_roll")), h("div", { class: "dice-tray", role: "group", "aria-label": t("puzzle.page.last_roll"), "data-testid": "puzzle-roll-dice" }, m.roll.map((d, i) => die(d, { scoring: mask[i] })))),
        h("div", { class: "aside-row" }, h("span", { class: "label" }, t("thousand.set_aside")), h("div", { class: "dice-aside", role: "group", "aria-label": t("thousand.set_aside"), "data-testid": "puzzle-aside" }, m.setAside.map((d) => die(d, { setAside: true })))),
        h("p", { class: "turn-total", "data-testid": "puzzle-turn" }, t("puzzle.page.turn", { total: m.turnTotal, dice: m.diceInHand })),
      ),
    ]);
    bankBtn.title = moveWords("bank", m);
    rollBtn.title = moveWords("roll", m);
  };

  /** The address names the puzzle on screen: a reload or a shared link opens the same one. */
  const address = (id: string | null): void => {
    const query = select.value ? `?theme=${encodeURIComponent(select.value)}` : "";
    history.replaceState(null, "", `/puzzles/${game}${id ? `/${encodeURIComponent(id)}` : ""}${query}`);
  };

  const load = async (id: string | null = null): Promise<void> => {
    busy = true;
    answered = false;
    clear(verdict);
    nextBtn.hidden = true;
    bankBtn.disabled = rollBtn.disabled = true;
    try {
      const p = id ? await api.puzzle(id) : await api.nextPuzzle(select.value);
      if (!alive) return;
      current = p;
      showRating(p.rating);
      address(p.id);
      if (p.id === null) {
        clear(board);
        board.append(h("p", { class: "muted", "data-testid": "puzzle-none" }, t("puzzle.page.none_left")));
        return;
      }
      drawPosition(p);
      bankBtn.disabled = rollBtn.disabled = false;
    } catch (err) {
      if (!alive) return;
      clear(board);
      board.append(h("p", { class: "error", role: "alert" }, apiErrorText(err)));
      answered = true; // (nothing to answer here: N or "Next puzzle" draws one)
      nextBtn.hidden = false;
    } finally {
      busy = false;
    }
  };

  const showVerdict = (v: PuzzleVerdict): void => {
    if (!model) return;
    const m = model;
    clear(verdict);
    const best = moveWords(v.best, m);
    append(verdict, [
      h("p", { class: v.correct ? "verdict right" : "verdict wrong", "data-testid": "puzzle-result", "data-correct": String(v.correct) }, v.correct ? t("puzzle.page.right", { move: best }) : t("puzzle.page.wrong", { move: best })),
      h(
        "div",
        { class: "hints" },
        h(
          "ol",
          { class: "hint-list", "data-testid": "puzzle-values" },
          v.options.map((o) =>
            h(
              "li",
              { class: o.best ? "best" : "", "data-move": o.move },
              h("span", { class: "hint-move" }, moveWords(o.move, m)),
              " ",
              h("b", null, pct(o.value)),
              " ",
              o.best ? h("span", { class: "badge seat" }, t("hint.best")) : h("span", { class: "muted" }, `−${formatNumber(Math.round(o.loss * 10) / 10)}`),
              o.move === v.choice ? [" ", h("span", { class: "badge" }, t("puzzle.page.your_choice"))] : null,
            ),
          ),
        ),
        h("p", { class: "muted small" }, t("hint.unit_win")),
      ),
      h("p", { class: "puzzle-why", "data-testid": "puzzle-why" }, engineText(v.why, "")),
      h("p", { class: "muted small" }, t("puzzle.page.puzzle_rating", { rating: String(v.puzzle_rating) }), v.rated ? null : [" · ", h("span", { "data-testid": "puzzle-not-rated" }, t("puzzle.page.not_rated"))]),
    ]);
    showRating(v.rating, v.rating.delta, v.rated);
    nextBtn.hidden = false;
    nextBtn.focus();
  };

  const choose = async (choice: "bank" | "roll"): Promise<void> => {
    if (busy || answered || !current?.id) return;
    busy = true;
    bankBtn.disabled = rollBtn.disabled = true;
    try {
      const v = await api.answerPuzzle(current.id, choice);
      if (!alive) return;
      answered = true;
      showVerdict(v);
    } catch (err) {
      if (!alive) return;
      bankBtn.disabled = rollBtn.disabled = false;
      const said = err instanceof ApiError && err.problem?.msgid ? engineText({ id: err.problem.msgid, params: err.problem.params ?? {} }, err.detail) : apiErrorText(err);
      clear(verdict);
      verdict.append(h("p", { class: "error", role: "alert" }, said));
    } finally {
      busy = false;
    }
  };

  bankBtn.addEventListener("click", () => void choose("bank"));
  rollBtn.addEventListener("click", () => void choose("roll"));
  nextBtn.addEventListener("click", () => void load());
  select.addEventListener("change", () => void load());
  const onKey = (e: KeyboardEvent): void => {
    if (e.ctrlKey || e.metaKey || e.altKey) return;
    const target = e.target as HTMLElement | null;
    if (target && ["INPUT", "SELECT", "TEXTAREA"].includes(target.tagName)) return;
    const key = e.key.toLowerCase();
    if (key === "b" && !answered) void choose("bank");
    else if (key === "r" && !answered) void choose("roll");
    else if (key === "n" && answered && !busy) void load();
    else return;
    e.preventDefault();
  };
  document.addEventListener("keydown", onKey);
  void load(linked);
  return () => {
    alive = false;
    document.removeEventListener("keydown", onKey);
  };
}
