// "Your games" at the top of the home page: the tables where it is your turn first (marked in words and with an
// arrow, not by colour alone), then those waiting for others, then finished ones with the winner, the scores and
// the analysis. "Resume" opens a table as yours: the page joins with "mine", so the seats linked to this
// browser's player are held even without their tokens. Refreshed every 15 s, like the tab title's count.
import { api, loadTokens, saveToken, type GamesCursor, type MyGame } from "./api";
import { confirmDialog } from "./confirm";
import { clear, h, navigate, toast } from "./dom";
import { apiErrorText } from "./errors";
import { formatAgo, t, type MessageId } from "./i18n";
import { resignConsequence } from "./resign-words";
import { gameTitle, presetName, seatLabel } from "./names";
import { clockWords, perMoveWords } from "./deadline";

const PAGE = 5;
const REFRESH_MS = 15_000;

const RESULT: Record<string, MessageId> = { win: "yours.result.win", loss: "yours.result.loss", draw: "yours.result.draw" };

function seatList(g: MyGame, scores?: number[] | null): (HTMLElement | string)[] {
  return g.seats.flatMap((s, i) => {
    const name = seatLabel(s);
    const score = scores?.[i];
    const label = score === undefined || score === null ? name : `${name} ${score}`;
    const mine = g.my_seats.includes(s.seat);
    const person = s.kind === "human" && s.claimed !== false;
    // a finished game's people link to their profiles (by id: names are not unique)
    const text = person && scores && s.player && !s.deleted ? h("a", { href: `/player/${s.player}`, "data-link": true, translate: "no" }, label) : person ? h("span", { translate: "no" }, label) : label;
    return [i ? ", " : "", mine ? h("b", null, text) : text];
  });
}

function when(g: MyGame): string {
  const ago = formatAgo(g.updated);
  return ago === null ? "" : ` · ${ago}`;
}

/** Resign one of my seats at an open table, after saying what follows (as the table page does). */
async function resign(g: MyGame, done: () => void): Promise<void> {
  const seat = g.my_seats.find((s) => !g.seats[s]?.resigned);
  if (seat === undefined) return;
  const others = g.seats.filter((s) => s.seat !== seat && !s.resigned).map(seatLabel);
  const sure = await confirmDialog({
    title: t("resign.title"),
    body: [h("p", null, gameTitle(g.game), " — ", ...seatList(g)), resignConsequence(g.game, others), t("resign.final")],
    yes: t("resign.yes"),
    no: t("resign.no"),
    testid: "resign-dialog",
  });
  if (!sure) return;
  try {
    await api.resign(g.table_id, seat, loadTokens(g.table_id)[seat]);
    done();
  } catch (err) {
    toast(apiErrorText(err));
  }
}

/** Accept a rematch offered to this player: the seat kept for them is taken, then off to the new table. */
async function accept(g: MyGame, button: HTMLButtonElement): Promise<void> {
  if (!g.offer) return;
  button.disabled = true;
  try {
    const res = await api.rematch(g.offer.table, loadTokens(g.offer.table));
    for (const [seat, token] of Object.entries(res.tokens)) saveToken(res.table_id, Number(seat), token);
    navigate(`/table/${res.table_id}`);
  } catch (err) {
    toast(apiErrorText(err));
    button.disabled = false;
  }
}

function offerRow(g: MyGame): HTMLElement {
  const by = g.offer ? g.seats[g.offer.by_seat] : undefined;
  const b = h("button", { type: "button", class: "btn primary", "data-accept": g.table_id }, t("table.rematch_accept"));
  b.addEventListener("click", () => void accept(g, b));
  return h(
    "li",
    { class: "table-item your-turn", "data-table": g.table_id, "data-offer": g.offer?.table ?? "" },
    h(
      "div",
      { class: "yg-info" },
      h("div", null, h("span", { class: "badge turn" }, "↻ ", by ? t("table.rematch_offered", { name: seatLabel(by) }) : t("table.rematch")), " ", h("b", null, gameTitle(g.game))),
      h("div", { class: "muted small" }, ...seatList(g), when(g)),
    ),
    h("div", { class: "table-actions" }, b),
  );
}

/** A correspondence game's clock: "3 days a move · Your move — 2 days 4 hours left", and "deadline soon" (in
 * words and a marked badge, not by colour alone) once its reminder is due. */
function clockOf(g: MyGame, now: number): HTMLElement | null {
  if (!g.move_seconds) return null;
  const words = clockWords(g.deadline, g.turn, "", now);
  return h(
    "div",
    { class: "small yg-clock", "data-clock": g.table_id },
    g.deadline_soon ? h("span", { class: "badge pit", "data-soon": g.table_id }, t("clock.soon")) : null,
    g.deadline_soon ? " " : "",
    [perMoveWords(g.move_seconds), words].filter(Boolean).join(" · "),
  );
}

function openRow(g: MyGame, refresh: () => void, now: number): HTMLElement {
  const yourTurn = g.turn;
  const resignBtn = h("button", { type: "button", class: "btn ghost", "data-resign": g.table_id }, t("resign.button"));
  resignBtn.addEventListener("click", () => void resign(g, refresh));
  return h(
    "li",
    { class: yourTurn ? "table-item your-turn" : "table-item", "data-table": g.table_id, "data-turn": String(yourTurn) },
    h(
      "div",
      { class: "yg-info" },
      h(
        "div",
        null,
        yourTurn ? h("span", { class: "badge turn" }, "▶ ", t("yours.turn_badge")) : null,
        h("b", null, gameTitle(g.game)),
        " ",
        h("span", { class: "muted" }, [g.preset ? presetName(g.game, g.preset) : "", yourTurn ? "" : t(g.status === "waiting" ? "tables.waiting" : "yours.in_play")].filter(Boolean).join(" · ")),
      ),
      h("div", { class: "muted small" }, ...seatList(g), when(g)),
      clockOf(g, now),
    ),
    h(
      "div",
      { class: "table-actions" },
      h("a", { class: yourTurn ? "btn primary" : "btn", href: `/table/${g.table_id}`, "data-link": true, "data-resume": g.table_id }, t("yours.resume")),
      resignBtn,
    ),
  );
}

function finishedRow(g: MyGame): HTMLElement {
  const r = g.result;
  const winners = (r?.winners ?? []).map((w) => g.seats[w]).filter((s) => s !== undefined);
  const outcome = r?.mine ? t(RESULT[r.mine] ?? "yours.result.draw") : "";
  return h(
    "li",
    { class: "table-item", "data-table": g.table_id, "data-result": r?.mine ?? "" },
    h(
      "div",
      { class: "yg-info" },
      h("div", null, outcome ? h("span", { class: `badge result ${r?.mine ?? ""}` }, outcome) : null, h("b", null, gameTitle(g.game)), " ", h("span", { class: "muted" }, g.preset ? presetName(g.game, g.preset) : "")),
      h(
        "div",
        { class: "small" },
        winners.length ? t("yours.winner", { names: winners.map(seatLabel).join(", "), n: winners.length }) : t("yours.no_winner"),
        " · ",
        t("yours.scores"),
        " ",
        ...seatList(g, r?.scores),
        when(g),
      ),
    ),
    h(
      "div",
      { class: "table-actions" },
      h("a", { class: "btn", href: `/table/${g.table_id}/analysis`, "data-link": true, "data-analysis": g.table_id }, t("finished.analysis")),
    ),
  );
}

/** Fills `box` with this player's games and keeps them fresh; the section stays hidden while there are none (a
 * browser that never played, or whose tables are older than the seat rows). Returns the cleanup. */
export function yourGames(box: HTMLElement): () => void {
  let alive = true;
  let cursor: GamesCursor | null = null;
  const turnList = h("ul", { class: "tables", "data-testid": "your-turn" });
  const offerList = h("ul", { class: "tables", "data-testid": "your-offers" });
  const offerHead = h("h3", null, t("yours.offers"));
  const waitList = h("ul", { class: "tables", "data-testid": "your-waiting" });
  const doneList = h("ul", { class: "tables", "data-testid": "your-finished" });
  const turnHead = h("h3", null);
  const waitHead = h("h3", null, t("yours.waiting"));
  const doneHead = h("h3", null, t("yours.finished"));
  const more = h("button", { type: "button", class: "btn", "data-testid": "your-more", hidden: true }, t("finished.more"));
  const live = h("div", { "aria-live": "polite" }, turnHead, turnList, offerHead, offerList, waitHead, waitList, doneHead, doneList, more);
  box.setAttribute("data-testid", "your-games");
  box.hidden = true;
  box.append(h("h2", null, t("yours.title")), live);

  const show = (head: HTMLElement, list: HTMLElement): void => {
    head.hidden = list.hidden = list.childElementCount === 0;
  };

  /** The first page again (open tables and the newest finished ones). */
  const refresh = async (): Promise<void> => {
    try {
      const page = await api.myGames(PAGE);
      if (!alive) return;
      clear(turnList);
      clear(offerList);
      clear(waitList);
      clear(doneList);
      const again = (): void => void refresh();
      const now = page.now ?? Date.now() / 1000;
      turnList.append(...page.your_turn.map((g) => openRow(g, again, now)));
      offerList.append(...(page.offers ?? []).map(offerRow));
      waitList.append(...page.waiting.map((g) => openRow(g, again, now)));
      doneList.append(...page.finished.map(finishedRow));
      turnHead.textContent = t("yours.your_turn", { n: page.your_turn.length });
      cursor = page.next;
      more.hidden = cursor === null;
      show(turnHead, turnList);
      show(offerHead, offerList);
      show(waitHead, waitList);
      show(doneHead, doneList);
      const wasHidden = box.hidden;
      box.hidden = !page.your_turn.length && !(page.offers ?? []).length && !page.waiting.length && !page.finished.length;
      if (wasHidden && !box.hidden && location.hash === "#your-games") box.scrollIntoView(); // from the quota dialog
    } catch {
      // a list that cannot be read now stays as it was; the next refresh tries again
    }
  };
  more.addEventListener("click", () => {
    if (!cursor) return;
    more.disabled = true;
    void api
      .myGames(PAGE, cursor)
      .then((page) => {
        doneList.append(...page.finished.map(finishedRow));
        cursor = page.next;
        more.hidden = cursor === null;
      })
      .catch(() => undefined)
      .finally(() => (more.disabled = false));
  });
  void refresh();
  const timer = window.setInterval(() => {
    if (cursor === null || doneList.childElementCount <= PAGE) void refresh(); // not while reading older pages
  }, REFRESH_MS);
  return () => {
    alive = false;
    window.clearInterval(timer);
  };
}
