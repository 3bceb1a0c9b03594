// "Verify the dice" on the analysis page: the server recomputes every roll of the record from the seed revealed at
// the end and compares it with the fingerprint shown before the game (GET .../verify, docs/fair-dice.md). Anyone
// can repeat the check on the downloaded record; this button saves them the trouble.
import { api, type DiceVerdict } from "./api";
import { h } from "./dom";
import { apiErrorText } from "./errors";
import { t } from "./i18n";

export function verdictText(v: DiceVerdict): string {
  switch (v.verdict) {
    case "ok":
      return t("fair.ok", { n: v.rolls ?? 0 });
    case "mismatch":
      return t("fair.mismatch", { event: v.event ?? 0, expected: v.expected ?? "", recorded: v.recorded ?? "" });
    case "bad_seed":
      return t("fair.bad_seed");
    case "playing":
      return t("fair.playing");
    case "real_dice":
      return t("fair.real_dice");
    default:
      return t("fair.unseeded");
  }
}

export function verifyButton(tableId: string): HTMLElement {
  const result = h("span", { class: "verify-result", role: "status", "data-testid": "verify-result" });
  const button = h(
    "button",
    {
      type: "button",
      class: "btn",
      "data-testid": "verify-dice",
      onclick: () => {
        button.disabled = true;
        result.className = "verify-result muted";
        result.textContent = t("fair.checking");
        api.verifyDice(tableId).then(
          (v) => {
            // a sign besides the colour: ✓ follows, ✗ does not
            const good = v.verdict === "ok";
            const bad = v.verdict === "mismatch" || v.verdict === "bad_seed";
            result.className = `verify-result ${good ? "good" : bad ? "bad" : "muted"}`;
            result.textContent = `${good ? "✓ " : bad ? "✗ " : ""}${verdictText(v)}${good ? ` ${t("fair.repeat")}` : ""}`;
            button.disabled = false;
          },
          (err: unknown) => {
            result.className = "verify-result bad";
            result.textContent = apiErrorText(err);
            button.disabled = false;
          },
        );
      },
    },
    t("fair.verify"),
  );
  return h("p", { class: "verify-dice small" }, button, " ", result);
}
