// The open tables (waiting for players or in play): take a free seat or watch. Refreshed every 4 s.
import { api, saveToken, type TableInfo } from "./api";
import { clear, h, navigate, toast } from "./dom";
import { apiErrorText } from "./errors";
import { formatAgo, t } from "./i18n";
import { saveName } from "./me";
import { gameTitle, myName, presetName, seatLabel } from "./names";

const REFRESH_MS = 4000;
const ABANDONED_SHOWN = 5;

function statusText(status: string): string {
  return t(status === "waiting" ? "tables.waiting" : status === "abandoned" ? "tables.abandoned" : "tables.playing");
}

function started(created: number): string {
  const ago = formatAgo(created);
  return ago === null ? t("tables.started_now") : t("tables.started", { when: ago });
}

/** Fills `box` with the open tables and keeps it fresh; returns the cleanup. `games`: the games with a view;
 * `typedName`: a name field on the same page (the lobby's), saved as the player's name before a join. */
export function openTables(box: HTMLElement, games: () => string[], emptyHint: string, typedName?: () => string, joinable = false): () => void {
  let alive = true;
  box.setAttribute("data-testid", "open-tables");
  box.append(h("p", { class: "muted" }, t("common.loading")));

  const row = (tb: TableInfo): HTMLElement => {
    // An abandoned table is closed: it can be looked at, not joined.
    const free = tb.status === "abandoned" ? [] : tb.seats.filter((s) => s.kind === "human" && s.claimed === false);
    return h(
      "li",
      { class: "table-item", "data-table": tb.table_id },
      h("div", null, h("b", null, gameTitle(tb.game)), " ", h("span", { class: "muted" }, `${tb.preset ? presetName(tb.game, tb.preset) : ""} · ${statusText(tb.status)}`)),
      h(
        "div",
        { class: "muted small" },
        // a person's name is theirs (translate="no"); bots and free seats are worded by the page
        tb.seats.flatMap((s, i) => [i ? ", " : "", s.kind === "human" && s.claimed !== false ? h("span", { translate: "no" }, seatLabel(s)) : seatLabel(s)]),
        typeof tb.created === "number" ? ` · ${started(tb.created)}` : "",
      ),
      h(
        "div",
        { class: "table-actions" },
        free.map((s) =>
          h(
            "button",
            {
              type: "button",
              class: "btn primary",
              "data-join": s.seat,
              onclick: async () => {
                try {
                  const typed = typedName?.().trim() ?? "";
                  if (typed && typed !== myName()) {
                    const problem = await saveName(typed);
                    if (problem !== null) return toast(problem);
                  }
                  const res = await api.join(tb.table_id, s.seat, typed || myName());
                  saveToken(tb.table_id, res.seat, res.token);
                  navigate(`/table/${tb.table_id}`);
                } catch (err) {
                  toast(apiErrorText(err));
                }
              },
            },
            t("tables.join", { n: s.seat + 1 }),
          ),
        ),
        h("a", { class: "btn", href: `/table/${tb.table_id}`, "data-link": true }, t("tables.watch")),
      ),
    );
  };

  const refresh = async (): Promise<void> => {
    try {
      const [open, abandoned] = await Promise.all([joinable ? api.joinableTables() : api.openTables(), api.abandonedTables(ABANDONED_SHOWN)]);
      const list = open.filter((tb) => games().includes(tb.game));
      const closed = abandoned.filter((tb) => games().includes(tb.game));
      if (!alive) return;
      clear(box);
      if (!list.length) box.append(h("p", { class: "muted" }, emptyHint));
      else box.append(h("ul", { class: "tables" }, list.map(row)));
      if (closed.length) {
        box.append(
          h("p", { class: "muted small" }, t("tables.abandoned_heading")),
          h("ul", { class: "tables", "data-testid": "abandoned-tables" }, closed.map(row)),
        );
      }
    } catch (err) {
      if (!alive) return;
      clear(box);
      box.append(h("p", { class: "error" }, t("tables.cannot_list", { detail: apiErrorText(err) })));
    }
  };
  void refresh();
  const timer = window.setInterval(() => void refresh(), REFRESH_MS);
  return () => {
    alive = false;
    window.clearInterval(timer);
  };
}
