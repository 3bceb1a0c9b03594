// Dice 1000 in words, in the page's language: log lines and the reason a bank is refused, built from the
// structured public view (and the view before it), never from the engine's English text. The server sends the
// engine's narrated events as message ids (`{"id": "thousand.narrate.bank", "params": {...}}`); they are worded
// from the page's catalogue, nested reasons (`thousand.why.*`) too.
import { engineText } from "../errors";
import { formatList, t, type Params } from "../i18n";
import type { ThousandModel } from "./thousand";

type Rules = Record<string, unknown>;
const numRule = (r: Rules, key: string, d: number): number => (typeof r[key] === "number" ? (r[key] as number) : d);
export const diceText = (dice: number[] | string): string => (typeof dice === "string" ? dice.split(",") : dice.map(String)).join(" ");

/** A message id with parameters, as the engine will send them. */
export interface StructuredText {
  id: string;
  params?: Params;
}
export const isStructured = (x: unknown): x is StructuredText => typeof x === "object" && x !== null && typeof (x as StructuredText).id === "string";
export const renderStructured = (x: StructuredText): string => engineText({ id: x.id, params: x.params ?? {} }, x.id);
/** An engine message with the seats' raw names (a bot's is its English level) put as the page shows the seats;
 * nested messages (a reason naming who knocked someone off) too. */
function withSeatLabels(x: unknown, label: Map<string, string>): unknown {
  if (typeof x !== "object" || x === null || !isStructured(x)) return x;
  const params: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(x.params ?? {})) {
    if (k === "name" && typeof v === "string") params[k] = label.get(v) ?? v;
    else if (k === "names" && typeof v === "string") params[k] = v.split(", ").map((n) => label.get(n) ?? n).join(", ");
    else params[k] = withSeatLabels(v, label);
  }
  return { id: x.id, params };
}
/** Engine events the log's first line already says (the zero roll, the bank). */
const SAID_BY_HEAD = new Set(["thousand.narrate.zero", "thousand.narrate.bank", "thousand.narrate.resigns"]);

/** Why the player to move may not bank now (null when banking is allowed or nobody is to move). */
export function refusalText(m: ThousandModel, rules: Rules, raw: unknown): string | null {
  if (m.current === null || m.terminal || m.legal.includes("bank")) return null;
  if (isStructured(raw)) return renderStructured(raw);
  if (m.hotDice) return t(m.confirming || rules.hot_dice === "confirm" ? "thousand.refusal.hot_confirm" : "thousand.refusal.hot_mandatory");
  const p = m.players[m.current];
  if (!p) return null;
  if (m.turnTotal >= m.minBank) return null;
  if (!p.opened) return t("thousand.refusal.opening", { min: m.minBank });
  if (p.onBarrel) return t(rules.barrel_exact ? "thousand.refusal.barrel_exact" : "thousand.refusal.barrel", { need: m.minBank });
  if (p.pit) return t("thousand.refusal.pit", { low: p.pit[0], high: p.pit[1], need: m.minBank });
  return t("thousand.refusal.at_least", { need: m.minBank });
}

/** A legal move of the player to move as an instruction (the Hint list): "Set aside 1 and 5", "Roll 3 dice",
 * "Say “enough” and bank 350"; null for a move these words do not know. The terminal's hints say the same
 * (`thousand.move.*` in the .po catalogues, dicehall/thousand/hintwords.py). */
export function moveInstruction(move: string, m: ThousandModel): string | null {
  if (move === "roll") return t("thousand.move.roll", { n: m.diceInHand });
  if (move === "bank") return t("thousand.move.bank", { total: m.turnTotal });
  const keep = /^keep ([1-6](?:,[1-6])*)$/.exec(move);
  return keep ? t("thousand.move.keep", { dice: formatList(keep[1].split(",")) }) : null;
}

/** What an action changed, in words, by comparing the view before (`prev`) and after (`m`). */
export function consequences(prev: ThousandModel | null, m: ThousandModel, rules: Rules, name: (seat: number) => string, banker: number | null): string[] {
  if (!prev) return [];
  const out: string[] = [];
  const dump = rules.dump_truck ? numRule(rules, "dump_truck_score", 555) : null;
  const overtake = numRule(rules, "overtake_penalty", 0);
  if (m.hotDice && !prev.hotDice) out.push(t("thousand.event.hot", { total: m.turnTotal }));
  m.players.forEach((p, i) => {
    const before = prev.players[i];
    if (!before) return;
    const who = name(i);
    if (p.bolts > before.bolts) out.push(t("thousand.event.bolt", { name: who, n: p.bolts, limit: numRule(rules, "bolts_count", 3) }));
    else if (p.bolts < before.bolts && p.score < before.score) out.push(t("thousand.event.bolt_penalty", { name: who, old: before.score, score: p.score }));
    if (p.onBarrel && !before.onBarrel) out.push(t("thousand.event.barrel_on", { name: who }));
    if (p.barrelFalls > before.barrelFalls) out.push(t("thousand.event.barrel_fall", { name: who, old: before.score, score: p.score }));
    if (p.openPoints > before.openPoints) out.push(t("thousand.event.open_point", { name: who, n: p.openPoints, limit: numRule(rules, "open_points_limit", 6) }));
    if (p.skipNext && !before.skipNext) out.push(t("thousand.event.skip", { name: who }));
    if (i === banker || p.score === before.score || p.barrelFalls > before.barrelFalls || p.bolts < before.bolts) return;
    const bankerPassed = banker !== null && (prev.players[banker]?.score ?? 0) < before.score && (m.players[banker]?.score ?? 0) > before.score;
    if (dump !== null && p.score === 0 && before.score - overtake === dump) out.push(t("thousand.event.dump", { name: who, old: before.score }));
    else if (bankerPassed && before.score - p.score === overtake) out.push(t("thousand.event.overtaken", { name: who, penalty: overtake, old: before.score, score: p.score }));
    else if (p.score === 0 && rules.exact_reset) out.push(t("thousand.event.exact_reset", { name: who, old: before.score }));
    else out.push(t("thousand.event.score", { name: who, old: before.score, score: p.score }));
  });
  if (banker !== null && dump !== null) {
    const before = prev.players[banker];
    const after = m.players[banker];
    if (before && after && after.score === 0 && before.score + prev.turnTotal === dump) out.push(t("thousand.event.dump", { name: name(banker), old: dump }));
  }
  return out;
}

/** Log lines for one event: the move, then what it caused. `prev` is the view before it (null: unknown). */
export function describeEvent(entry: { actor: unknown; move: string }, prev: ThousandModel | null, m: ThousandModel | null, rules: Rules, name: (seat: number) => string, engineEvents: unknown[]): string[] {
  const label = new Map((m ?? prev)?.players.map((p, i): [string, string] => [p.name, name(i)]) ?? []);
  const structured = engineEvents
    .filter(isStructured)
    .filter((e) => !SAID_BY_HEAD.has(e.id))
    .map((e) => renderStructured(withSeatLabels(e, label) as StructuredText));
  const narrated = engineEvents.some(isStructured);
  if (entry.actor === "chance") {
    const seat = prev?.turnPlayer ?? m?.turnPlayer ?? null;
    if (!m || seat === null || prev === null) return [t("log.dice", { dice: diceText(entry.move) })];
    const who = name(seat);
    const head = m.rollPoints
      ? t("log.rolled", { name: who, dice: diceText(entry.move), points: m.rollPoints, total: m.turnTotal })
      : m.roll.length && m.rollPoints === 0
        ? t("log.rolled_zero", { name: who, dice: diceText(entry.move), burnt: prev.turnTotal })
        : t("log.rolled_plain", { name: who, dice: diceText(entry.move) });
    return [head, ...(narrated ? structured : consequences(prev, m, rules, name, null))];
  }
  const seat = Number(entry.actor);
  const who = Number.isInteger(seat) ? name(seat) : String(entry.actor);
  if (entry.move === "resign") return [t("log.resign", { name: who }), ...structured];
  if (entry.move === "roll") return [prev ? t("log.rolls_dice", { name: who, n: prev.diceInHand }) : t("log.rolls", { name: who }), ...structured];
  if (entry.move === "bank") {
    if (!prev || !m) return [t("log.banks", { name: who })];
    const before = prev.players[seat]?.score ?? 0;
    const after = m.players[seat]?.score ?? 0;
    return [t("log.banked", { name: who, total: prev.turnTotal, old: before, score: after }), ...(narrated ? structured : consequences(prev, m, rules, name, seat))];
  }
  const keep = /^keep (.+)$/.exec(entry.move);
  if (keep) return [t("log.keeps", { name: who, dice: diceText(keep[1]) }), ...structured];
  return [t("log.move", { name: who, move: entry.move }), ...structured];
}

