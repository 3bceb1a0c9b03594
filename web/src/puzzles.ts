// "/puzzles/GAME": puzzles, as lichess's. One position from a real game drawn as at the table by the game's board
// (puzzles-thousand.ts, puzzles-clever.ts), the question with a button for each choice (a key each: B and R, or
// digits; the arrows step between the buttons, Enter chooses), then the server's verdict: every option's value
// (the hint panel's look), whether the choice was best, why, and the puzzle rating and streak. N or "Next puzzle"
// draws the next one near the player's rating; the theme filter keeps to one theme. The server checks every
// answer (docs/puzzles.md).
import { api, ApiError, type PuzzlePosition, type PuzzleVerdict } from "./api";
import { append, clear, h } from "./dom";
import { apiErrorText, engineText } from "./errors";
import { formatNumber, t } from "./i18n";
import { cleverBoard } from "./puzzles-clever";
import { thousandBoard } from "./puzzles-thousand";

/** One choice of the question: the move sent to the server, its button's words and key. */
export interface Choice {
  move: string;
  label: string;
  /** The key that chooses it (shown on the button); null: the arrows and Enter reach it. */
  key: string | null;
  testid: string;
  title?: string;
}

/** A game's side of the page: how its position is drawn, its choices and its values in words. */
export interface PuzzleBoard {
  title: string;
  themes: string[];
  themeName: (theme: string) => string;
  keys: string;
  /** What the values are (the hint panel's unit line). */
  unit: string;
  value: (v: number) => string;
  /** A move in the words of the hint panel. */
  words: (move: string) => string;
  /** "big": a few short answers as large buttons (Bank, Roll); "list": a grid of worded choices. */
  choiceStyle: "big" | "list";
  /** Draw the position into `board`; the question and its choices. */
  draw: (p: PuzzlePosition, board: HTMLElement) => { question: string; choices: Choice[] };
  /** Called when the page is left. */
  destroy?: () => void;
}

export const BOARDS: Record<string, () => PuzzleBoard> = { thousand: thousandBoard, clever: cleverBoard };

const signed = (n: number): string => (n > 0 ? `+${formatNumber(n)}` : n < 0 ? `−${formatNumber(-n)}` : formatNumber(0));

function ratingText(r: { rating: number; provisional: boolean }): string {
  return `${r.rating}${r.provisional ? "?" : ""}`; // ratings read whole, as at chess: 1674, not 1,674
}

export function renderPuzzles(app: HTMLElement, game: string, linked: string | null = null): () => void {
  const gameBoard = (BOARDS[game] ?? thousandBoard)();
  const theme = new URLSearchParams(location.search).get("theme") ?? "";
  const select = h("select", { id: "puzzle-theme", "data-testid": "puzzle-theme" }, h("option", { value: "" }, t("puzzle.page.all_themes")), gameBoard.themes.map((th) => h("option", { value: th, selected: th === theme }, gameBoard.themeName(th))));
  const rating = h("p", { class: "puzzle-rating", "data-testid": "puzzle-rating" });
  const board = h("div", { class: "puzzle-board", "data-testid": "puzzle-board" }, h("p", { class: "muted" }, t("puzzle.page.loading")));
  const choiceBox = h("div", { class: "controls puzzle-choices", "data-testid": "puzzle-choices" });
  const nextBtn = h("button", { type: "button", class: "btn big", "data-testid": "puzzle-next", "aria-keyshortcuts": "N", hidden: true }, t("puzzle.page.next"), h("kbd", { class: "key" }, "N"));
  const question = h("h2", { id: "puzzle-question", class: "puzzle-question" }, "");
  const verdict = h("div", { class: "puzzle-verdict", "data-testid": "puzzle-verdict", "aria-live": "polite" });
  app.append(
    h(
      "section",
      { class: `card puzzle-page puzzle-${game}`, "data-testid": "puzzle-page", "data-game": game },
      h("div", { class: "puzzle-head" }, h("h1", null, gameBoard.title), h("label", { class: "puzzle-filter", for: "puzzle-theme" }, t("puzzle.page.theme_label"), " ", select), rating),
      board,
      h("div", { class: "puzzle-ask", role: "group", "aria-labelledby": "puzzle-question" }, question, choiceBox, h("div", { class: "controls" }, nextBtn)),
      verdict,
      h("p", { class: "muted small puzzle-keys" }, gameBoard.keys),
    ),
  );

  let alive = true;
  let current: PuzzlePosition | null = null;
  let choices: Choice[] = [];
  let buttons: HTMLButtonElement[] = [];
  let answered = false;
  let busy = false;

  const enable = (on: boolean): void => {
    for (const b of buttons) b.disabled = !on;
  };

  const showRating = (r: PuzzlePosition["rating"], delta?: number, rated = true): void => {
    clear(rating);
    append(rating, [
      t("puzzle.page.rating", { rating: ratingText(r) }),
      delta !== undefined && rated ? h("span", { class: delta >= 0 ? "delta up" : "delta down", "data-testid": "puzzle-delta" }, ` (${signed(delta)})`) : null,
      " · ",
      h("span", { "data-testid": "puzzle-streak" }, t("puzzle.page.streak", { streak: r.streak })),
    ]);
  };

  const drawChoices = (list: Choice[]): void => {
    choices = list;
    clear(choiceBox);
    const listed = gameBoard.choiceStyle === "list";
    choiceBox.classList.toggle("many", listed);
    choiceBox.classList.toggle("lots", listed && list.length > 12);
    buttons = list.map((c) => {
      const b = h("button", { type: "button", class: listed ? "btn choice" : "btn primary big", "data-testid": c.testid, "data-move": c.move, "aria-keyshortcuts": c.key ?? undefined, title: c.title ?? undefined, disabled: true }, c.label, c.key ? h("kbd", { class: "key" }, c.key) : null) as HTMLButtonElement;
      b.addEventListener("click", () => void choose(c.move));
      return b;
    });
    append(choiceBox, buttons);
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
    enable(false);
    try {
      const p = id ? await api.puzzle(game, id) : await api.nextPuzzle(game, select.value);
      if (!alive) return;
      current = p;
      showRating(p.rating);
      address(p.id);
      clear(board);
      if (p.id === null) {
        drawChoices([]);
        board.append(h("p", { class: "muted", "data-testid": "puzzle-none" }, t("puzzle.page.none_left")));
        return;
      }
      const asked = gameBoard.draw(p, board);
      question.textContent = asked.question;
      drawChoices(asked.choices);
      enable(true);
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
    clear(verdict);
    const best = gameBoard.words(v.best);
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
              h("span", { class: "hint-move" }, gameBoard.words(o.move)),
              " ",
              h("b", null, gameBoard.value(o.value)),
              " ",
              o.best ? h("span", { class: "badge seat" }, t("hint.best")) : h("span", { class: "muted" }, `−${formatNumber(Math.round(o.loss * 10) / 10)}`),
              o.move === v.choice ? [" ", h("span", { class: "badge", "data-testid": "puzzle-your-choice" }, t("puzzle.page.your_choice"))] : null,
            ),
          ),
        ),
        h("p", { class: "muted small" }, gameBoard.unit),
      ),
      h("p", { class: "puzzle-why", "data-testid": "puzzle-why" }, engineText(v.why, "")),
      h("p", { class: "muted small" }, t("puzzle.page.puzzle_rating", { rating: String(v.puzzle_rating) }), v.rated ? null : [" · ", h("span", { "data-testid": "puzzle-not-rated" }, t("puzzle.page.not_rated"))]),
      v.source
        ? h("p", { class: "small", "data-testid": "puzzle-source" }, t("puzzle.page.found"), " ", h("a", { href: `/table/${encodeURIComponent(v.source.table)}/analysis?step=${v.source.step}` }, t("puzzle.page.found_link")))
        : null,
    ]);
    for (const b of buttons) b.classList.toggle("chosen", b.dataset.move === v.choice);
    showRating(v.rating, v.rating.delta, v.rated);
    nextBtn.hidden = false;
    nextBtn.focus({ preventScroll: true });
    // (below many choices on a phone the verdict starts off screen: bring its first line in)
    verdict.firstElementChild?.scrollIntoView({ block: "nearest" });
  };

  const choose = async (choice: string): Promise<void> => {
    if (busy || answered || !current?.id) return;
    busy = true;
    enable(false);
    try {
      const v = await api.answerPuzzle(game, current.id, choice);
      if (!alive) return;
      answered = true;
      showVerdict(v);
    } catch (err) {
      if (!alive) return;
      enable(true);
      const said = err instanceof ApiError && err.problem?.msgid ? engineText({ id: err.problem.msgid, params: err.problem.params ?? {} }, err.detail) : apiErrorText(err);
      clear(verdict);
      verdict.append(h("p", { class: "error", role: "alert" }, said));
    } finally {
      busy = false;
    }
  };

  nextBtn.addEventListener("click", () => void load());
  select.addEventListener("change", () => void load());
  // the arrows step between the choices (Enter or Space on one chooses it, as on any button)
  choiceBox.addEventListener("keydown", (e) => {
    const at = buttons.indexOf(e.target as HTMLButtonElement);
    if (at < 0) return;
    const step = e.key === "ArrowRight" || e.key === "ArrowDown" ? 1 : e.key === "ArrowLeft" || e.key === "ArrowUp" ? -1 : 0;
    if (!step) return;
    e.preventDefault();
    e.stopPropagation();
    buttons[(at + step + buttons.length) % buttons.length].focus();
  });
  const onKey = (e: KeyboardEvent): void => {
    if (e.ctrlKey || e.metaKey || e.altKey) return;
    const target = e.target as HTMLElement | null;
    if (target && ["INPUT", "SELECT", "TEXTAREA"].includes(target.tagName)) return;
    const key = e.key.toLowerCase();
    const hit = choices.find((c) => c.key !== null && c.key.toLowerCase() === key);
    if (hit && !answered) void choose(hit.move);
    else if (key === "n" && answered && !busy) void load();
    else if ((e.key === "ArrowDown" || e.key === "ArrowRight") && !answered && buttons.length && !buttons.includes(target as HTMLButtonElement)) buttons[0].focus();
    else return;
    e.preventDefault();
  };
  document.addEventListener("keydown", onKey);
  void load(linked);
  return () => {
    alive = false;
    document.removeEventListener("keydown", onKey);
    gameBoard.destroy?.();
  };
}
