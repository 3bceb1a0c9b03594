// Der große Wurf table as snabbdom vnodes, drawn from the controller (wurf-ctrl.ts): the status line, the caption
// of the last throw, the arena's stage (the 3D scene lives in it, mounted by the adapter wurf.ts; the hint's legend
// lies over it), the tools, the thrower's panel, the real-dice entry, the side column and the dice list.
// The order of the children is the layout's (style.css places them by it: `.wurf > ...`).
import { h, type VNode } from "snabbdom";
import { t } from "../i18n";
import type { WurfCtrl } from "./wurf-ctrl";
import { heatLegend } from "./wurf-hint";
import { aimPanel, tools } from "./wurf-view-controls";
import { entryPanel } from "./wurf-view-entry";
import { diceList, side } from "./wurf-view-side";

function status(ctrl: WurfCtrl): VNode {
  const m = ctrl.shown;
  const attrs = { "data-testid": "turn-status", "aria-live": "polite" };
  if (!m) return h("p.turn-status", { attrs });
  if (m.terminal) {
    const names = m.winners.map((w) => ctrl.name(w));
    return h("p.turn-status", { attrs }, t("wurf.status.over", { names: names.join(", "), n: names.length }));
  }
  if (m.current === null) return h("p.turn-status", { attrs }, m.chance && ctrl.real ? t("wurf.status.enter") : t("wurf.status.rolling"));
  const name = ctrl.name(m.current);
  const mine = ctrl.actor() !== null;
  const more: string[] = [];
  if (m.bigNext) more.push(t("wurf.status.big", { n: m.diceNext }));
  else if (m.phase === "choice") more.push(t("wurf.status.choice"));
  if (m.match.enabled) more.push(t("wurf.status.game_of", { game: m.match.game, games: m.match.games }));
  return h("p.turn-status", { attrs }, [
    h("span", { class: { you: mine } }, mine ? t("wurf.status.your_turn", { name }) : t("wurf.status.playing", { name })),
    more.length ? h("span.muted", [" · ", more.join(" · ")]) : "",
  ]);
}

/** The arena: the adapter mounts the scene's canvas into this element (snabbdom keeps it: same key and selector). */
function stage(ctrl: WurfCtrl): VNode {
  const state = ctrl.stage;
  const noWebgl = state === "no-webgl" ? h("div.card.error", { attrs: { "data-testid": "wurf-no-webgl" } }, [h("h2", t("wurf.no_webgl.title")), h("p", t("wurf.no_webgl.body"))]) : null;
  return h("div.wurf-stage", { key: "stage", attrs: { "data-testid": "wurf-stage", "data-state": state ?? false } }, [
    heatLegend(ctrl.running ? null : ctrl.heat, ctrl.aiming(), () => ctrl.useBest()),
    noWebgl,
  ]);
}

export function view(ctrl: WurfCtrl): VNode {
  return h("div.wurf", { class: { real: ctrl.real !== null } }, [
    status(ctrl),
    h("p.wurf-caption", { attrs: { "data-testid": "wurf-caption", "aria-live": "polite" } }, ctrl.caption),
    stage(ctrl),
    tools(ctrl),
    aimPanel(ctrl),
    entryPanel(ctrl),
    side(ctrl),
    h("h3.small.wurf-dice-head", t("wurf.dice_list")),
    diceList(ctrl),
  ]);
}
