// A table page, game-neutral: connection, seats held by this browser, event log, errors, game over.
// The board itself is drawn by the game's view module (views/index.ts).
import { api, ApiError, forgetTokens, loadTokens, saveToken, type HintsResult, type LogEntry, type RematchOffer, type TableInfo, type View } from "./api";
import { TableConnection, type ConnStatus } from "./connection";
import { confirmDialog } from "./confirm";
import { resignConsequence } from "./resign-words";
import { clear, h, navigate, toast } from "./dom";
import { apiErrorText, serverErrorText } from "./errors";
import { formatList, formatNumber, hasKey, t, tKey } from "./i18n";
import { saveName } from "./me";
import { tableDetails } from "./table-details";
import { gameTitle, myName, presetName, seatLabel } from "./names";
import { optionName, ruleValue } from "./rulesform";
import { VIEWS, type GameView } from "./views";
import { ratingChanges, unratedText } from "./ratings";
import { proficiencyBox } from "./proficiency";
import { clockWords, perMoveWords, type TableClock } from "./deadline";

const LOG_LIMIT = 200;

/** Take `#seat=K&token=T` from an invite link into localStorage and drop it from the address bar; the seat, to
 * link to this browser's player (never a hot-seat token saved at creation). */
function absorbInvite(table: string): number | null {
  if (!location.hash) return null;
  const params = new URLSearchParams(location.hash.slice(1));
  const seat = params.get("seat");
  const token = params.get("token");
  history.replaceState(null, "", location.pathname + location.search);
  if (seat === null || !token) return null;
  saveToken(table, Number(seat), token);
  return Number(seat);
}

export function actorName(actor: LogEntry["actor"], seatName: (s: number) => string): string {
  if (actor === "chance") return t("table.dice");
  const n = Number(actor);
  return Number.isInteger(n) ? seatName(n) : String(actor);
}

/** A rule value in words: on/off, ranges as low–high, lists joined, choices by name. */
export function renderTable(app: HTMLElement, tableId: string): () => void {
  const invited = absorbInvite(tableId);
  let info: TableInfo | null = null;
  let mySeats: number[] = [];
  let spectator = true;
  let view: GameView | null = null;
  let lastState: View | null = null;
  let gameOverShown = false;
  let rules: Record<string, unknown> = {};

  const title = h("h1", { class: "table-title" }, t("table.title"));
  const howto = h("a", { class: "small howto-link", href: "/rules?game=thousand", "data-link": true }, t("home.how_to_play"));
  const seatBadge = h("p", { class: "seat-badge", "data-testid": "seat-badge" });
  const houseRules = h("p", { class: "house-rules-line muted small", "data-testid": "house-rules" });
  // Correspondence: who is on the clock and the time left (redrawn each minute; events are announced anyway)
  const clockLine = h("p", { class: "clock-line", "data-testid": "clock-line", hidden: true });
  const claimBox = h("div", { class: "claim", hidden: true });
  const viewRoot = h("div", { class: "view-root" });
  // The log is redrawn whole on (re)connection: a screen reader hears only new events, from `announcer`.
  const logList = h("ol", { class: "log", "data-testid": "log" });
  const announcer = h("div", { class: "sr-only", "aria-live": "polite", "data-testid": "announcer" });
  const overlay = h("div", { class: "overlay", hidden: true, role: "dialog", "aria-modal": "true", "aria-labelledby": "gameover-title" });
  const hintBtn = h("button", { type: "button", class: "btn", "data-testid": "hint-btn", "aria-pressed": "false", hidden: true }, t("hint.button"));
  const hintBox = h("div", { class: "hints", "data-testid": "hints", "aria-live": "polite", hidden: true });
  const resignBtn = h("button", { type: "button", class: "btn", "data-testid": "resign-btn", hidden: true }, t("resign.button"));
  const deleteBtn = h("button", { type: "button", class: "btn", "data-testid": "delete-btn", hidden: true }, t("delete.button"));
  app.append(
    h(
      "section",
      { class: "table-page" },
      h("div", { class: "table-head" }, title, seatBadge, h("span", { class: "table-actions" }, hintBtn, resignBtn, deleteBtn), howto, tableDetails(tableId)),
      houseRules,
      clockLine,
      claimBox,
      h("div", { class: "table-body" }, viewRoot, h("div", { class: "table-side" }, hintBox, h("aside", { class: "log-box", tabindex: 0, "aria-label": t("table.events") }, h("h2", null, t("table.events")), logList))),
      overlay,
      announcer,
    ),
  );

  const seatName = (seat: number): string => {
    const fromInfo = info?.seats.find((s) => s.seat === seat);
    if (fromInfo) return seatLabel(fromInfo);
    const players = lastState?.players;
    const fromState = Array.isArray(players) ? players[seat] : undefined;
    const stateName = typeof fromState === "string" ? fromState : (fromState as { name?: string } | undefined)?.name;
    return stateName || t("seat.player", { n: seat + 1 });
  };

  const setStatus = (status: ConnStatus): void => {
    const el = document.getElementById("status");
    if (!el) return;
    el.textContent = status === "online" ? t("conn.online") : status === "connecting" ? t("conn.connecting") : t("conn.offline");
    el.className = `conn-status ${status}`;
  };

  /** An event in words: its line in the log and any further lines under it. */
  const entryWords = (e: LogEntry, state: View | null): string[] => {
    // Real dice: a taken-back entry is the table's own event, not the game's.
    if (e.actor === "undo") return [t("log.undo", { name: seatName(e.entered_by ?? 0), dice: e.move })];
    // Correspondence: a seat's time ran out (a bot plays it on when the seat is a bot's now)
    if (e.move === "timeout" && typeof e.actor === "number") {
      const bot = info?.seats.find((s) => s.seat === e.actor)?.kind === "bot" && state?.terminal !== true;
      return [t(bot ? "log.timeout_bot" : "log.timeout", { name: seatName(e.actor) })];
    }
    const lines = view?.describe?.(e, state) ?? [];
    // (never the server's English `text`: without a view's words the move is shown in its notation)
    return [lines[0] || t("log.move", { name: actorName(e.actor, seatName), move: e.move }), ...lines.slice(1)];
  };

  const logEntry = (e: LogEntry, lines: string[]): HTMLElement => {
    const undone = e.actor === "undo";
    const text = lines[0];
    const entered = !undone && typeof e.entered_by === "number";
    return h(
      "li",
      { "data-seq": e.seq, class: e.actor === "chance" ? "chance" : undone ? "undone" : "" },
      h("span", { class: "seq" }, String(e.seq)),
      " ",
      h("span", { class: "words" }, text),
      entered ? h("span", { class: "entered muted small", title: t("realdice.entered_by", { name: seatName(e.entered_by ?? 0) }) }, " ✎") : null,
      lines.length > 1 ? h("ul", { class: "log-more" }, lines.slice(1).map((l) => h("li", null, l))) : null,
    );
  };

  const pushLog = (e: LogEntry, state: View | null = null): string[] => {
    const lines = entryWords(e, state);
    logList.prepend(logEntry(e, lines));
    while (logList.childElementCount > LOG_LIMIT) logList.lastElementChild?.remove();
    return lines;
  };

  /** A new event, said once: each is added as its own node (a bot's quick moves would overwrite one text). */
  const announce = (lines: string[]): void => {
    announcer.append(h("p", null, lines.join(" ")));
    while (announcer.childElementCount > 3) announcer.firstElementChild?.remove();
  };

  const updateBadge = (): void => {
    updateActions();
    clear(seatBadge);
    if (info?.status === "waiting") {
      seatBadge.append(h("span", { class: "badge pit" }, t("table.waiting")), " ");
    }
    if (info?.dice === "real") {
      seatBadge.append(h("span", { class: "badge", "data-testid": "real-dice" }, t("table.real_dice")), " ");
    }
    if (info?.rated) seatBadge.append(h("span", { class: "badge", "data-testid": "rated" }, t("rated.badge")), " ");
    if (info?.status === "abandoned") {
      seatBadge.append(h("span", { class: "badge pit", "data-testid": "abandoned" }, t("table.abandoned")), " ");
      // closed without a result: no game-over card, so the way to its replay is here
      seatBadge.append(h("a", { href: `/table/${tableId}/analysis`, "data-link": true, "data-testid": "analysis-link" }, t("table.analysis")), " ");
    }
    if (spectator || mySeats.length === 0) {
      seatBadge.append(h("span", { class: "badge spectator" }, t("table.watching")));
    } else {
      seatBadge.append(t("table.you_play"), " ", ...mySeats.map((s) => h("span", { class: "badge seat" }, seatName(s))));
    }
  };

  // -- resigning and deleting (docs/web-protocol.md): what follows is said before the player commits to it --
  const open = (): boolean => (info?.status === "waiting" || info?.status === "playing") && lastState?.terminal !== true;
  /** Seats still playing for themselves: not resigned, not eliminated (Der große Wurf's `alive`). */
  const seatsIn = (): number[] => {
    const alive = lastState?.alive;
    return (info?.seats ?? []).filter((s) => !s.resigned && (!Array.isArray(alive) || alive[s.seat] !== false)).map((s) => s.seat);
  };
  const myIn = (): number[] => (spectator ? [] : mySeats.filter((s) => seatsIn().includes(s)));
  const mayDelete = (): boolean => {
    const claimed = (info?.seats ?? []).filter((s) => s.kind === "human" && s.claimed !== false).map((s) => s.seat);
    return open() && !spectator && mySeats.length > 0 && claimed.every((s) => mySeats.includes(s));
  };
  const updateActions = (): void => {
    resignBtn.hidden = !open() || myIn().length === 0;
    deleteBtn.hidden = !mayDelete();
  };
  const consequence = (seat: number): string =>
    resignConsequence(
      info?.game ?? "",
      seatsIn()
        .filter((s) => s !== seat)
        .map(seatName),
    );
  resignBtn.addEventListener("click", async () => {
    const mine = myIn();
    if (!mine.length) return;
    const current = lastState?.current_player;
    let seat = typeof current === "number" && mine.includes(current) ? current : mine[0];
    const what = h("p", { "data-testid": "resign-what" }, consequence(seat));
    const body: (string | HTMLElement)[] = [];
    if (mine.length > 1) {
      // hot seat: this browser holds several seats; the one to resign is chosen here
      const pickSeat = h("select", { "data-testid": "resign-seat" }, mine.map((s) => h("option", { value: String(s), selected: s === seat }, seatName(s))));
      pickSeat.addEventListener("change", () => {
        seat = Number((pickSeat as HTMLSelectElement).value);
        what.textContent = consequence(seat);
      });
      body.push(h("label", null, t("resign.seat"), " ", pickSeat));
    }
    body.push(what, t("resign.final"));
    const sure = await confirmDialog({ title: t("resign.title"), body, yes: t("resign.yes"), no: t("resign.no"), testid: "resign-dialog" });
    if (sure && !conn.resign(seat)) toast(t("error.network"));
  });
  const showDeleted = (): void => {
    conn.stop();
    forgetTokens(tableId);
    overlay.hidden = true;
    resignBtn.hidden = deleteBtn.hidden = true;
    clear(viewRoot);
    viewRoot.append(h("div", { class: "card", role: "status", "data-testid": "table-deleted" }, h("h2", null, t("table.deleted")), h("a", { href: "/", "data-link": true }, t("nav.back_home"))));
  };
  deleteBtn.addEventListener("click", async () => {
    const sure = await confirmDialog({ title: t("delete.title"), body: [t("delete.what")], yes: t("delete.yes"), no: t("delete.no"), testid: "delete-dialog" });
    if (!sure) return;
    try {
      await api.deleteTable(tableId, Object.values(loadTokens(tableId)));
      showDeleted();
    } catch (err) {
      toast(apiErrorText(err));
    }
  });

  const renderClaim = (): void => {
    clear(claimBox);
    const open = (info?.seats ?? []).filter((s) => s.kind === "human" && s.claimed === false && !mySeats.includes(s.seat));
    const finished = (lastState?.terminal ?? info?.status === "finished") || info?.status === "abandoned";
    claimBox.hidden = open.length === 0 || Boolean(finished);
    if (claimBox.hidden) return;
    const name = h("input", { type: "text", placeholder: t("lobby.your_name"), maxlength: 24, "aria-label": t("lobby.your_name"), value: myName() });
    claimBox.append(
      h("span", null, t("table.free_seats"), " "),
      name,
      ...open.map((s) =>
        h(
          "button",
          {
            class: "btn",
            type: "button",
            onclick: async () => {
              const typed = name.value.trim();
              if (typed && typed !== myName()) {
                const problem = await saveName(typed); // the name follows the player to the next table
                if (problem !== null) return toast(problem);
              }
              const who = typed || myName();
              try {
                const res = await api.join(tableId, s.seat, who);
                saveToken(tableId, res.seat, res.token);
                info = await api.table(tableId);
                conn.setTokens(Object.values(loadTokens(tableId)));
              } catch (err) {
                toast(apiErrorText(err));
              }
            },
          },
          t("table.take_seat", { n: s.seat + 1 }),
        ),
      ),
    );
  };

  // Rematch (docs/players-design.md step 5): offered from the game-over card, accepted by the others with one click;
  // every page holding a seat goes to the new table once all seats are taken.
  const rematchBox = h("span", { class: "rematch", "data-testid": "rematch", "aria-live": "polite" });
  let rematch: RematchOffer | null = null;
  const goToRematch = (offer: RematchOffer): void => {
    if (offer.ready && mySeats.length && mySeats.every((s) => offer.accepted.includes(s))) navigate(`/table/${offer.new_table}`);
  };
  const askRematch = async (button: HTMLButtonElement): Promise<void> => {
    button.disabled = true;
    try {
      const res = await api.rematch(tableId, loadTokens(tableId));
      for (const [seat, token] of Object.entries(res.tokens)) saveToken(res.table_id, Number(seat), token);
      if (res.ready) return navigate(`/table/${res.table_id}`);
      rematch = (await api.table(tableId)).rematch ?? null;
      drawRematch();
    } catch (err) {
      toast(apiErrorText(err));
      button.disabled = false;
    }
  };
  const drawRematch = (): void => {
    clear(rematchBox);
    if (spectator || mySeats.length === 0) return;
    const offer = rematch;
    if (offer === null) {
      const b = h("button", { class: "btn primary", type: "button", "data-testid": "rematch-offer" }, t("table.rematch"));
      b.addEventListener("click", () => void askRematch(b));
      rematchBox.append(b);
    } else if (mySeats.every((s) => offer.accepted.includes(s))) {
      const waiting = (info?.seats ?? []).filter((s) => s.kind === "human" && !offer.accepted.includes(s.seat)).map((s) => seatName(s.seat));
      rematchBox.append(
        h("span", { class: "muted", "data-testid": "rematch-waiting" }, t("table.rematch_waiting", { names: formatList(waiting) })),
        " ",
        h("a", { class: "btn", href: `/table/${offer.new_table}`, "data-link": true }, t("table.rematch_open")),
      );
    } else {
      const b = h("button", { class: "btn primary", type: "button", "data-testid": "rematch-accept" }, t("table.rematch_accept"));
      b.addEventListener("click", () => void askRematch(b));
      rematchBox.append(h("span", { "data-testid": "rematch-offered" }, t("table.rematch_offered", { name: seatName(offer.by) })), " ", b);
    }
  };

  // The rating changes of a rated game (ratings.ts), sent in a "table" message once the game has ended.
  const ratingBox = h("div", { class: "rating-box" });
  const drawRatings = (): void => {
    clear(ratingBox);
    if (info?.ratings?.length) ratingBox.append(ratingChanges(info.ratings, seatName));
  };

  const showGameOver = (state: View): void => {
    if (gameOverShown) return;
    gameOverShown = true;
    drawRematch();
    void api
      .table(tableId)
      .then((fresh) => {
        rematch = fresh.rematch ?? rematch;
        drawRematch();
        if (info && fresh.ratings) info.ratings = fresh.ratings;
        drawRatings();
      })
      .catch(() => undefined); // the card works without it: the offer button stays
    const order = state.scores.map((score, seat) => ({ seat, score })).sort((a, b) => b.score - a.score);
    const winners = state.winners ?? [];
    const headline = winners.length ? t("table.winners", { names: winners.map(seatName).join(", "), n: winners.length }) : t("table.game_over");
    const own = view?.summary?.(state);
    clear(overlay);
    overlay.append(
      h(
        "div",
        { class: "card gameover", "data-testid": "gameover" },
        h("h2", { id: "gameover-title" }, own?.headline ?? headline),
        own?.body ??
          h(
            "ol",
            { class: "standings" },
            order.map((r) => h("li", { class: winners.includes(r.seat) ? "winner" : "" }, h("span", null, seatName(r.seat)), h("b", null, formatNumber(r.score)))),
          ),
        ratingBox,
        proficiencyBox(tableId, info?.analysis === true, seatName),
        h(
          "p",
          { class: "actions" },
          h("a", { class: "btn primary", href: `/table/${tableId}/analysis`, "data-link": true, "data-testid": "analysis-link" }, t("table.analysis")),
          h("a", { class: "btn", href: api.recordUrl(tableId), download: `dicehall-${tableId}.json`, "data-testid": "record-download" }, t("table.download")),
          rematchBox,
          h("a", { class: "btn", href: "/", "data-link": true }, t("table.new_game")),
          h("button", { class: "btn", type: "button", "data-testid": "look-at-board", onclick: () => (overlay.hidden = true) }, t("table.look")),
        ),
      ),
    );
    overlay.hidden = false;
    (overlay.querySelector("a.btn") as HTMLElement | null)?.focus();
  };
  overlay.addEventListener("keydown", (e) => {
    if (e.key === "Escape") overlay.hidden = true;
  });

  // Hints: the table's option (older servers: allowed when at most one person sits at the table).
  let hintsOn = false;
  let hintsFor: View | null = null;
  const hintValue = (v: number, unit: HintsResult["unit"]): string =>
    unit === "win%" ? `${formatNumber(Math.round(v * 10) / 10)}%` : unit === "dice" ? formatNumber(Math.round(v * 100) / 100) : formatNumber(Math.round(v * 10) / 10);
  const renderHints = (res: HintsResult, state: View): void => {
    // each move in words (the view's), its notation kept in the row's data-move
    const said = (move: string): HTMLElement => {
      const words = view?.moveText?.(move, state);
      return words ? h("span", { class: "hint-move" }, words) : h("code", null, move);
    };
    clear(hintBox);
    hintBox.append(
      h("h2", null, t("hint.title", { name: seatName(res.seat) })),
      h(
        "ol",
        { class: "hint-list" },
        res.options.map((o) =>
          h(
            "li",
            { class: o.best ? "best" : "", "data-move": o.move },
            said(o.move),
            " ",
            h("b", null, hintValue(o.value, res.unit)),
            " ",
            o.best ? h("span", { class: "badge seat" }, t("hint.best")) : h("span", { class: "muted" }, `−${hintValue(o.loss, res.unit)}`),
          ),
        ),
      ),
      h("p", { class: "muted small" }, res.unit === "win%" ? t("hint.unit_win") : res.unit === "dice" ? t("hint.unit_dice") : t("hint.unit_points")),
    );
    // a note the page has words for (the shipped table: values within ±x of the exact ones)
    if (res.note_id && hasKey(res.note_id)) hintBox.append(h("p", { class: "muted small", "data-testid": "hint-note" }, tKey(res.note_id, res.note, res.note_params)));
  };
  const refreshHints = async (): Promise<void> => {
    const humans = (info?.seats ?? []).filter((s) => s.kind === "human").length;
    const tableAllows = info?.hints ?? humans <= 1;
    const allowed = !spectator && mySeats.length > 0 && tableAllows && lastState?.terminal !== true && view?.hints !== false;
    hintBtn.hidden = !allowed;
    hintBox.hidden = !(allowed && hintsOn);
    if (hintBox.hidden) view?.showHints?.(null);
    if (hintBox.hidden || !lastState || hintsFor === lastState) return;
    const asked = (hintsFor = lastState);
    view?.showHints?.(null); // the last position's hint no longer applies
    const seat = asked.current_player;
    if (typeof seat !== "number" || !mySeats.includes(seat)) {
      clear(hintBox);
      hintBox.append(h("p", { class: "muted small" }, t("hint.wait")));
      return;
    }
    try {
      const res = await api.hints(tableId, seat, loadTokens(tableId)[seat]);
      if (lastState === asked) {
        renderHints(res, asked);
        view?.showHints?.(res); // a view may draw it on the board too (Wurf's map over the arena)
      }
    } catch (err) {
      if (lastState === asked) {
        clear(hintBox);
        // the server's refusals of a hint by status (its English detail is never shown): off here, not your move
        const said = err instanceof ApiError && err.status === 403 ? t("hint.off") : err instanceof ApiError && err.status === 409 ? t("hint.wait") : apiErrorText(err);
        hintBox.append(h("p", { class: "muted small" }, said));
      }
    }
  };
  // The hints never push the board away: beside it (the side column), on a narrow screen under the view's
  // controls when the view has room there (its hintSlot), else under the board.
  const sideHints = hintBox.parentElement as HTMLElement;
  const narrow = window.matchMedia("(max-width: 899px)");
  const placeHints = (): void => {
    const slot = narrow.matches ? view?.hintSlot : undefined;
    const home = slot ?? sideHints;
    if (hintBox.parentElement !== home) home.prepend(hintBox);
  };
  narrow.addEventListener("change", placeHints);
  hintBtn.addEventListener("click", () => {
    hintsOn = !hintsOn;
    placeHints();
    hintBtn.setAttribute("aria-pressed", String(hintsOn));
    hintsFor = null;
    void refreshHints();
  });

  const drawClock = (): void => {
    const clock = lastState?.clock as TableClock | undefined;
    const words = clock && !lastState?.terminal ? clockWords(clock.deadline, clock.seats.some((s) => mySeats.includes(s)), clock.seats.map(seatName).join(", "), Date.now() / 1000) : "";
    clockLine.hidden = !clock;
    clockLine.textContent = clock ? [perMoveWords(clock.move_seconds), words].filter(Boolean).join(" · ") : "";
  };
  const clockTimer = window.setInterval(drawClock, 60_000);

  const applyState = (state: View, fresh: LogEntry | null): void => {
    lastState = state;
    drawClock();
    updateActions();
    view?.update(state, fresh);
    // A view still animating the last events (Wurf's throws) shows the game over once they have played.
    if (state.terminal) void (view?.settled?.() ?? Promise.resolve()).then(() => lastState === state && showGameOver(state));
    void refreshHints();
  };

  const conn = new TableConnection(tableId, Object.values(loadTokens(tableId)), {
    status: setStatus,
    rematch(offer) {
      rematch = offer;
      if (gameOverShown) drawRematch();
      overlay.hidden = false; // an offer brings the game-over card back
      goToRematch(offer);
    },
    joined(seats, isSpectator, joinedInfo) {
      const wanted = Object.keys(loadTokens(tableId)).length;
      if (joinedInfo) info = joinedInfo;
      mySeats = seats;
      spectator = isSpectator;
      if (wanted > seats.length) toast(t("table.links_refused"));
      updateBadge();
      drawClock();
      renderClaim();
      if (lastState) view?.update(lastState, null);
      void refreshHints();
    },
    snapshot(_seq, state, log, status, extras) {
      if (info && status) info.status = status;
      clear(logList);
      for (const e of log) pushLog(e);
      if (extras) view?.extras?.(extras, log);
      applyState(state, null);
      updateBadge();
    },
    event(ev) {
      if (info && ev.status && ev.status !== info.status) {
        info.status = ev.status;
        updateBadge();
      }
      announce(pushLog(ev, ev.state));
      if (typeof ev.retracts === "number") logList.querySelector(`li[data-seq="${ev.retracts}"]`)?.classList.add("retracted");
      applyState(ev.state, ev);
    },
    table(tInfo) {
      if (tInfo.status === "deleted") return showDeleted();
      if (info?.rated && tInfo.rated === false && tInfo.status !== "finished") toast(unratedText(tInfo.unrated)); // no longer rated: why
      info = tInfo;
      drawRatings();
      updateBadge();
      renderClaim();
      if (lastState) view?.update(lastState, null);
    },
    private(choice) {
      view?.private?.(choice);
    },
    progress(sim) {
      view?.progress?.(sim);
    },
    error(err) {
      toast(serverErrorText(err));
      view?.refused();
      if (err.code === "bad_token") {
        // A saved seat link that is not this table's (e.g. the server's database was reset): watch instead.
        forgetTokens(tableId);
        conn.setTokens([]);
      }
      if (err.code === "no_such_table") conn.stop();
    },
  }, { mine: true, link: invited === null ? [] : [invited] });

  // Left before the table's description came (an invite link opened over this page is a same-page navigation):
  // nothing may start then, or a second connection would join with the old page's seats.
  let left = false;
  api
    .table(tableId)
    .then((tb) => {
      if (left) return;
      info = tb;
      const factory = VIEWS[tb.game];
      title.replaceChildren(`${gameTitle(tb.game)} `, tb.preset ? h("small", null, `· ${presetName(tb.game, tb.preset)}`) : "");
      howto.setAttribute("href", `/rules?game=${tb.game}`);
      if (factory) {
        view = factory(viewRoot, {
          // (a seat that resigned plays no more: with Clever's 3 or 4 seats a bot plays it)
          mySeats: () => (info?.status === "waiting" ? [] : mySeats.filter((s) => !info?.seats.find((x) => x.seat === s)?.resigned)),
          act: (seat, move) => conn.act(seat, move),
          enter: (seat, outcome) => conn.enter(seat, outcome),
          undo: (seat) => conn.undo(seat),
          seatName,
          rules: () => rules,
        });
        // The full rule values (limits such as barrel attempts) for the scoreboard; the game works without them.
        api
          .rules(tb.game, tb.preset ?? "")
          .then((opts) => {
            rules = Object.fromEntries(opts.map((o) => [o.key, o.value]));
            Object.assign(rules, tb.overrides ?? {});
            if (lastState) view?.update(lastState, null);
          })
          .catch(() => undefined);
      } else {
        viewRoot.append(h("p", { class: "card" }, t("table.no_view", { game: gameTitle(tb.game) })));
      }
      // what the creator chose (not what every table here has, such as Wurf's simulated throws)
      const changed = Object.entries(tb.house_rules ?? tb.overrides ?? {});
      houseRules.textContent = changed.length
        ? t("table.house_rules", { list: changed.map(([k, v]) => `${optionName(tb.game, k)}: ${ruleValue(tb.game, k, v)}`).join(" · ") })
        : "";
      updateBadge();
      renderClaim();
      // an invite link's seat is linked to this browser's player, made now if it has none (a cookie first)
      if (invited === null) conn.start();
      else void api.makeMe().catch(() => undefined).then(() => left || conn.start());
    })
    .catch((err: unknown) => {
      viewRoot.append(h("div", { class: "card error" }, h("h2", null, t("table.cannot_open")), h("p", null, apiErrorText(err)), h("a", { href: "/", "data-link": true }, t("nav.back_home"))));
    });

  return () => {
    left = true;
    narrow.removeEventListener("change", placeHints);
    window.clearInterval(clockTimer);
    conn.stop();
    view?.destroy();
    setStatus("offline");
    const el = document.getElementById("status");
    if (el) el.textContent = "";
  };
}
