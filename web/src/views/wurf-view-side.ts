// Der große Wurf beside the arena: the scoreboard (supplies), this turn's throws, the match table; and the dice in
// the arena as a list (what a screen reader reads of the 3D picture). Pure: drawn from the controller.
import { h, type VNode } from "snabbdom";
import { formatNumber, t } from "../i18n";
import type { WurfModel } from "./wurf-model";
import { cellOf, faceText } from "./wurf-words";
import type { WurfCtrl } from "./wurf-ctrl";

const th = (text: string, num = false): VNode => h(`th${num ? ".num" : ""}`, { attrs: { scope: "col" } }, text);

function scoreboard(ctrl: WurfCtrl, m: WurfModel | null): VNode {
  if (!m) return h("table.scoreboard", { attrs: { "data-testid": "scoreboard" } });
  const mine = ctrl.ctx.mySeats();
  const badge = (seat: number): VNode | string =>
    m.winners.includes(seat)
      ? h("span.badge.seat", t("badge.winner"))
      : m.alive[seat] === false
        ? h("span.badge.muted", t("wurf.badge.out"))
        : seat === m.current
          ? h("span.badge.open", t("wurf.badge.turn"))
          : "";
  return h("table.scoreboard", { attrs: { "data-testid": "scoreboard" } }, [
    h("thead", [h("tr", [th(t("wurf.col.player")), th(t("wurf.col.dice"), true), m.match.enabled ? th(t("wurf.col.points"), true) : null, th(t("wurf.col.status"))])]),
    h(
      "tbody",
      m.supplies.map((n, seat) =>
        h("tr", { class: { current: seat === m.current, winner: m.winners.includes(seat), out: m.alive[seat] === false }, attrs: { "data-seat": seat } }, [
          h("th", { attrs: { scope: "row" } }, [seat === m.current ? "▶ " : "", ctrl.name(seat), mine.includes(seat) ? h("span.you-tag", [" ", t("thousand.you")]) : null]),
          h("td.num.supply", { attrs: { "data-testid": "wurf-supply" } }, formatNumber(n)),
          m.match.enabled ? h("td.num", formatNumber(m.match.points[seat] ?? 0)) : null,
          h("td.status", [badge(seat)]),
        ]),
      ),
    ),
  ]);
}

/** Match points per game: an eliminated player scores the players still in that game, the winner 0. */
export function matchTable(m: WurfModel, name: (seat: number) => string): VNode {
  const n = m.supplies.length;
  const games = m.match.eliminations.filter((g) => g.length);
  const points = (g: number[], s: number): string => {
    const pos = g.indexOf(s);
    if (pos < 0) return "·";
    return formatNumber(g.length === n && pos === n - 1 ? 0 : n - 1 - pos);
  };
  return h("table.scoreboard.wurf-match-table", { attrs: { "data-testid": "wurf-match-table" } }, [
    h("thead", [h("tr", [th(t("wurf.match.game")), ...Array.from({ length: n }, (_, s) => th(name(s), true))])]),
    h("tbody", [
      ...games.map((g, gi) => h("tr", { attrs: { "data-game": gi + 1 } }, [h("th", { attrs: { scope: "row" } }, formatNumber(gi + 1)), ...Array.from({ length: n }, (_, s) => h("td.num", points(g, s)))])),
      h("tr.total", [h("th", { attrs: { scope: "row" } }, t("wurf.match.total")), ...m.match.points.map((p) => h("td.num", [h("b", formatNumber(p))]))]),
    ]),
  ]);
}

export function side(ctrl: WurfCtrl): VNode {
  const m = ctrl.shown;
  const throws = ctrl.throwsThisTurn;
  return h("div.wurf-side", [
    scoreboard(ctrl, m),
    h("h3.small", t("wurf.turn_throws")),
    h("ol.wurf-turn-throws", { attrs: { "data-testid": "wurf-turn-throws", hidden: !throws.length } }, throws.map((line) => h("li", line))),
    h("p.muted.small.wurf-no-throws", { attrs: { hidden: throws.length > 0 } }, t("wurf.turn_throws_none")),
    h("div.wurf-match", { attrs: { "data-testid": "wurf-match" } }, m?.match.enabled ? [h("h3.small", t("wurf.match.title", { game: m.match.game, games: m.match.games })), matchTable(m, (s) => ctrl.name(s))] : []),
  ]);
}

export function diceList(ctrl: WurfCtrl): VNode {
  const m = ctrl.shown;
  const arena = m?.arena ?? [];
  const items = arena.map((d) =>
    h("li", { attrs: { "data-face": faceText(d.face), "data-x": d.x ?? "", "data-y": d.y ?? "" } }, d.x !== null && d.y !== null && m ? t("wurf.die_at", { face: faceText(d.face), cell: cellOf(d.x, d.y, m.geometry.floor) }) : faceText(d.face)),
  );
  return h("ul.wurf-dice-list", { attrs: { "data-testid": "wurf-dice", "aria-label": t("wurf.dice_list"), "data-count": m ? String(arena.length) : false } }, m && !arena.length ? [h("li.muted", t("wurf.arena_empty"))] : items);
}
