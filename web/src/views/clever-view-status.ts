// What the Clever decision says: the round and whose turn (read out when it changes), who is still choosing in a
// simultaneous phase (never what), the bonus to place, why a die or cell was refused, what to do next; and the
// hot-seat handover card.
import { h, type VNode } from "snabbdom";
import { t } from "../i18n";
import type { CleverCtrl } from "./clever-ctrl";
import type { CleverModel } from "./clever-model";
import { dieWord, pendingLines, statusText } from "./clever-words";

export function headView(ctrl: CleverCtrl, pub: CleverModel, m: CleverModel): VNode {
  const status = pub.simultaneous ? t("clever.status.together") : statusText(m, ctrl.ctx.seatName);
  return h("div.clever-head", [
    h("div.clever-round", { attrs: { "data-testid": "round" } }, t("clever.round", { round: Math.min(m.round, m.rounds), rounds: m.rounds })),
    h("p.clever-status", { class: { mine: ctrl.mySeat() !== null }, attrs: { "data-testid": "turn-status", "aria-live": "polite" } }, status),
  ]);
}

/** Who chooses in a simultaneous phase: "choosing…" or "done" per seat, never what. */
export function togetherView(ctrl: CleverCtrl, pub: CleverModel): VNode {
  const sim = pub.simultaneous;
  const mine = ctrl.ctx.mySeats();
  const items = (sim?.seats ?? []).map((s) => {
    const done = !sim?.waiting_for.includes(s);
    const id = done ? (mine.includes(s) && !ctrl.hotSeat() ? "clever.sim.done_mine" : "clever.sim.done") : "clever.sim.choosing";
    return h("li", { key: s, class: { done, choosing: !done }, attrs: { "data-seat": s, "data-done": String(done) } }, t(id, { name: ctrl.ctx.seatName(s) }));
  });
  return h("ul.clever-together", { attrs: { "data-testid": "together", hidden: !sim } }, items);
}

export function pendingView(ctrl: CleverCtrl, m: CleverModel): VNode {
  const lines = pendingLines(m, ctrl.ctx.seatName);
  return h(
    "p.clever-pending",
    { attrs: { "data-testid": "pending-bonus", hidden: !m.pending } },
    lines.map((line, i) => h(i ? "span.pending-then" : "span.pending-now", line)),
  );
}

export function whyView(ctrl: CleverCtrl): VNode {
  return h("p.clever-why", { attrs: { role: "alert", "data-testid": "why" } }, ctrl.reason);
}

function hintText(ctrl: CleverCtrl, m: CleverModel): string {
  if (ctrl.mySeat() === null) return "";
  if (m.step === "bonus") return t("clever.hint.bonus");
  if (m.step === "plus") return t("clever.hint.plus");
  if (m.step === "passive_pick") {
    const fallback = m.legal.some((x) => x.kind === "entry" && m.dice.find((d) => d.die === x.die)?.where === "field");
    const solo = m.sheets.length === 1 ? `${t("clever.dice.solo_rolled")}. ` : "";
    return solo + (fallback ? t("clever.hint.fallback") : t("clever.hint.passive"));
  }
  if (m.step === "pick") return ctrl.selected ? t("clever.hint.cell", { die: dieWord(ctrl.selected) }) : t("clever.hint.pick");
  return "";
}

export function hintView(ctrl: CleverCtrl, m: CleverModel): VNode {
  return h("p.clever-hint.muted.small", { attrs: { "data-testid": "hint" } }, hintText(ctrl, m));
}

/** Hot seat: the next player takes the device before their choice shows. */
export function handoverView(ctrl: CleverCtrl, pub: CleverModel): VNode {
  const seat = ctrl.mySeat();
  const show = ctrl.needsHandover() && seat !== null;
  const name = show ? ctrl.ctx.seatName(seat) : "";
  return h(
    "div.clever-handover.card",
    { attrs: { hidden: !show, "data-testid": "handover" } },
    show
      ? [
          h("h2", t("clever.handover.title", { name })),
          h("p", statusText(pub, ctrl.ctx.seatName)),
          h("p.muted", t("clever.handover.body")),
          h("button.btn.primary.big", { attrs: { type: "button", "data-testid": "handover-ready" }, on: { click: () => ctrl.takeOver() } }, t("clever.handover.ready", { name })),
        ]
      : [],
  );
}
