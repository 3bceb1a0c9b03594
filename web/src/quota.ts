// Creating a table when the player already has as many unfinished ones as a player may (docs/players-design.md
// step 4): the server's refusal in the reader's words, the oldest of those tables, a link to "Your games", and one
// click to resign the oldest and start the new table anyway. A player is never stuck behind the quota.
import { ApiError, api, loadTokens, type CreatedTable, type TableSeat } from "./api";
import { h } from "./dom";
import { apiErrorText, quotaText } from "./errors";
import { formatAgo, formatList, t } from "./i18n";
import { gameTitle, seatLabel } from "./names";

/** One of the player's unfinished tables, as a quota refusal lists them (least recently active first). */
interface Unfinished {
  table_id: string;
  game: string;
  created: number;
  last_activity: number;
  seats: TableSeat[];
  my_seats: number[];
}

type CreateBody = Parameters<typeof api.createTable>[0];

/** `api.createTable`, but a refusal by the player's unfinished-tables quota opens the quota dialog: resolves with the
 * table made after the player resigned the oldest, or null when they closed the dialog. Other errors are thrown. */
export async function createTable(body: CreateBody): Promise<CreatedTable | null> {
  try {
    return await api.createTable(body);
  } catch (err) {
    const listed = unfinishedOf(err);
    if (!listed) throw err;
    return quotaDialog(err as ApiError, listed, () => api.createTable(body));
  }
}

function unfinishedOf(err: unknown): Unfinished[] | null {
  if (!(err instanceof ApiError) || err.status !== 429 || err.code !== "too_many_unfinished") return null;
  const listed = (err.body as { unfinished?: unknown } | undefined)?.unfinished;
  return Array.isArray(listed) ? (listed as Unfinished[]) : null;
}

/** The seat this browser can resign at a table: one linked to the player, else one whose token it keeps. */
function resignableSeat(u: Unfinished): { seat: number; token?: string } | null {
  const tokens = loadTokens(u.table_id);
  for (const seat of u.my_seats) return { seat, token: tokens[seat] };
  const held = Object.keys(tokens).map(Number).sort((a, b) => a - b);
  return held.length ? { seat: held[0], token: tokens[held[0]] } : null;
}

function describe(u: Unfinished): string {
  const people = formatList(u.seats.map(seatLabel));
  const ago = formatAgo(u.last_activity);
  return t("quota.table", { game: gameTitle(u.game), seats: people, when: ago ?? t("quota.just_now") });
}

function quotaDialog(err: ApiError, listed: Unfinished[], retry: () => Promise<CreatedTable>): Promise<CreatedTable | null> {
  return new Promise((resolve) => {
    const dialog = h("dialog", { class: "card quota-dialog", "aria-labelledby": "quota-title", "data-testid": "quota-dialog" });
    const finish = (made: CreatedTable | null): void => {
      dialog.close();
      dialog.remove();
      resolve(made);
    };
    dialog.addEventListener("cancel", (e) => {
      e.preventDefault();
      finish(null);
    });
    const status = h("p", { class: "form-error", role: "alert", "data-testid": "quota-error", hidden: true });
    const oldest = listed.find((u) => resignableSeat(u) !== null);
    const cancel = (): HTMLButtonElement => h("button", { type: "button", class: "btn ghost", "data-testid": "quota-cancel", onclick: () => finish(null) }, t("common.cancel"));
    const yourGames = h("a", { href: "/#your-games", "data-link": true, class: "btn", "data-testid": "quota-your-games", onclick: () => finish(null) }, t("quota.your_games"));

    const first = (): void => {
      const actions: HTMLElement[] = [];
      if (oldest) {
        actions.push(h("button", { type: "button", class: "btn primary", "data-testid": "quota-resign-oldest", onclick: () => confirm(oldest) }, t("quota.resign_oldest")));
      }
      actions.push(yourGames, cancel());
      dialog.replaceChildren(
        h("h2", { id: "quota-title" }, t("quota.title")),
        h("p", { "data-testid": "quota-reason" }, quotaText(err) ?? apiErrorText(err)),
        h("p", { class: "muted" }, t("quota.oldest_are")),
        h("ul", { class: "quota-list" }, ...listed.slice(0, 3).map((u) => h("li", null, describe(u)))),
        status,
        h("div", { class: "dialog-actions" }, ...actions),
      );
    };

    const confirm = (u: Unfinished): void => {
      const go = h("button", { type: "button", class: "btn primary danger", "data-testid": "quota-confirm" }, t("quota.confirm"));
      go.addEventListener("click", () => {
        const seat = resignableSeat(u);
        if (!seat) return;
        go.disabled = true;
        go.setAttribute("aria-busy", "true");
        void api
          .resign(u.table_id, seat.seat, seat.token)
          .then(retry)
          .then(finish)
          .catch((e: unknown) => {
            go.disabled = false;
            go.removeAttribute("aria-busy");
            status.hidden = false;
            status.textContent = apiErrorText(e);
          });
      });
      dialog.replaceChildren(
        h("h2", { id: "quota-title" }, t("quota.confirm_title")),
        h("p", null, describe(u)),
        h("p", null, t("quota.resign_effect")),
        status,
        h("div", { class: "dialog-actions" }, go, h("button", { type: "button", class: "btn ghost", onclick: first }, t("quota.back"))),
      );
      go.focus();
    };

    first();
    document.body.append(dialog);
    dialog.showModal();
  });
}
