// The player behind this browser (a guest identity kept by an HttpOnly cookie, docs/players-design.md step 1): its
// display name, asked once at the first table and editable from the top bar's name chip, used for every new table.
import { openAccountDialog } from "./account";
import { ApiError, api, type Player } from "./api";
import { h, toast } from "./dom";
import { apiErrorText, ruleProblemText } from "./errors";
import { t } from "./i18n";
import { showTurnCount } from "./notify";

const LEGACY_NAME = "dicehall.name"; // where older pages kept a typed name: sent to the server once, then dropped
const ASKED = "dicehall.name_asked"; // the name prompt was shown (and perhaps skipped): it is not shown again

let me: Player | null = null;
let loaded: Promise<Player | null> | null = null;
const listeners = new Set<() => void>();

/** The player (null for a browser that never created or joined a table), fetched once per page load. */
export function loadMe(): Promise<Player | null> {
  loaded ??= api
    .me()
    .then(async (r) => {
      me = r.player;
      const legacy = localStorage.getItem(LEGACY_NAME)?.trim();
      if (legacy && !me?.name) {
        try {
          me = (await api.setName(legacy)).player;
        } catch {
          // a name today's rules refuse ("Player 1", too long): the prompt asks again
        }
      }
      if (legacy !== undefined) localStorage.removeItem(LEGACY_NAME);
      changed();
      return me;
    })
    .catch(() => null);
  return loaded;
}

/** The display name, or "" when the player has none (the server then words the seat in each reader's language). */
export const myDisplayName = (): string => me?.name ?? "";

/** The player's id (null before it has one). */
export const myId = (): string | null => me?.id ?? null;

export function onMeChange(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

function changed(): void {
  for (const l of listeners) l();
}

/** Save `name` as this player's; resolves to an error text in the page's language when it is refused. */
export async function saveName(name: string): Promise<string | null> {
  try {
    me = (await api.setName(name)).player;
    localStorage.setItem(ASKED, "1");
    changed();
    return null;
  } catch (err) {
    if (err instanceof ApiError && err.problem) return ruleProblemText(err.problem, "");
    return apiErrorText(err);
  }
}

/** A small form: one field and a button; `done` runs after the name is saved (or skipped, when `skip` is set). */
export function nameForm(opts: { submit: string; skip?: string; done: (saved: boolean) => void }): HTMLFormElement {
  const input = h("input", {
    type: "text",
    id: "me-name",
    name: "name",
    maxlength: 24,
    autocomplete: "nickname",
    required: true,
    value: myDisplayName(),
    "aria-label": t("lobby.your_name"),
    "data-testid": "name-input",
  });
  const error = h("p", { class: "form-error", role: "alert", "data-testid": "name-error", hidden: true });
  const submit = h("button", { type: "submit", class: "btn primary", "data-testid": "name-save" }, opts.submit);
  const form = h("form", { class: "name-form", novalidate: true }, h("div", { class: "name-row" }, input, submit), error);
  if (opts.skip) {
    const skip = h("button", { type: "button", class: "btn ghost", "data-testid": "name-skip" }, opts.skip);
    skip.addEventListener("click", () => {
      localStorage.setItem(ASKED, "1");
      opts.done(false);
    });
    form.append(skip);
  }
  form.addEventListener("submit", (e) => {
    e.preventDefault();
    submit.disabled = true;
    void saveName(input.value).then((problem) => {
      submit.disabled = false;
      error.hidden = problem === null;
      error.textContent = problem ?? "";
      if (problem === null) opts.done(true);
      else input.focus();
    });
  });
  queueMicrotask(() => input.focus());
  return form;
}

let asking: Promise<void> | null = null;

/** Before the first table: ask the name once (a dialog over the page); resolves when answered or skipped. A second
 * click meanwhile waits for the same dialog. */
export function askNameOnce(): Promise<void> {
  asking ??= ask().finally(() => (asking = null));
  return asking;
}

async function ask(): Promise<void> {
  await loadMe();
  if (myDisplayName() || localStorage.getItem(ASKED)) return;
  return new Promise((resolve) => {
    const close = (): void => {
      overlay.remove();
      resolve();
    };
    const form = nameForm({ submit: t("me.ask.play"), skip: t("me.ask.skip"), done: close });
    const box = h(
      "div",
      { class: "card name-prompt", role: "dialog", "aria-modal": "true", "aria-labelledby": "me-ask-title", "data-testid": "name-prompt" },
      h("h2", { id: "me-ask-title" }, t("me.ask.title")),
      h("p", { class: "muted" }, t("me.ask.hint")),
      form,
    );
    const overlay = h("div", { class: "name-overlay" }, box);
    overlay.addEventListener("keydown", (e) => {
      if (e.key === "Escape") {
        localStorage.setItem(ASKED, "1");
        close();
      }
    });
    document.body.append(overlay);
  });
}

/** The top bar's name chip: the name (or "Set your name"); a click opens the account dialog (account.ts): the name
 * editor, and passkeys to keep this player on other devices. */
export function nameChip(): HTMLElement {
  const chip = h("span", { class: "name-chip-box" });
  const draw = (): void => {
    const button = h(
      "button",
      {
        type: "button",
        class: "name-chip",
        "data-testid": "name-chip",
        title: t("me.chip.title"),
        "aria-haspopup": "dialog",
      },
      myDisplayName() ? h("bdi", { translate: "no" }, myDisplayName()) : t("me.chip.unnamed"),
    );
    // (after the player is known: a click just after the page opened must not show "not played yet" to a player)
    button.addEventListener("click", () =>
      void loadMe().then(() => openAccountDialog(button, {
        player: () => me,
        changed: (player) => {
          me = player;
          changed();
        },
        nameForm: () => nameForm({ submit: t("me.save"), done: () => toast(t("me.saved"), "info") }),
      })),
    );
    chip.replaceChildren(button);
  };
  draw();
  const stop = onMeChange(() => (chip.isConnected ? draw() : stop())); // a chip replaced by a newer one stops

  void loadMe();
  return chip;
}

// -- "(N) " before the tab's title while it is your turn at N tables (polled every 15 s on every page) ------------
const SUMMARY_MS = 15_000;
let pageTitle = document.title;
let yourTurn = 0;
let polling = 0;

function drawTitle(): void {
  document.title = yourTurn > 0 ? `(${yourTurn}) ${pageTitle}` : pageTitle;
  showTurnCount(yourTurn);
}

/** The page's own title (the router sets it); shown with the count of tables waiting for this player's move. */
export function setPageTitle(title: string): void {
  pageTitle = title;
  drawTitle();
}

async function pollSummary(): Promise<void> {
  try {
    yourTurn = (await api.mySummary()).your_turn;
  } catch {
    return; // offline for a moment: the count stays as it was
  }
  drawTitle();
}

/** Start polling the summary (once per page load). */
export function watchYourTurn(): void {
  if (polling) return;
  void pollSummary();
  polling = window.setInterval(() => void pollSummary(), SUMMARY_MS);
}
