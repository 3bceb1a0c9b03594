// "Share / details" under a table's title: the link for watchers and the table's code, out of the way of play.
import { h, toast } from "./dom";
import { t } from "./i18n";

export function tableDetails(tableId: string): HTMLDetailsElement {
  const url = new URL(`/table/${tableId}`, location.origin).toString();
  const input = h("input", { type: "text", readonly: true, value: url, "aria-label": t("table.details_link"), class: "invite" });
  const copy = h(
    "button",
    {
      type: "button",
      class: "btn",
      onclick: async () => {
        input.select();
        try {
          await navigator.clipboard.writeText(url);
          toast(t("created.copied"), "info");
        } catch {
          document.execCommand?.("copy");
        }
      },
    },
    t("created.copy"),
  );
  return h(
    "details",
    { class: "table-details small", "data-testid": "table-details" },
    h("summary", null, t("table.details")),
    h("p", null, t("table.details_link"), " ", h("span", { class: "invite-box" }, input, copy)),
    h("p", { class: "muted" }, t("table.details_code"), " ", h("code", { "data-testid": "table-id" }, tableId)),
  );
}
