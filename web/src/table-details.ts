// "Share / details" under a table's title: the link for watchers and the table's code, out of the way of play.
import { copyBox } from "./created";
import { h } from "./dom";
import { t } from "./i18n";

export function tableDetails(tableId: string): HTMLDetailsElement {
  const url = new URL(`/table/${tableId}`, location.origin).toString();
  return h(
    "details",
    { class: "table-details small", "data-testid": "table-details" },
    h("summary", null, t("table.details")),
    h("p", null, t("table.details_link"), " ", copyBox(url, t("table.details_link"))),
    h("p", { class: "muted" }, t("table.details_code"), " ", h("code", { "data-testid": "table-id" }, tableId)),
  );
}
