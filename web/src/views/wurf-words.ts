// Der große Wurf in words: the caption after a throw, the log lines, aim cells and powers.
import type { LogEntry } from "../api";
import { currentLanguage, formatNumber, t, type MessageId } from "../i18n";
import { fates, parseLands, type Landed, type WurfModel } from "./wurf-model";

export const faceText = (f: number): string => (f === 1 ? "X" : String(f));

function list(items: string[]): string {
  try {
    return new Intl.ListFormat(currentLanguage(), { style: "long", type: "conjunction" }).format(items);
  } catch {
    return items.join(", ");
  }
}

/** The aim cell (a1–e5: columns west→east, rows from the thrower's edge) of a point, as in the terminal. */
export function cellOf(x: number, y: number, floor: number): string {
  const c = (v: number): number => Math.min(4, Math.max(0, Math.floor((v / floor) * 5)));
  return `${"abcde"[c(x)]}${c(y) + 1}`;
}

/**
 * The throw's outcome in words: what left, what the rules removed, what the thrower took ("3, 3 and 5, 5
 * repeat: Ann takes 4 dice") or that all numbers differ; `after` is the view after the throw.
 */
export function caption(dice: Landed[], after: WurfModel, name: (seat: number) => string): string[] {
  const last = after.last;
  if (!last) return [];
  const fate = fates(dice, last.takenFaces);
  const who = name(last.thrower);
  const out: string[] = [];
  const count = (f: string): number => fate.filter((x) => x === f).length;
  if (last.big) out.push(t("wurf.caption.big", { name: who, n: last.thrown }));
  if (count("out")) out.push(t("wurf.caption.out", { n: count("out") }));
  if (count("rim")) out.push(t("wurf.caption.rim", { n: count("rim") }));
  const cocked = dice.filter((d) => d.status === "cocked").length;
  if (cocked) out.push(t("wurf.caption.cocked", { n: cocked }));
  const xs = count("x") + count("cocked-x");
  if (xs) out.push(t("wurf.caption.x", { n: xs }));
  if (last.taken) {
    const groups = last.takenFaces.map((f) => {
      const n = dice.filter((d, k) => fate[k] === "taken" && d.face === f).length;
      return Array.from({ length: n }, () => faceText(f)).join(", ");
    });
    out.push(t("wurf.caption.take", { groups: list(groups), name: who, n: last.taken }));
  } else if (!last.eliminated) {
    out.push(t("wurf.caption.differ", { name: who }));
  }
  if (last.eliminated) out.push(t("wurf.caption.eliminated", { name: who }));
  return out;
}

/** Log lines for an event: first the headline, then details. `prev` is the view before it. */
export function describeEvent(e: LogEntry, prev: WurfModel | null, now: WurfModel | null, name: (seat: number) => string): string[] {
  const move = e.move.trim();
  const seat = typeof e.actor === "number" ? e.actor : null;
  const who = seat !== null ? name(seat) : "";
  const floor = now?.geometry.floor ?? 200;
  const thr = /^throw (-?[\d.]+),(-?[\d.]+) p([\d.]+)/.exec(move);
  if (thr) {
    const big = prev?.bigNext ? t("wurf.log.big", { n: prev.diceNext }) : "";
    return [t("wurf.log.throw", { name: who, cell: cellOf(Number(thr[1]), Number(thr[2]), floor), power: formatNumber(Number(thr[3])) }) + big];
  }
  if (move === "resign") return [t("log.resign", { name: who })];
  if (move === "throw real") return [t("wurf.log.throw_real", { name: who })];
  if (move === "end") return [t("wurf.log.end", { name: who })];
  if (move.startsWith("move ")) return [t("wurf.log.move", { name: who, n: move.split(/\s+/).length - 1 })];
  const start = /^start ([X2-6])/.exec(move);
  if (start) return [t("wurf.log.start", { face: start[1] })];
  const dice = parseLands(move);
  if (dice && now) {
    const faces = dice.map((d) => (d.status === "out" || d.status === "rim" ? t(`wurf.die.${d.status}` as MessageId) : (d.status === "cocked" ? t("wurf.die.cocked", { face: faceText(d.face) }) : faceText(d.face))));
    return [t("wurf.log.lands", { dice: faces.join(" ") }), ...caption(dice, now, name)];
  }
  return [];
}
