// Der große Wurf: the camera tools over the arena (top view, replay) and the thrower's panel (Throw, End turn,
// Gather, Move / Put back, the power and how aiming works). Pure: drawn from the controller, clicks call it.
import { h, type VNode } from "snabbdom";
import { t } from "../i18n";
import type { WurfCtrl } from "./wurf-ctrl";

const button = (testid: string, label: string, click: () => void, attrs: Record<string, string | boolean> = {}, primary = false): VNode =>
  h(`button.btn${primary ? ".primary" : ""}`, { attrs: { type: "button", "data-testid": testid, ...attrs }, on: { click } }, label);

export function tools(ctrl: WurfCtrl): VNode {
  return h("div.wurf-tools", [
    button("wurf-top", t("wurf.top_view"), () => ctrl.toggleTop(), { "aria-pressed": String(!!ctrl.scene?.top) }),
    button("wurf-replay", t("wurf.replay"), () => void ctrl.playReplay(), { disabled: ctrl.running || ctrl.replay === null }),
  ]);
}

export function aimPanel(ctrl: WurfCtrl): VNode {
  const m = ctrl.shown ?? ctrl.model;
  const can = ctrl.canAct();
  const throwing = can && ctrl.throwAllowed();
  const real = ctrl.real !== null;
  const gather = m?.legal.find((a) => a.startsWith("move ")) ?? null;
  const moved = ctrl.moves.size > 0;
  const throwText = real ? t("wurf.threw_real", { n: m?.diceNext || 1 }) : m?.bigNext ? t("wurf.throw_big", { n: m.diceNext }) : t("wurf.throw");
  return h("div.wurf-aim", { attrs: { "data-testid": "wurf-aim", hidden: ctrl.actor(m) === null } }, [
    h("div.controls", [
      button("wurf-throw", throwText, () => ctrl.throw(), { disabled: !throwing }, true),
      button("wurf-end", t("wurf.end_turn"), () => ctrl.endTurn(), { disabled: !(can && !!m?.legal.includes("end")) }),
      button("wurf-gather", t("wurf.gather"), () => ctrl.gather(), {
        title: t("wurf.gather_help"),
        "aria-describedby": "wurf-gather-help",
        hidden: !gather || real,
        disabled: !(can && gather),
      }),
      button("wurf-move", t("wurf.move_confirm"), () => ctrl.sendMoves(), { hidden: !moved, disabled: !can }),
      button("wurf-move-reset", t("wurf.move_reset"), () => ctrl.resetMoves(), { hidden: !moved }),
    ]),
    // The aiming help and power only matter when the server throws the dice (not at a real-dice table).
    // The buttons and the power first: the help under them may fall below the fold on a small screen.
    h("div.wurf-aim-help", { attrs: { hidden: real } }, [
      h("label.wurf-power", [
        t("wurf.power"),
        " ",
        h("input", {
          attrs: { type: "range", min: "0", max: "1", step: "0.05", "data-testid": "wurf-power", "aria-label": t("wurf.power"), disabled: !throwing || real },
          props: { value: String(ctrl.aim.power) },
          on: { input: (e: Event) => ctrl.setAim({ power: Number((e.target as HTMLInputElement).value) }) },
        }),
        " ",
        h("output.wurf-power-value", { attrs: { "data-testid": "wurf-power-value" } }, ctrl.aimWords()),
      ]),
      h("p.muted.small", { attrs: { "data-testid": "wurf-aim-help" } }, t("wurf.aim_help")),
      h("p.muted.small", t("wurf.power_help")),
    ]),
    h("p.muted.small", { attrs: { id: "wurf-gather-help", "data-testid": "wurf-gather-help", hidden: !gather || real } }, t("wurf.gather_help")),
    // the aiming keys at a table the server throws for; the entry keys at a real-dice table
    h("p.muted.small.keys-help", { attrs: { "data-testid": "wurf-keys-help" } }, real ? t("wurf.entry.keys") : t("wurf.keys_help")),
  ]);
}
