// "Share / details" under a table's title: the link for watchers, the table's code and its dice fingerprint (the
// SHA-256 of the secret seed every roll follows from, docs/fair-dice.md), out of the way of play.
import { api, type TableInfo } from "./api";
import { copyBox } from "./created";
import { h } from "./dom";
import { t } from "./i18n";

export function tableDetails(tableId: string): HTMLDetailsElement {
  const url = new URL(`/table/${tableId}`, location.origin).toString();
  const dice = h("div", { class: "fingerprint", "data-testid": "dice-fingerprint", "aria-live": "polite" });
  const details = h(
    "details",
    { class: "table-details small", "data-testid": "table-details" },
    h("summary", null, t("table.details")),
    h("p", null, t("table.details_link"), " ", copyBox(url, t("table.details_link"))),
    h("p", { class: "muted" }, t("table.details_code"), " ", h("code", { "data-testid": "table-id" }, tableId)),
    dice,
  );
  // Asked for when first opened: the table page and the analysis page have not always loaded it yet.
  let asked = false;
  details.addEventListener("toggle", () => {
    if (!details.open || asked) return;
    asked = true;
    api.table(tableId).then(
      (info) => dice.replaceChildren(...diceWords(info)),
      () => {
        asked = false; // try again on the next opening
      },
    );
  });
  return details;
}

/** The table's dice in players' words: its fingerprint and what it means, or why there is none. */
export function diceWords(info: TableInfo): HTMLElement[] {
  if (info.dice === "real") return [h("p", null, t("fair.real_dice"))];
  if (!info.dice_commit) return [h("p", { class: "muted" }, t("fair.unseeded"))];
  return [
    h("p", null, t("fair.fingerprint"), " ", h("code", { "data-testid": "dice-commit" }, info.dice_commit)),
    h("p", { class: "muted" }, t("fair.explain")),
    h("p", { class: "muted" }, t("fair.bots")),
  ];
}
