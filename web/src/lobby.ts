// The lobby: create a table (preset, house rules generated from the server's option list, seats) and
// join or watch open tables.
import { api, saveToken, type CreatedTable, type GameInfo, type RuleOption, type SeatSpec, type TableInfo } from "./api";
import { clear, h, navigate, toast } from "./dom";
import { VIEWS } from "./views";

const REFRESH_MS = 4000;

interface SeatRow {
  row: HTMLElement;
  spec(): SeatSpec;
  here(): boolean;
}

function humanize(key: string): string {
  const s = key.replace(/_/g, " ");
  return s.charAt(0).toUpperCase() + s.slice(1);
}

/** One input per rule option: checkbox for booleans, select for choices, number for numbers, JSON text otherwise. */
function optionInput(opt: RuleOption): { el: HTMLElement; read(): unknown } {
  const id = `opt-${opt.key}`;
  const label = h("label", { for: id, title: opt.doc }, h("span", { class: "opt-name" }, humanize(opt.key)), h("span", { class: "opt-doc" }, opt.doc));
  const t = (opt.type || "").toLowerCase();
  if (typeof opt.value === "boolean" || t === "bool" || t === "boolean") {
    const box = h("input", { id, type: "checkbox", name: opt.key, "data-key": opt.key, checked: Boolean(opt.value) });
    return { el: h("div", { class: "opt opt-bool" }, box, label), read: () => box.checked };
  }
  if (opt.choices && opt.choices.length) {
    const sel = h("select", { id, name: opt.key, "data-key": opt.key }, opt.choices.map((c) => h("option", { value: c, selected: c === opt.value }, c)));
    return { el: h("div", { class: "opt" }, label, sel), read: () => sel.value };
  }
  if (typeof opt.value === "number" || t === "int" || t === "float") {
    const isInt = t === "int" || (t !== "float" && Number.isInteger(opt.value));
    const num = h("input", { id, type: "number", name: opt.key, "data-key": opt.key, value: String(opt.value ?? ""), step: isInt ? "1" : "any", inputmode: isInt ? "numeric" : "decimal" });
    return { el: h("div", { class: "opt" }, label, num), read: () => (num.value === "" ? null : Number(num.value)) };
  }
  if (typeof opt.value === "string") {
    const txt = h("input", { id, type: "text", name: opt.key, "data-key": opt.key, value: opt.value });
    return { el: h("div", { class: "opt" }, label, txt), read: () => txt.value };
  }
  // Tuples, optional numbers, ...: edited as JSON.
  const txt = h("input", { id, type: "text", name: opt.key, "data-key": opt.key, value: JSON.stringify(opt.value), spellcheck: false });
  return {
    el: h("div", { class: "opt" }, label, txt),
    read: () => {
      try {
        return JSON.parse(txt.value);
      } catch {
        throw new Error(`${humanize(opt.key)}: ${txt.value} is not valid JSON`);
      }
    },
  };
}

function absoluteInvite(invite: string): string {
  return new URL(invite, location.origin).toString();
}

export function renderLobby(app: HTMLElement): () => void {
  let games: GameInfo[] = [];
  let game: GameInfo | null = null;
  let options: RuleOption[] = [];
  let readers: { opt: RuleOption; el: HTMLElement; read(): unknown }[] = [];
  const seats: SeatRow[] = [];
  let refreshTimer: number | undefined;
  let alive = true;

  const myName = h("input", { id: "my-name", type: "text", maxlength: 32, autocomplete: "nickname", value: localStorage.getItem("dicehall.name") ?? "" });
  myName.addEventListener("change", () => localStorage.setItem("dicehall.name", myName.value.trim()));
  const gameSel = h("select", { id: "game", name: "game" });
  const presetSel = h("select", { id: "preset", name: "preset" });
  const rulesBox = h("div", { class: "rules-grid", "data-testid": "rules" });
  const seatList = h("div", { class: "seats", "data-testid": "seats" });
  const addSeatBtn = h("button", { type: "button", class: "btn", onclick: () => addSeat({ kind: "bot" }) }, "+ Add seat");
  const createBtn = h("button", { type: "submit", class: "btn primary big", id: "create" }, "Create table");
  const result = h("div", { class: "card created", hidden: true, "data-testid": "created" });
  const tablesBox = h("div", { class: "table-list", "data-testid": "open-tables" }, h("p", { class: "muted" }, "Loading…"));

  const form = h(
    "form",
    { class: "card create", id: "create-form" },
    h("h2", null, "New table"),
    h("div", { class: "row" }, h("label", { for: "my-name" }, "Your name"), myName),
    h("div", { class: "row" }, h("label", { for: "game" }, "Game"), gameSel),
    h("div", { class: "row" }, h("label", { for: "preset" }, "Rules preset"), presetSel),
    h("details", { class: "house-rules" }, h("summary", null, "House rules"), rulesBox),
    h("h3", null, "Seats"),
    seatList,
    h("p", { class: "row" }, addSeatBtn),
    h("p", null, createBtn),
  );
  app.append(
    h("section", { class: "lobby" }, h("div", null, form, result), h("section", { class: "card" }, h("h2", null, "Open tables"), tablesBox)),
  );

  function botNames(): string[] {
    const names = (game?.bots ?? []).map((b) => b.name);
    return names.length ? names : ["random"];
  }

  function addSeat(init: { kind: "human" | "bot"; name?: string; here?: boolean }): void {
    if (game && seats.length >= game.max_players) {
      toast(`${game.title} takes at most ${game.max_players} players`);
      return;
    }
    const kind = h("select", { "aria-label": "Seat kind", class: "seat-kind" }, h("option", { value: "human", selected: init.kind === "human" }, "Human"), h("option", { value: "bot", selected: init.kind === "bot" }, "Bot"));
    const name = h("input", { type: "text", class: "seat-name", placeholder: "Name (optional)", maxlength: 32, value: init.name ?? "", "aria-label": "Player name" });
    const defaultBot = botNames().includes("expert") ? "expert" : botNames()[0];
    const bot = h("select", { class: "seat-bot", "aria-label": "Bot level" }, botNames().map((b) => h("option", { value: b, selected: b === defaultBot, title: game?.bots.find((x) => x.name === b)?.doc ?? "" }, b)));
    // Where a human seat is played: this browser (several = hot seat), by invite link, or open to anyone.
    const where = h(
      "select",
      { class: "seat-where", "aria-label": "Who plays this seat", title: "This device: you play it here (several = hot seat). Invite: send its link. Open: anyone may take it from the list." },
      h("option", { value: "here", selected: init.here ?? false }, "this device"),
      h("option", { value: "invite", selected: !(init.here ?? false) }, "invite link"),
      h("option", { value: "open" }, "open seat"),
    );
    const remove = h("button", { type: "button", class: "btn icon", "aria-label": "Remove seat", title: "Remove seat" }, "✕");
    const num = h("span", { class: "seat-num" }, "");
    const row = h("div", { class: "seat-row" }, num, kind, name, bot, where, remove);
    const sync = (): void => {
      const human = kind.value === "human";
      name.hidden = !human || where.value === "open";
      where.hidden = !human;
      bot.hidden = human;
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
        const fallback = where.value === "here" && seats.indexOf(entry) === firstHere() ? myName.value.trim() : "";
        return { kind: "human", name: name.value.trim() || fallback || undefined };
      },
    };
    remove.addEventListener("click", () => {
      if (seats.length <= (game?.min_players ?? 1)) return toast("A table needs at least one seat");
      seats.splice(seats.indexOf(entry), 1);
      row.remove();
      renumber();
    });
    seats.push(entry);
    seatList.append(row);
    renumber();
  }

  function firstHere(): number {
    return seats.findIndex((s) => s.here());
  }

  function renumber(): void {
    seats.forEach((s, i) => ((s.row.querySelector(".seat-num") as HTMLElement).textContent = `${i + 1}.`));
  }

  async function loadRules(): Promise<void> {
    if (!game) return;
    try {
      options = presetSel.value === game.default_preset ? game.options : await api.rules(game.name, presetSel.value);
    } catch (err) {
      toast((err as Error).message);
      return;
    }
    clear(rulesBox);
    rulesBox.dataset.preset = presetSel.value;
    readers = options.map((opt) => {
      const input = optionInput(opt);
      rulesBox.append(input.el);
      return { opt, el: input.el, read: input.read };
    });
  }

  function selectGame(name: string): void {
    game = games.find((g) => g.name === name) ?? null;
    if (!game) return;
    clear(presetSel);
    for (const p of game.presets) presetSel.append(h("option", { value: p, selected: p === game.default_preset }, p));
    seats.splice(0).forEach((s) => s.row.remove());
    addSeat({ kind: "human", name: myName.value.trim(), here: true });
    addSeat({ kind: "bot" });
    void loadRules();
  }

  function overrides(): Record<string, unknown> {
    const out: Record<string, unknown> = {};
    for (const { opt, read } of readers) {
      const value = read();
      if (JSON.stringify(value) !== JSON.stringify(opt.value)) out[opt.key] = value;
    }
    return out;
  }

  function showCreated(created: CreatedTable, here: Set<number>): void {
    clear(result);
    result.hidden = false;
    const link = (seatNo: number, invite: string) => {
      const url = absoluteInvite(invite);
      const input = h("input", { type: "text", readonly: true, value: url, "aria-label": `Invite link for seat ${seatNo + 1}`, class: "invite" });
      const copy = h("button", { type: "button", class: "btn", onclick: async () => {
        input.select();
        try {
          await navigator.clipboard.writeText(url);
          toast("Invite link copied", "info");
        } catch {
          document.execCommand?.("copy");
        }
      } }, "Copy");
      return h("span", { class: "invite-box" }, input, copy);
    };
    result.append(
      h("h2", null, "Table ready"),
      h(
        "ul",
        { class: "created-seats" },
        created.seats.map((s) =>
          h(
            "li",
            { "data-seat": s.seat },
            h("b", null, `${s.seat + 1}. ${s.name}`),
            " ",
            s.kind === "bot" ? h("span", { class: "badge" }, "bot") : here.has(s.seat) ? h("span", { class: "badge seat" }, "this device") : s.token ? h("span", { class: "badge" }, "invite") : h("span", { class: "badge" }, "open seat"),
            s.invite ? link(s.seat, s.invite) : null,
          ),
        ),
      ),
      h("p", { class: "muted" }, "Send each other player their own invite link; anyone else can watch from the open tables list."),
      h("p", null, h("a", { class: "btn primary big", href: `/table/${created.table_id}`, "data-link": true, id: "go-table" }, "Go to the table →")),
    );
    result.scrollIntoView({ behavior: "smooth", block: "start" });
  }

  form.addEventListener("submit", async (e) => {
    e.preventDefault();
    if (!game) return;
    localStorage.setItem("dicehall.name", myName.value.trim());
    let body;
    try {
      body = { game: game.name, preset: presetSel.value, overrides: overrides(), seats: seats.map((s) => s.spec()) };
    } catch (err) {
      toast((err as Error).message);
      return;
    }
    const here = new Set(seats.flatMap((s, i) => (s.here() ? [i] : [])));
    createBtn.disabled = true;
    try {
      const created = await api.createTable(body);
      for (const s of created.seats) if (s.token && here.has(s.seat)) saveToken(created.table_id, s.seat, s.token);
      showCreated(created, here);
      void refreshTables();
    } catch (err) {
      toast((err as Error).message);
    } finally {
      createBtn.disabled = false;
    }
  });
  // Options changed from the preset are marked, so the house rules in force are easy to see.
  const markChanged = (): void => {
    for (const r of readers) {
      let changed = false;
      try {
        changed = JSON.stringify(r.read()) !== JSON.stringify(r.opt.value);
      } catch {
        changed = true;
      }
      r.el.classList.toggle("changed", changed);
    }
  };
  rulesBox.addEventListener("input", markChanged);
  rulesBox.addEventListener("change", markChanged);
  gameSel.addEventListener("change", () => selectGame(gameSel.value));
  presetSel.addEventListener("change", () => void loadRules());

  function tableRow(t: TableInfo): HTMLElement {
    const title = games.find((g) => g.name === t.game)?.title ?? t.game;
    const free = t.seats.filter((s) => s.kind === "human" && s.claimed === false);
    return h(
      "li",
      { class: "table-item", "data-table": t.table_id },
      h("div", null, h("b", null, title), " ", h("span", { class: "muted" }, `${t.preset ?? ""} · ${t.status}`)),
      h("div", { class: "muted small" }, t.seats.map((s) => `${s.name}${s.kind === "bot" ? " (bot)" : s.claimed === false ? " (free)" : ""}`).join(", ")),
      h(
        "div",
        { class: "table-actions" },
        free.map((s) =>
          h("button", { type: "button", class: "btn primary", onclick: async () => {
            const who = myName.value.trim() || `Player ${s.seat + 1}`;
            try {
              const res = await api.join(t.table_id, s.seat, who);
              saveToken(t.table_id, res.seat, res.token);
              navigate(`/table/${t.table_id}`);
            } catch (err) {
              toast((err as Error).message);
            }
          } }, `Join seat ${s.seat + 1}`),
        ),
        h("a", { class: "btn", href: `/table/${t.table_id}`, "data-link": true }, "Watch"),
      ),
    );
  }

  async function refreshTables(): Promise<void> {
    try {
      const list = await api.openTables();
      if (!alive) return;
      clear(tablesBox);
      if (!list.length) tablesBox.append(h("p", { class: "muted" }, "No open tables yet — create one above."));
      else tablesBox.append(h("ul", { class: "tables" }, list.map(tableRow)));
    } catch (err) {
      if (!alive) return;
      clear(tablesBox);
      tablesBox.append(h("p", { class: "error" }, `Cannot list tables: ${(err as Error).message}`));
    }
  }

  api
    .games()
    .then((list) => {
      games = list.filter((g) => g.name in VIEWS);
      clear(gameSel);
      for (const g of games) gameSel.append(h("option", { value: g.name }, g.title));
      if (games.length) selectGame(games[0].name);
      else form.append(h("p", { class: "error" }, "The server offers no game this front end can show."));
    })
    .catch((err: Error) => form.append(h("p", { class: "error" }, `Cannot reach the server: ${err.message}`)));
  void refreshTables();
  refreshTimer = window.setInterval(() => void refreshTables(), REFRESH_MS);

  return () => {
    alive = false;
    window.clearInterval(refreshTimer);
  };
}
