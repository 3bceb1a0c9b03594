// A new table with chosen rules: presets first, then the seats, then house rules grouped by topic (checked as
// you type); the open tables of the games with a board beside it.
import { api, ApiError, saveToken, type GameInfo, type RuleOption, type SeatSpec } from "./api";
import { loadMe, myDisplayName, saveName } from "./me";
import { showCreated } from "./created";
import { clear, h, navigate, toast } from "./dom";
import { apiErrorText, ruleProblemText } from "./errors";
import { t, tKey } from "./i18n";
import { botName, gameTitle, presetName } from "./names";
import { RuleInputError, rulesForm, type RulesForm } from "./rulesform";
import { finishedGames } from "./finished-list";
import { createTable } from "./quota";
import { openTables } from "./tables-list";
import { timeControl } from "./timecontrol";
import { VIEWS } from "./views";

const CHECK_DELAY_MS = 300;

interface SeatRow {
  row: HTMLElement;
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

  const myName = h("input", { id: "my-name", type: "text", maxlength: 24, autocomplete: "nickname", value: myDisplayName() });
  void loadMe().then(() => {
    if (!myName.value) myName.value = myDisplayName();
  });
  const presetBox = h("div", { class: "presets", role: "radiogroup", "data-testid": "presets" });
  const rulesBox = h("div", { class: "rules-box", "data-testid": "rules-box" });
  const seatList = h("div", { class: "seats", "data-testid": "seats" });
  const addSeatBtn = h("button", { type: "button", class: "btn", id: "add-seat", onclick: () => addSeat({ kind: "bot" }) }, t("lobby.add_seat"));
  const createBtn = h("button", { type: "submit", class: "btn primary big", id: "create" }, t("lobby.create"));
  const diceMode = h(
    "select",
    { id: "dice-mode", "data-testid": "dice-mode", title: t("lobby.dice_hint") },
    h("option", { value: "rolled", selected: true }, t("lobby.dice_rolled")),
    h("option", { value: "real" }, t("lobby.dice_real")),
  );
  // Hints: on by default alone and against bots, off between people, until the player sets it here.
  const hintsBox = h("input", { type: "checkbox", id: "hints-allowed", "data-testid": "hints-option", checked: true });
  let hintsTouched = false;
  hintsBox.addEventListener("change", () => (hintsTouched = true));
  const timing = timeControl(); // live, or days a move (correspondence)
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
    h("div", { class: "row" }, h("label", { for: "my-name" }, t("lobby.your_name")), myName),
    seatList,
    h("p", { class: "row" }, addSeatBtn),
    h("div", { class: "row" }, h("label", { for: "dice-mode" }, t("lobby.dice")), diceMode),
    h("p", { class: "muted small" }, t("lobby.dice_hint")),
    h("div", { class: "row" }, hintsBox, h("label", { for: "hints-allowed" }, t("lobby.hints"))),
    h("p", { class: "muted small" }, t("lobby.hints_hint")),
    timing.el,
    h("h2", null, t("lobby.house_rules")),
    h("p", { class: "muted small" }, t("lobby.house_rules_hint")),
    rulesBox,
    h("p", null, createBtn),
  );
  app.append(
    h(
      "section",
      { class: "lobby" },
      h("div", null, formEl, result),
      h("div", null, h("section", { class: "card" }, h("h2", null, t("tables.title")), tablesBox), h("section", { class: "card" }, h("h2", null, t("finished.title")), finishedBox)),
    ),
  );

  const selectedPreset = (): string => (presetBox.querySelector("input:checked") as HTMLInputElement | null)?.value ?? game?.default_preset ?? "";
  const botNames = (): string[] => {
    const names = (game?.bots ?? []).map((b) => b.name);
    return names.length ? names : ["random"];
  };

  function addSeat(init: { kind: "human" | "bot"; name?: string; here?: boolean }): void {
    if (game && seats.length >= game.max_players) {
      toast(t("lobby.too_many", { game: gameTitle(game.name), n: game.max_players }));
      return;
    }
    const kind = h("select", { "aria-label": t("lobby.seat_kind"), class: "seat-kind" }, h("option", { value: "human", selected: init.kind === "human" }, t("lobby.human")), h("option", { value: "bot", selected: init.kind === "bot" }, t("lobby.bot")));
    const name = h("input", { type: "text", class: "seat-name", placeholder: t("lobby.name_optional"), maxlength: 32, value: init.name ?? "", "aria-label": t("lobby.player_name") });
    const defaultBot = botNames().includes("expert") ? "expert" : botNames()[0];
    const bot = h("select", { class: "seat-bot", "aria-label": t("lobby.bot_level") }, botNames().map((b) => h("option", { value: b, selected: b === defaultBot, title: tKey(`bot.${game?.name}.${b}.doc`, tKey(`bot.${b}.doc`, "")) }, botName(b))));
    const where = h(
      "select",
      { class: "seat-where", "aria-label": t("lobby.where"), title: t("lobby.where_hint") },
      h("option", { value: "here", selected: init.here ?? false }, t("lobby.where_here")),
      h("option", { value: "invite", selected: !(init.here ?? false) }, t("lobby.where_invite")),
      h("option", { value: "open" }, t("lobby.where_open")),
    );
    const remove = h("button", { type: "button", class: "btn icon remove-seat", "aria-label": t("lobby.remove_seat"), title: t("lobby.remove_seat") }, "✕");
    const num = h("span", { class: "seat-num" }, "");
    const row = h("div", { class: "seat-row" }, num, kind, name, bot, where, remove);
    const sync = (): void => {
      const human = kind.value === "human";
      name.hidden = !human || where.value === "open";
      where.hidden = !human;
      bot.hidden = human;
      defaultHints();
    };
    kind.addEventListener("change", sync);
    where.addEventListener("change", sync);
    sync();
    const entry: SeatRow = {
      row,
      here: () => kind.value === "human" && where.value === "here",
      spec: () => {
        if (kind.value === "bot") return { kind: "bot", bot: bot.value };
        if (where.value === "open") return { kind: "human", open: true };
        const i = seats.indexOf(entry);
        const fallback = where.value === "here" && i === seats.findIndex((s) => s.here()) ? myName.value.trim() : "";
        // No name: the server keeps the seat language-neutral and every page words it in its own language.
        const typed = name.value.trim();
        // the creator's own seat (the first one here, under its name): linked to this browser's player
        const me = where.value === "here" && i === seats.findIndex((s) => s.here()) && (!typed || typed === fallback);
        return { kind: "human", name: typed || fallback || undefined, ...(me ? { me: true } : {}) };
      },
    };
    remove.addEventListener("click", () => {
      if (seats.length <= 1) return toast(t("lobby.need_seat"));
      seats.splice(seats.indexOf(entry), 1);
      row.remove();
      renumber();
      defaultHints();
    });
    seats.push(entry);
    seatList.append(row);
    renumber();
    defaultHints();
  }

  /** Until the player chose, hints follow the seats: on with at most one person, off between people. */
  function defaultHints(): void {
    if (hintsTouched) return;
    hintsBox.checked = seats.filter((s) => s.spec().kind === "human").length <= 1;
  }

  function renumber(): void {
    seats.forEach((s, i) => ((s.row.querySelector(".seat-num") as HTMLElement).textContent = `${i + 1}.`));
  }

  /** Ask the server whether the rules as typed make a game (POST /api/rules/check); quietly off if absent. */
  async function check(): Promise<void> {
    if (!game || !form) return;
    let overrides: Record<string, unknown>;
    try {
      overrides = form.overrides();
    } catch (err) {
      if (err instanceof RuleInputError) return; // already shown at the option
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
    form = rulesForm(game.name, options, scheduleCheck);
    clear(rulesBox);
    rulesBox.dataset.preset = preset;
    rulesBox.append(form.el);
  }

  function showGame(g: GameInfo): void {
    game = g;
    clear(presetBox);
    for (const p of g.presets) {
      const id = `preset-${p}`;
      const radio = h("input", { type: "radio", name: "preset", id, value: p, checked: p === g.default_preset });
      radio.addEventListener("change", () => void loadRules());
      presetBox.append(
        h("label", { class: "preset", for: id }, radio, h("span", { class: "preset-text" }, h("b", null, presetName(g.name, p)), h("span", { class: "muted small" }, tKey(`preset.${g.name}.${p}.doc`, "")))),
      );
    }
    addSeat({ kind: "human", name: myName.value.trim(), here: true });
    addSeat({ kind: "bot" });
    void loadRules();
  }

  formEl.addEventListener("submit", async (e) => {
    e.preventDefault();
    if (!game || !form) return;
    const typed = myName.value.trim();
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
    const here = new Set(seats.flatMap((s, i) => (s.here() ? [i] : [])));
    const timingProblem = timing.problem(here.size, seats.filter((s) => s.spec().kind === "human").length);
    if (timingProblem !== null) return toast(timingProblem);
    const body = { game: game.name, preset: selectedPreset(), overrides, seats: seats.map((s) => s.spec()), dice, hints: hintsBox.checked, move_days: timing.moveDays() };
    createBtn.disabled = true;
    try {
      const created = await createTable(body);
      if (created === null) return; // the quota dialog was closed: nothing made
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
  const stopTables = openTables(tablesBox, () => Object.keys(VIEWS), t("tables.none_lobby"), () => myName.value);
  const stopFinished = finishedGames(finishedBox, Object.keys(VIEWS));
  return () => {
    window.clearTimeout(checkTimer);
    stopTables();
    stopFinished();
  };
}
