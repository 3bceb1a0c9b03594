// Der große Wurf with real dice: the entry of a throw's outcome (a slot per die, the pad, Back, Confirm), shown
// only to the seat that enters it. Pure: drawn from the controller's entry, taps call it.
import { h, type VNode } from "snabbdom";
import { t } from "../i18n";
import { ENTRY_KEYS } from "./wurf-entry";
import type { WurfCtrl } from "./wurf-ctrl";

const label = (k: string): string => (k === "out" ? t("wurf.die.out") : k === "rim" ? t("wurf.die.rim") : k);

export function entryPanel(ctrl: WurfCtrl): VNode {
  const entry = ctrl.entry;
  const m = ctrl.shown;
  if (!m || entry.enterer(m) === null) return h("div.wurf-real", { attrs: { "data-testid": "wurf-entry", hidden: true } });
  const values = entry.values;
  const want = entry.wanted(m);
  const setup = m.phase === "setup";
  const full = values.length >= want;
  return h("div.wurf-real", { attrs: { "data-testid": "wurf-entry", hidden: false } }, [
    h("p.entry-prompt", setup ? t("wurf.entry.start") : t("wurf.entry.prompt", { n: want })),
    h("p.muted.small", setup ? "" : t("wurf.entry.help")),
    h(
      "div.entry-slots",
      { attrs: { "data-testid": "wurf-entry-slots" } },
      Array.from({ length: want }, (_, k) =>
        h("span.wurf-slot", { class: { filled: !!values[k] }, attrs: { "data-testid": "wurf-entry-slot", "data-value": values[k] ?? "" } }, values[k] ? label(values[k]) : "·"),
      ),
    ),
    h(
      "div.wurf-pad",
      ENTRY_KEYS.filter((k) => !setup || /^[2-6]$/.test(k)).map((k) =>
        h(`button.btn${k === "X" ? ".x" : ""}`, { attrs: { type: "button", "data-testid": `wurf-entry-${k}`, disabled: ctrl.busy || full }, on: { click: () => entry.add(k) } }, label(k)),
      ),
    ),
    h("div.controls", [
      h("button.btn", { attrs: { type: "button", "data-testid": "wurf-entry-back", disabled: !values.length }, on: { click: () => entry.back() } }, t("wurf.entry.undo")),
      h("button.btn.primary", { attrs: { type: "button", "data-testid": "wurf-entry-confirm", disabled: ctrl.busy || values.length !== want }, on: { click: () => entry.confirm() } }, t("wurf.entry.confirm")),
    ]),
  ]);
}
