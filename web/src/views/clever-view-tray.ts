// The Clever dice tray: the dice rolled (or to roll), the three fields and the silver platter. A die this device
// may take is a button (click, Enter or Space; the arrows step through the others).
import { h, type VNode } from "snabbdom";
import { dieVNode } from "../dice";
import { t } from "../i18n";
import type { CleverCtrl } from "./clever-ctrl";
import type { CleverModel, DieName } from "./clever-model";
import { symbolVNode } from "./clever-symbols";
import { dieWord } from "./clever-words";

function dieButton(ctrl: CleverCtrl, d: DieName, value: number | null, opts: { clickable: boolean; used?: boolean; delay?: number }): VNode {
  const key = `${d}.${ctrl.rollNo}`;
  if (!value) return h("span.die.slot.cdie", { key, class: { [`cdie-${d}`]: true }, attrs: { "data-die": d } });
  const label = t("clever.ui.die_label", { die: dieWord(d), value });
  const pickable = opts.clickable;
  return dieVNode(
    value,
    { rolling: ctrl.rolling && !opts.used, delay: opts.delay },
    {
      key,
      class: { cdie: true, [`cdie-${d}`]: true, used: !!opts.used, selected: ctrl.selected === d, pickable },
      attrs: { "data-die": d, "aria-label": label, ...(pickable ? { role: "button", tabindex: 0, "data-moves": ctrl.movesFor(d).length } : {}) },
      on: pickable ? { click: () => ctrl.clickDie(d) } : {},
    },
    d === "white" ? [] : [symbolVNode(d)],
  );
}

export function trayView(ctrl: CleverCtrl, m: CleverModel, onKey: (e: KeyboardEvent) => void): VNode {
  const seat = ctrl.mySeat();
  const anyPick = seat !== null && m.step !== "bonus" && m.step !== "roll" && m.step !== "passive_roll";
  const canPick = (d: DieName): boolean => anyPick && ctrl.movesFor(d).length > 0;
  const rolled = m.dice.filter((d) => d.where === "rolled" || d.where === "to_roll" || (d.where === "unused" && d.value));
  const fields = [0, 1, 2].map((i) => m.fields[i] ?? null);
  const platter = m.dice.filter((d) => d.where === "platter");
  const value = (d: DieName): number | null => m.dice.find((x) => x.die === d)?.value ?? null;
  const box = (cls: string, label: string, kids: VNode[]): VNode =>
    h(`div.tray-box.${cls}`, { key: cls, attrs: { "data-testid": cls } }, [h("span.tray-label", label), h("div.tray-dice", kids)]);
  return h("div.clever-tray", { attrs: { "data-testid": "tray" }, on: { keydown: onKey } }, [
    box(
      "rolled",
      t("clever.dice.rolled"),
      rolled.map((d, i) => dieButton(ctrl, d.die, d.where === "to_roll" ? null : d.value, { clickable: canPick(d.die), used: d.where === "unused", delay: i * 40 })),
    ),
    box(
      "fields",
      t("clever.dice.fields"),
      fields.map((d, i) => (d ? dieButton(ctrl, d, value(d), { clickable: canPick(d) }) : h("span.die.slot.field-slot", { key: `slot${i}` }))),
    ),
    box(
      "platter",
      t("clever.dice.platter"),
      platter.map((d) => dieButton(ctrl, d.die, d.value, { clickable: canPick(d.die) })),
    ),
  ]);
}
