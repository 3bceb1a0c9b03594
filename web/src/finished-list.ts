// Finished games of the games with a board, newest first, a page at a time ("More" asks for the next page after
// the last one shown): each opens its Analysis / replay page or downloads its record.
import { api, type TableInfo } from "./api";
import { clear, h } from "./dom";
import { apiErrorText } from "./errors";
import { formatAgo, t } from "./i18n";
import { gameTitle, presetName, seatLabel } from "./names";

const PAGE = 8;

export function finishedGames(box: HTMLElement, games: string[]): () => void {
  let alive = true;
  let last: number | undefined;
  box.setAttribute("data-testid", "finished-games");
  const list = h("ul", { class: "tables" });
  const more = h("button", { type: "button", class: "btn", "data-testid": "finished-more", hidden: true }, t("finished.more"));
  const status = h("p", { class: "muted" }, t("common.loading"));
  box.append(status, list, more);

  const row = (tb: TableInfo): HTMLElement => {
    const ago = typeof tb.created === "number" ? formatAgo(tb.created) : null;
    return h(
      "li",
      { class: "table-item", "data-table": tb.table_id },
      h("div", null, h("b", null, gameTitle(tb.game)), " ", h("span", { class: "muted" }, tb.preset ? presetName(tb.game, tb.preset) : "")),
      h(
        "div",
        { class: "muted small" },
        // a person's name is theirs (translate="no"); bots and free seats are worded by the page
        tb.seats.flatMap((s, i) => [i ? ", " : "", s.kind === "human" && s.claimed !== false ? h("span", { translate: "no" }, seatLabel(s)) : seatLabel(s)]),
        ago ? ` · ${t("tables.started", { when: ago })}` : "",
      ),
      h(
        "div",
        { class: "table-actions" },
        h("a", { class: "btn primary", href: `/table/${tb.table_id}/analysis`, "data-link": true, "data-analysis": tb.table_id }, t("finished.analysis")),
        h("a", { class: "btn", href: api.recordUrl(tb.table_id), download: `dicehall-${tb.table_id}.json` }, t("finished.record")),
      ),
    );
  };

  const load = async (): Promise<void> => {
    more.disabled = true;
    try {
      const page = await api.finishedTables(games, PAGE, last);
      if (!alive) return;
      status.hidden = true;
      list.append(...page.map(row));
      const end = page[page.length - 1];
      if (end && typeof end.created === "number") last = end.created;
      more.hidden = page.length < PAGE;
      if (!list.childElementCount) {
        status.textContent = t("finished.none");
        status.hidden = false;
      }
    } catch (err) {
      if (!alive) return;
      clear(status);
      status.className = "error";
      status.textContent = t("tables.cannot_list", { detail: apiErrorText(err) });
      status.hidden = false;
    } finally {
      more.disabled = false;
    }
  };
  more.addEventListener("click", () => void load());
  void load();
  return () => {
    alive = false;
  };
}
