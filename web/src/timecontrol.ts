// The new-table form's time control: live play, or 1, 3 or 7 days a move (a correspondence table; docs/web.md).
// A small fieldset of its own: the lobby appends `el` and asks `moveDays()` and `problem()` when creating.
import { h } from "./dom";
import { t } from "./i18n";
import { perMoveWords } from "./deadline";

export const MOVE_DAYS = [1, 3, 7] as const;

export interface TimeControl {
  el: HTMLElement;
  /** Days a move, or null for live play. */
  moveDays(): number | null;
  /** Why the chosen control does not suit the seats (in the reader's words), or null. `here`: the people who
   * would play on this device, `people`: every human seat. */
  problem(here: number, people: number): string | null;
}

export function timeControl(): TimeControl {
  const name = "time-control";
  const choice = (value: string, label: string, checked = false): HTMLElement => {
    const id = `${name}-${value}`;
    return h("label", { class: "tc-choice", for: id }, h("input", { type: "radio", name, id, value, checked }), " ", label);
  };
  const hint = h("p", { class: "muted small", id: `${name}-hint` }, t("timecontrol.hint"));
  const el = h(
    "fieldset",
    { class: "time-control", "data-testid": "time-control", "aria-describedby": `${name}-hint` },
    h("legend", null, t("timecontrol.legend")),
    h("div", { class: "row", role: "radiogroup" }, choice("live", t("timecontrol.live"), true), ...MOVE_DAYS.map((d) => choice(String(d), perMoveWords(d * 86_400)))),
    hint,
  );
  const moveDays = (): number | null => {
    const v = (el.querySelector("input:checked") as HTMLInputElement | null)?.value ?? "live";
    return v === "live" ? null : Number(v);
  };
  return {
    el,
    moveDays,
    problem(here, people) {
      if (moveDays() === null) return null;
      if (people < 2) return t("correspondence.refused.people");
      if (here > 1) return t("timecontrol.refused.hot_seat");
      return null;
    },
  };
}
