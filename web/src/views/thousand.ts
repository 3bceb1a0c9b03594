// Dice 1000 table: the roll, set-aside dice, turn total, roll/bank with the refusal reason, scoreboard, R/B keys.
// Reads ThousandState.public_view(); field names are normalised in `read()` so the drawing code stays simple.
import type { LogEntry, View } from "../api";
import { die, dieSlot } from "../dice";
import { append, clear, h } from "../dom";
import type { GameView, ViewContext } from "./index";

export interface PlayerStatus {
  name: string;
  score: number;
  opened: boolean;
  pit: [number, number] | null;
  onBarrel: boolean;
  barrelAttempts: number | null;
  barrelFalls: number;
  bolts: number;
  openPoints: number;
  skipNext: boolean;
}

export interface ThousandModel {
  current: number | null;
  chance: boolean;
  terminal: boolean;
  legal: string[];
  players: PlayerStatus[];
  roll: number[];
  rollScoring: number[];
  rollPoints: number | null;
  setAside: number[];
  diceInHand: number;
  turnTotal: number;
  rolls: number;
  bankRefusal: string | null;
  bankNeed: number | null;
  events: string[];
  winners: number[];
  target: number;
}

type Obj = Record<string, unknown>;

const num = (v: unknown, d = 0): number => (typeof v === "number" && Number.isFinite(v) ? v : d);
const nums = (v: unknown): number[] => (Array.isArray(v) ? v.filter((x): x is number => typeof x === "number") : []);
const pick = (o: Obj, ...keys: string[]): unknown => {
  for (const k of keys) if (o[k] !== undefined && o[k] !== null) return o[k];
  return undefined;
};

function readPit(v: unknown): [number, number] | null {
  const p = nums(v);
  return p.length === 2 ? [p[0], p[1]] : null;
}

function readPlayer(raw: unknown, seat: number, score: number): PlayerStatus {
  const p: Obj = typeof raw === "object" && raw !== null ? (raw as Obj) : { name: raw };
  const attempts = pick(p, "barrel_attempts_left", "barrel_attempts", "attempts_left");
  return {
    name: typeof p.name === "string" && p.name ? p.name : `Seat ${seat + 1}`,
    score: num(pick(p, "score"), score),
    opened: Boolean(pick(p, "opened")),
    pit: readPit(pick(p, "pit")),
    onBarrel: Boolean(pick(p, "on_barrel", "barrel")),
    barrelAttempts: attempts === undefined ? null : num(attempts),
    barrelFalls: num(pick(p, "barrel_falls", "falls")),
    bolts: num(pick(p, "bolts")),
    openPoints: num(pick(p, "open_points", "barrel_points", "points")),
    skipNext: Boolean(pick(p, "skip_next", "skip_next_turn", "skip")),
  };
}

/** Normalise the engine's public view. */
export function read(v: View): ThousandModel {
  const o = v as unknown as Obj;
  const scores = nums(v.scores);
  const rawPlayers = Array.isArray(v.players) ? v.players : scores.map(() => null);
  const lastRoll = (pick(o, "last_roll") ?? null) as Obj | number[] | null;
  const roll = Array.isArray(lastRoll) ? nums(lastRoll) : lastRoll ? nums(pick(lastRoll, "dice")) : nums(pick(o, "roll", "dice"));
  let rollScoring: number[] = [];
  let rollPoints: number | null = null;
  if (lastRoll && !Array.isArray(lastRoll)) {
    rollPoints = num(pick(lastRoll, "points"), 0);
    const combos = pick(lastRoll, "combos");
    if (Array.isArray(combos)) rollScoring = combos.flatMap((c) => (Array.isArray(c) ? nums(c) : nums((c as Obj).dice)));
    else rollScoring = nums(pick(lastRoll, "scoring", "kept"));
  } else {
    rollScoring = nums(pick(o, "roll_scoring", "scoring_dice"));
    const pts = pick(o, "roll_points", "last_points");
    rollPoints = pts === undefined ? null : num(pts);
  }
  const cp = v.current_player;
  const events = pick(o, "events", "log", "happenings");
  return {
    current: typeof cp === "number" && cp >= 0 ? cp : null,
    chance: cp === "chance",
    terminal: Boolean(v.terminal),
    legal: Array.isArray(v.legal_actions) ? v.legal_actions : [],
    players: rawPlayers.map((p, i) => readPlayer(p, i, scores[i] ?? 0)),
    roll,
    rollScoring,
    rollPoints,
    setAside: nums(pick(o, "set_aside", "kept")),
    diceInHand: num(pick(o, "dice_in_hand", "dice_left", "in_hand"), 5),
    turnTotal: num(pick(o, "turn_total", "turn_points")),
    rolls: num(pick(o, "rolls", "rolls_this_turn")),
    bankRefusal: (pick(o, "bank_refusal") as string | undefined) ?? null,
    bankNeed: (pick(o, "bank_min", "min_bank", "need") as number | undefined) ?? null,
    events: Array.isArray(events) ? events.map(String) : [],
    winners: nums(v.winners),
    target: num(pick(o, "target"), 1000),
  };
}

/** Mark which dice of `roll` scored (each scoring face used once per occurrence). */
function scoringMask(roll: number[], scoring: number[]): boolean[] {
  const left = [...scoring];
  return roll.map((d) => {
    const i = left.indexOf(d);
    if (i < 0) return false;
    left.splice(i, 1);
    return true;
  });
}

function statusBadges(p: PlayerStatus, m: ThousandModel): HTMLElement[] {
  const out: HTMLElement[] = [];
  if (!p.opened) out.push(h("span", { class: "badge muted", title: "has not banked the opening minimum yet" }, "not opened"));
  if (p.pit) out.push(h("span", { class: "badge pit", title: `in the pit ${p.pit[0]}–${p.pit[1]}: must bank enough to reach ${p.pit[1]}` }, `pit ${p.pit[0]}–${p.pit[1]}`));
  if (p.onBarrel)
    out.push(
      h(
        "span",
        { class: "badge barrel", title: "on the barrel" },
        "🛢 barrel",
        p.barrelAttempts !== null ? ` · ${p.barrelAttempts} ${p.barrelAttempts === 1 ? "try" : "tries"}` : "",
      ),
    );
  if (p.barrelFalls) out.push(h("span", { class: "badge", title: "falls off the barrel this game" }, `falls ${p.barrelFalls}`));
  if (p.bolts) out.push(h("span", { class: "badge bolt", title: "bolts (zero-roll turns)" }, "🔩".repeat(Math.min(p.bolts, 5)), ` ${p.bolts}`));
  if (p.openPoints) out.push(h("span", { class: "badge", title: "open-barrel points (passing the target)" }, `• ${p.openPoints}`));
  if (p.skipNext) out.push(h("span", { class: "badge muted" }, "skips next turn"));
  void m;
  return out;
}

export class ThousandView implements GameView {
  private readonly status = h("p", { class: "turn-status", "data-testid": "turn-status", "aria-live": "polite" });
  private readonly tray = h("div", { class: "dice-tray", "data-testid": "roll", "aria-label": "last roll" });
  private readonly aside = h("div", { class: "dice-aside", "data-testid": "set-aside", "aria-label": "set-aside dice" });
  private readonly total = h("div", { class: "turn-total", "data-testid": "turn-total" });
  private readonly rollBtn = h("button", { type: "button", class: "btn primary big", "data-testid": "roll-btn", "aria-keyshortcuts": "R" }, h("u", null, "R"), "oll");
  private readonly bankBtn = h("button", { type: "button", class: "btn big", "data-testid": "bank-btn", "aria-keyshortcuts": "B" }, h("u", null, "B"), "ank");
  private readonly extra = h("div", { class: "extra-actions" });
  private readonly reason = h("p", { class: "bank-reason", "data-testid": "bank-reason", "aria-live": "polite" });
  private readonly board = h("table", { class: "scoreboard", "data-testid": "scoreboard" });
  private readonly happenings = h("ul", { class: "happenings", "data-testid": "happenings" });
  private model: ThousandModel | null = null;
  private busy = false;
  private readonly onKey = (e: KeyboardEvent): void => this.key(e);

  constructor(
    root: HTMLElement,
    private readonly ctx: ViewContext,
  ) {
    this.rollBtn.addEventListener("click", () => this.send("roll"));
    this.bankBtn.addEventListener("click", () => this.send("bank"));
    root.append(
      h(
        "div",
        { class: "thousand" },
        this.status,
        h("div", { class: "felt" }, h("div", { class: "felt-row" }, this.tray), h("div", { class: "aside-row" }, h("span", { class: "label" }, "Set aside"), this.aside), this.total),
        h("div", { class: "controls" }, this.rollBtn, this.bankBtn, this.extra),
        this.reason,
        this.happenings,
        this.board,
      ),
    );
    document.addEventListener("keydown", this.onKey);
  }

  destroy(): void {
    document.removeEventListener("keydown", this.onKey);
  }

  refused(): void {
    this.busy = false;
    if (this.model) this.drawControls(this.model);
  }

  /** The seat this browser acts for now, if any. */
  private actor(m: ThousandModel): number | null {
    return m.current !== null && this.ctx.mySeats().includes(m.current) ? m.current : null;
  }

  private send(move: string): void {
    const m = this.model;
    if (!m || this.busy) return;
    const seat = this.actor(m);
    if (seat === null || !m.legal.includes(move)) return;
    if (this.ctx.act(seat, move)) {
      this.busy = true;
      this.drawControls(m);
    }
  }

  private key(e: KeyboardEvent): void {
    if (e.ctrlKey || e.metaKey || e.altKey) return;
    const t = e.target as HTMLElement | null;
    if (t && (t.tagName === "INPUT" || t.tagName === "TEXTAREA" || t.tagName === "SELECT" || t.isContentEditable)) return;
    const k = e.key.toLowerCase();
    if (k === "r") this.send("roll");
    else if (k === "b") this.send("bank");
    else return;
    e.preventDefault();
  }

  update(state: View, fresh: LogEntry | null): void {
    const m = read(state);
    this.model = m;
    this.busy = false;
    const rolled = fresh !== null && fresh.actor === "chance";
    this.drawStatus(m);
    this.drawDice(m, rolled);
    this.drawControls(m);
    this.drawBoard(m);
    clear(this.happenings);
    for (const e of m.events) this.happenings.append(h("li", null, e));
  }

  private drawStatus(m: ThousandModel): void {
    clear(this.status);
    if (m.terminal) {
      const names = m.winners.map((w) => m.players[w]?.name ?? this.ctx.seatName(w));
      this.status.append(names.length ? `Game over — ${names.join(" and ")} ${names.length > 1 ? "win" : "wins"}` : "Game over");
      return;
    }
    if (m.current === null) {
      this.status.append(m.chance ? "Rolling…" : "Waiting…");
      return;
    }
    const name = m.players[m.current]?.name ?? this.ctx.seatName(m.current);
    const mine = this.actor(m) !== null;
    append(this.status, [
      h("span", { class: mine ? "you" : "" }, mine ? `${name}, your turn` : `${name} is playing…`),
      m.rolls ? h("span", { class: "muted" }, ` · roll ${m.rolls} · ${m.diceInHand} ${m.diceInHand === 1 ? "die" : "dice"} to roll`) : null,
    ]);
  }

  private drawDice(m: ThousandModel, rolled: boolean): void {
    clear(this.tray);
    const mask = scoringMask(m.roll, m.rollScoring);
    if (m.roll.length) {
      m.roll.forEach((d, i) => this.tray.append(die(d, { rolling: rolled, scoring: mask[i], delay: rolled ? i * 40 : 0 })));
    } else {
      for (let i = 0; i < Math.max(1, m.diceInHand); i++) this.tray.append(dieSlot());
    }
    if (m.roll.length && m.rollPoints !== null) {
      this.tray.append(h("span", { class: m.rollPoints ? "roll-points" : "roll-points zero" }, m.rollPoints ? `+${m.rollPoints}` : "zero roll"));
    }
    clear(this.aside);
    if (m.setAside.length) for (const d of m.setAside) this.aside.append(die(d, { setAside: true }));
    else this.aside.append(h("span", { class: "muted" }, "—"));
    clear(this.total);
    this.total.append(h("span", { class: "label" }, "Turn total"), h("strong", null, String(m.turnTotal)));
  }

  private drawControls(m: ThousandModel): void {
    const seat = this.actor(m);
    const canAct = seat !== null && !this.busy && !m.terminal;
    this.rollBtn.disabled = !(canAct && m.legal.includes("roll"));
    // Bank stays visible while refused so the player sees why.
    this.bankBtn.disabled = !(canAct && m.legal.includes("bank"));
    clear(this.extra);
    for (const a of m.legal.filter((x) => x !== "roll" && x !== "bank")) {
      this.extra.append(h("button", { type: "button", class: "btn", disabled: !canAct, onclick: () => this.send(a) }, a));
    }
    this.reason.textContent = seat !== null && !m.terminal && m.bankRefusal && !m.legal.includes("bank") ? `Can't bank: ${m.bankRefusal}` : "";
  }

  private drawBoard(m: ThousandModel): void {
    clear(this.board);
    this.board.append(
      h("thead", null, h("tr", null, h("th", { scope: "col" }, "Player"), h("th", { scope: "col", class: "num" }, "Score"), h("th", { scope: "col" }, "Status"))),
      h(
        "tbody",
        null,
        m.players.map((p, seat) =>
          h(
            "tr",
            { class: [seat === m.current ? "current" : "", m.winners.includes(seat) ? "winner" : ""].join(" ").trim(), "data-seat": seat },
            h("th", { scope: "row" }, seat === m.current ? "▶ " : "", p.name, this.ctx.mySeats().includes(seat) ? h("span", { class: "you-tag" }, " (you)") : null),
            h("td", { class: "num score" }, String(p.score), h("span", { class: "progress", style: `--p:${Math.max(0, Math.min(100, (p.score / m.target) * 100))}%` })),
            h("td", { class: "status" }, statusBadges(p, m)),
          ),
        ),
      ),
    );
  }
}
