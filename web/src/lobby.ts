// A new table with chosen rules: presets first, then the seats, then house rules grouped by topic (checked as
// you type); the open tables of the games with a board beside it.
import { api, ApiError, saveToken, type GameInfo, type RuleOption, type SeatSpec } from "./api";
import { loadMe, myDisplayName, saveName } from "./me";
import { showCreated } from "./created";
import { clear, h, navigate, toast } from "./dom";
import { apiErrorText, ruleProblemText } from "./errors";
import { formatNumber, t, tKey } from "./i18n";
import { botName, gameTitle, presetName } from "./names";
import { RuleInputError, rulesForm, type RulesForm } from "./rulesform";
import { finishedGames } from "./finished-list";
import { createTable } from "./quota";
import { openTables } from "./tables-list";
import { VIEWS } from "./views";
import { ratedOption, unratedText } from "./ratings";

const CHECK_DELAY_MS = 300;

interface SeatRow {
  row: HTMLElement;
  name: HTMLInputElement;
  spec(): SeatSpec;
  here(): boolean;
}

export function renderLobby(app: HTMLElement, gameName: string): () => void {
  let game: GameInfo | null = null;
  let form: RulesForm | null = null;
  let checkTimer: number | undefined;
  let checkAvailable = true;
  let checkSerial = 0;
  const seats: SeatRow[] = [];

  // One name: seat 1 (the first seat played on this device) is you, under the name the name chip keeps.
  let myNameTouched = false;
  void loadMe().then(() => {
    const mine = meSeat()?.name;
    if (mine && !myNameTouched && !mine.value) mine.value = myDisplayName();
  });
  const presetBox = h("div", { class: "presets", role: "radiogroup", "data-testid": "presets" });
  const rulesBox = h("div", { class: "rules-box", "data-testid": "rules-box" });
  const seatList = h("div", { class: "seats", "data-testid": "seats" });
  const addSeatBtn = h("button", { type: "button", class: "btn", id: "add-seat", onclick: () => addSeat({ kind: "bot" }) }, t("lobby.add_seat"));
  const createBtn = h("button", { type: "submit", class: "btn primary big", id: "create" }, t("lobby.create"));
  const diceMode = h(
    "select",
    { id: "dice-mode", "data-testid": "dice-mode", "aria-describedby": "dice-hint" },
    h("option", { value: "rolled", selected: true }, t("lobby.dice_rolled")),
    h("option", { value: "real" }, t("lobby.dice_real")),
  );
  // Words that are true only of real dice are shown only when real dice are chosen.
  const diceHint = h("p", { class: "muted small", id: "dice-hint", "data-testid": "dice-hint", hidden: true }, t("lobby.dice_hint"));
  diceMode.addEventListener("change", () => (diceHint.hidden = diceMode.value !== "real"));
  // Hints: on by default alone and against bots, off between people, until the player sets it here.
  const hintsBox = h("input", { type: "checkbox", id: "hints-allowed", "data-testid": "hints-option", checked: true });
  let hintsTouched = false;
  hintsBox.addEventListener("change", () => (hintsTouched = true));
  const hintsRow = h("div", { class: "row", "data-testid": "hints-row" }, hintsBox, h("label", { for: "hints-allowed" }, t("lobby.hints")));
  const hintsHint = h("p", { class: "muted small" }, t("lobby.hints_hint"));
  const rated = ratedOption(hintsBox); // "Rated game" (ratings.ts)
  const result = h("div", { class: "card created", hidden: true, "data-testid": "created" });
  const finishedBox = h("div", { class: "table-list" });
  const tablesBox = h("div", { class: "table-list" });
  const heading = h("h1", null, t("lobby.title", { game: gameTitle(gameName) }));

  const formEl = h(
    "form",
    { class: "card create", id: "create-form", novalidate: true },
    heading,
    h("p", { class: "small" }, h("a", { href: `/rules?game=${gameName}`, "data-link": true }, t("home.how_to_play"))),
    h("h2", null, t("lobby.presets")),
    presetBox,
    h("h2", null, t("lobby.seats")),
    seatList,
    h("p", { class: "row" }, addSeatBtn),
    h("div", { class: "row" }, h("label", { for: "dice-mode" }, t("lobby.dice")), diceMode),
    diceHint,
    hintsRow,
    hintsHint,
    rated.row,
    h("h2", null, t("lobby.house_rules")),
    h("p", { class: "muted small" }, t("lobby.house_rules_hint")),
    rulesBox,
    h("p", null, createBtn),
  );
  rated.follow(formEl);
  app.append(
    h(
      "section",
      { class: "lobby" },
      h("div", null, formEl, result),
      h("div", null, h("section", { class: "card" }, h("h2", null, t("tables.title")), tablesBox), h("section", { class: "card" }, h("h2", null, t("finished.title")), finishedBox)),
    ),
  );

  const selectedPreset = (): string => (presetBox.querySelector("input:checked") as HTMLInputElement | null)?.value ?? game?.default_preset ?? "";

  /** The seat that is you: the first seat played on this device (its name is your name). */
  const meSeat = (): SeatRow | undefined => seats.find((s) => s.here());

  function addSeat(init: { kind: "human" | "bot"; name?: string; here?: boolean }): void {
    if (game && seats.length >= game.max_players) {
      toast(t("lobby.too_many", { game: gameTitle(game.name), n: game.max_players }));
      return;
    }
    const kind = h("select", { "aria-label": t("lobby.seat_kind"), class: "seat-kind" }, h("option", { value: "human", selected: init.kind === "human" }, t("lobby.human")), h("option", { value: "bot", selected: init.kind === "bot" }, t("lobby.bot")));
    const name = h("input", { type: "text", class: "seat-name", maxlength: 24, autocomplete: "off", value: init.name ?? "" }) as HTMLInputElement;
    const bots = game?.bots.length ? game.bots : [{ name: "random" }];
    // Expert by default where there is one: strong, and quick under any rules (optimal needs a solved table).
    const defaultBot = bots.some((b) => b.name === "expert") ? "expert" : bots[0].name;
    const bot = h("select", { class: "seat-bot", "aria-label": t("lobby.bot_level") }, bots.map((b) => h("option", { value: b.name, selected: b.name === defaultBot, title: botLine(b.name) }, botName(b.name))));
    const botInfo = h("p", { class: "seat-bot-info muted small", "data-testid": "bot-info", "aria-live": "polite" });
    const where = h(
      "select",
      { class: "seat-where", "aria-label": t("lobby.where"), title: t("lobby.where_hint") },
      h("option", { value: "here", selected: init.here ?? false }, t("lobby.where_here")),
      h("option", { value: "invite", selected: !(init.here ?? false) }, t("lobby.where_invite")),
      h("option", { value: "open" }, t("lobby.where_open")),
    );
    const remove = h("button", { type: "button", class: "btn icon remove-seat", "aria-label": t("lobby.remove_seat"), title: t("lobby.remove_seat") }, "✕");
    const num = h("span", { class: "seat-num" }, "");
    const youTag = h("span", { class: "you-tag", "data-testid": "seat-you", hidden: true }, t("thousand.you"));
    const row = h("div", { class: "seat-row" }, num, kind, name, youTag, bot, where, remove, botInfo);
    const sync = (): void => {
      const human = kind.value === "human";
      name.hidden = !human || where.value === "open";
      where.hidden = !human;
      bot.hidden = botInfo.hidden = human;
      botInfo.textContent = botLine(bot.value);
      syncSeats();
    };
    kind.addEventListener("change", sync);
    where.addEventListener("change", sync);
    bot.addEventListener("change", sync);
    name.addEventListener("input", () => {
      if (entry === meSeat()) myNameTouched = true;
    });
    const entry: SeatRow = {
      row,
      name,
      here: () => kind.value === "human" && where.value === "here",
      spec: () => {
        if (kind.value === "bot") return { kind: "bot", bot: bot.value };
        if (where.value === "open") return { kind: "human", open: true };
        // No name: the server keeps the seat language-neutral and every page words it in its own language.
        const typed = name.value.trim();
        // you (the first seat here): linked to this browser's player, under your name
        if (entry === meSeat()) return { kind: "human", name: typed || myDisplayName() || undefined, me: true };
        return { kind: "human", name: typed || undefined };
      },
    };
    remove.addEventListener("click", () => {
      if (seats.length <= 1) return toast(t("lobby.need_seat"));
      seats.splice(seats.indexOf(entry), 1);
      row.remove();
      syncSeats();
    });
    seats.push(entry);
    seatList.append(row);
    sync();
  }

  /** One line on a bot: what it does and how strong it measured (the figures come with the game catalogue). */
  function botLine(name: string): string {
    const info = game?.bots.find((b) => b.name === name);
    const does = tKey(`lobby.bot.${game?.name}.${name}`, tKey(`bot.${game?.name}.${name}.doc`, info?.doc ?? ""));
    const s = info?.strength;
    if (!s) return does;
    const measured =
      s.kind === "wins"
        ? t("bot.strength.wins", { percent: formatNumber(Math.round(s.share * 100)), bot: botName(s.against), games: formatNumber(s.games) })
        : t("bot.strength.solo_mean", { points: formatNumber(Math.round(s.points)), games: formatNumber(s.games) });
    return `${does} ${measured}`;
  }

  /** Numbers, which seat is you (its name field says "Your name"), and the hints default. */
  function syncSeats(): void {
    const me = meSeat();
    seats.forEach((s, i) => {
      (s.row.querySelector(".seat-num") as HTMLElement).textContent = `${i + 1}.`;
      const mine = s === me;
      s.name.placeholder = mine ? t("lobby.your_name") : t("lobby.name_optional");
      s.name.setAttribute("aria-label", mine ? t("lobby.your_name") : t("lobby.player_name"));
      if (mine) s.name.id = "my-name"; // (tests and the open-tables list read your name here)
      else s.name.removeAttribute("id");
      (s.row.querySelector(".you-tag") as HTMLElement).hidden = !mine;
    });
    defaultHints();
  }

  /** Until the player chose, hints follow the seats: on with at most one person, off between people. */
  function defaultHints(): void {
    if (hintsTouched) return;
    hintsBox.checked = seats.filter((s) => s.spec().kind === "human").length <= 1;
  }

  /** Ask the server whether the rules as typed make a game (POST /api/rules/check); quietly off if absent. */
  async function check(): Promise<void> {
    if (!game || !form) return;
    let overrides: Record<string, unknown>;
    try {
      overrides = form.overrides();
    } catch (err) {
      if (err instanceof RuleInputError) return form.offerFitted({}, {}); // already shown at the option
      throw err;
    }
    form.showErrors([]);
    if (!checkAvailable) return;
    const serial = ++checkSerial;
    try {
      const name = game.name;
      const res = await api.checkRules({ game: name, preset: selectedPreset(), overrides });
      if (serial !== checkSerial) return;
      // Shown as you type; Create stays available (the server refuses a bad table with the same message).
      form.showErrors(res.ok ? [] : res.errors.map((e) => ({ option: e.option, message: ruleProblemText(e, name) })));
      // Options the player left as they were that the server moved to fit those changed (Dice 1000's barrel, pits
      // and dump truck follow the winning score): said, with one click to show them in the form.
      form.offerFitted(res.ok ? res.rules : {}, overrides);
    } catch (err) {
      if (err instanceof ApiError && (err.status === 404 || err.status === 405)) checkAvailable = false; // an older server
    }
  }
  const scheduleCheck = (): void => {
    window.clearTimeout(checkTimer);
    checkTimer = window.setTimeout(() => void check(), CHECK_DELAY_MS);
  };

  async function loadRules(): Promise<void> {
    if (!game) return;
    const preset = selectedPreset();
    let options: RuleOption[];
    try {
      options = preset === game.default_preset ? game.options : await api.rules(game.name, preset);
    } catch (err) {
      toast(apiErrorText(err));
      return;
    }
    form = rulesForm(game.name, options, scheduleCheck, Object.keys(game.live_overrides ?? {}));
    clear(rulesBox);
    rulesBox.dataset.preset = preset;
    rulesBox.append(form.el);
  }

  function showGame(g: GameInfo): void {
    game = g;
    clear(presetBox);
    for (const p of g.live_presets ?? g.presets) {
      const id = `preset-${p}`;
      const radio = h("input", { type: "radio", name: "preset", id, value: p, checked: p === g.default_preset });
      radio.addEventListener("change", () => void loadRules());
      presetBox.append(
        h("label", { class: "preset", for: id }, radio, h("span", { class: "preset-text" }, h("b", null, presetName(g.name, p)), h("span", { class: "muted small" }, tKey(`preset.${g.name}.${p}.doc`, "")))),
      );
    }
    // A game without hints (yet) does not offer them; the catalogue says which have.
    hintsRow.hidden = hintsHint.hidden = g.hints === false;
    if (g.hints === false && hintsBox.checked) hintsBox.click(); // no hints in this game: nothing keeps it unrated
    addSeat({ kind: "human", name: myDisplayName(), here: true });
    addSeat({ kind: "bot" });
    void loadRules();
  }

  formEl.addEventListener("submit", async (e) => {
    e.preventDefault();
    if (!game || !form) return;
    const typed = meSeat()?.name.value.trim() ?? "";
    if (typed && typed !== myDisplayName()) {
      const problem = await saveName(typed); // the player's name, used for every new table
      if (problem !== null) return toast(problem);
    }
    let overrides: Record<string, unknown>;
    try {
      overrides = form.overrides();
    } catch (err) {
      if (err instanceof RuleInputError) return toast(err.message);
      throw err;
    }
    const dice: "rolled" | "real" = diceMode.value === "real" ? "real" : "rolled";
    const body = { game: game.name, preset: selectedPreset(), overrides, seats: seats.map((s) => s.spec()), dice, ...(game.hints === false ? {} : { hints: hintsBox.checked }), rated: rated.value() };
    const here = new Set(seats.flatMap((s, i) => (s.here() ? [i] : [])));
    createBtn.disabled = true;
    try {
      const created = await createTable(body);
      if (created === null) return; // the quota dialog was closed: nothing made
      if (body.rated && !created.rated) toast(unratedText(created.unrated)); // the server says why not
      for (const s of created.seats) if (s.token && here.has(s.seat)) saveToken(created.table_id, s.seat, s.token);
      // Every human seat on this device: nobody to invite, so straight to the table.
      if (created.seats.every((s) => s.kind === "bot" || here.has(s.seat))) navigate(`/table/${created.table_id}`);
      else showCreated(result, created, here);
    } catch (err) {
      // A rule set the server refuses: said at its option too, as the check as you type does.
      if (err instanceof ApiError && err.problem) form.showErrors([{ option: err.problem.option, message: ruleProblemText(err.problem, game.name) }]);
      toast(apiErrorText(err, game.name));
    } finally {
      createBtn.disabled = false;
    }
  });

  api
    .games()
    .then((list) => {
      const g = list.find((x) => x.name === gameName && x.name in VIEWS);
      if (g) showGame(g);
      else formEl.append(h("p", { class: "error" }, t("lobby.no_view", { game: gameTitle(gameName) })));
    })
    .catch((err: unknown) => formEl.append(h("p", { class: "error" }, t("lobby.cannot_reach", { detail: apiErrorText(err) }))));
  const stopTables = openTables(tablesBox, () => Object.keys(VIEWS), t("tables.none_lobby"), () => meSeat()?.name.value ?? myDisplayName());
  const stopFinished = finishedGames(finishedBox, Object.keys(VIEWS));
  return () => {
    window.clearTimeout(checkTimer);
    stopTables();
    stopFinished();
  };
}
