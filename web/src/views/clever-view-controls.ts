// The Clever decision's buttons (re-roll, forfeit, take nothing, no more +1, cancel the chosen die) and the sheet
// tabs, one per player with its total and who decides.
import { h, type VNode } from "snabbdom";
import { formatNumber, t } from "../i18n";
import type { CleverCtrl } from "./clever-ctrl";
import type { CleverModel, Move } from "./clever-model";

export function controlsView(ctrl: CleverCtrl, m: CleverModel, undo: HTMLElement): VNode {
  const seat = ctrl.mySeat();
  const btn = (mv: Move | undefined, label: string, testid: string, key: string): VNode | null =>
    mv ? h("button.btn", { key: testid, attrs: { type: "button", "data-testid": testid, "aria-keyshortcuts": key }, on: { click: () => ctrl.send(mv) } }, label) : null;
  const kids: (VNode | null)[] = [];
  if (seat !== null) {
    const sheet = m.sheets[seat];
    const forfeit = ctrl.simple("forfeit");
    kids.push(
      btn(ctrl.simple("reroll"), t("clever.btn.reroll", { n: sheet.rerolls.gained - sheet.rerolls.used }), "reroll-btn", "R"),
      btn(forfeit, t("clever.btn.forfeit"), "forfeit-btn", "F"),
      forfeit ? h("span.small.forfeit-why", { key: "forfeit-why", attrs: { "data-testid": "forfeit-why" } }, t("clever.forfeit_why")) : null,
      btn(ctrl.simple("pass"), t("clever.btn.pass"), "pass-btn", "N"),
      btn(ctrl.simple("stop"), t("clever.btn.stop", { n: sheet.plusOnes.gained - sheet.plusOnes.used }), "stop-btn", "N"),
      ctrl.selected ? h("button.btn.ghost", { key: "cancel", attrs: { type: "button", "data-testid": "cancel-btn" }, on: { click: () => ctrl.cancel() } }, t("clever.btn.cancel")) : null,
    );
  }
  // real dice: "take back the dice" (a widget shared with the other games, kept as it is)
  const slot = h("span.undo-slot", { key: "undo", hook: { insert: (v) => (v.elm as HTMLElement).append(undo) } });
  return h("div.clever-controls", { attrs: { "data-testid": "controls" } }, [...kids.filter((k): k is VNode => k !== null), slot]);
}

export function tabsView(ctrl: CleverCtrl, m: CleverModel): VNode {
  const shown = ctrl.shownSeat();
  const tabs = m.sheets.map((_, i) => {
    const done = m.simultaneous !== null && m.simultaneous.seats.includes(i) && !m.simultaneous.waiting_for.includes(i);
    const deciding = m.deciders.includes(i) || (m.simultaneous === null && m.pending?.player === i);
    const on = i === shown;
    return h(
      "button.clever-tab",
      { key: i, class: { on, deciding }, attrs: { type: "button", role: "tab", "aria-selected": on ? "true" : "false", "data-seat": i }, on: { click: () => ctrl.showTab(i) } },
      [
        h("span.tab-name", ctrl.ctx.seatName(i)),
        i === m.active && !m.terminal ? h("span.badge.small", t("clever.tab.active")) : null,
        deciding ? h("span.badge.small.deciding", t("clever.tab.deciding")) : null,
        done ? h("span.badge.small.done", t("clever.tab.done")) : null,
        h("b.tab-total", formatNumber(ctrl.visibleSheet(i).total)),
      ].filter((k): k is VNode => k !== null),
    );
  });
  return h("div.clever-tabs", { attrs: { role: "tablist", "aria-label": t("clever.sheets"), hidden: m.sheets.length < 2 } }, tabs);
}
