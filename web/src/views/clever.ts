// Ganz schön clever table: the six dice (rolled, on the three fields, on the silver platter), the score sheets
// (tabs for every player), and the decision at hand — pick a die and a lit cell, re-roll, +1, forfeit, take
// nothing, place a bonus cross. Hot seat: a handover screen between the players on this device, and during the
// passive phase the other passive players' fresh entries stay hidden until the phase is over.
import "./clever.css";
import type { LogEntry, View } from "../api";
import { die } from "../dice";
import { clear, h } from "../dom";
import { formatNumber, t } from "../i18n";
import { DICE, type CleverModel, type DieName, type Move, type Reason, type SheetModel, type Target, parseMove, read, targetKey, whyNot } from "./clever-model";
import { attributesModule, init, type VNode } from "snabbdom";
import { drawSheet } from "./clever-sheet";
import { areaWord, bonusWord, describeEvent, dieWord, inPassivePhase, ratingText, reasonText, statusText, tieBreakText } from "./clever-words";
import type { GameView, ViewContext } from "./index";

const patch = init([attributesModule]);

function keyTarget(key: string): Target | null {
  const m = /^(yellow|blue)\.r(\d)c(\d)$/.exec(key);
  if (m) return { area: m[1] as Target["area"], r: Number(m[2]) - 1, c: Number(m[3]) - 1 };
  if (key === "green" || key === "orange" || key === "purple") return { area: key, r: 0, c: 0 };
  return null;
}

export class CleverView implements GameView {
  private m: CleverModel | null = null;
  private selected: DieName | null = null;
  /** The sheet tab chosen by the reader (null: follow the game). */
  private chosenTab: number | null = null;
  private locked = false;
  private reason = "";
  /** Hot seat: the seat that confirmed it holds the device. */
  private holder: number | null = null;
  private passiveBase: { key: string; sheets: SheetModel[] } | null = null;
  /** The cell the last move filled, marked on the mover's sheet only. */
  private fresh = new Set<string>();
  private freshSeat = -1;
  private rolling = false;

  private readonly status = h("p", { class: "clever-status", "data-testid": "turn-status", "aria-live": "polite" });
  private readonly hint = h("p", { class: "clever-hint muted small", "data-testid": "hint" });
  private readonly pending = h("p", { class: "clever-pending", "data-testid": "pending-bonus", hidden: true });
  private readonly tray = h("div", { class: "clever-tray", "data-testid": "tray" });
  private readonly controls = h("div", { class: "clever-controls", "data-testid": "controls" });
  private readonly why = h("p", { class: "clever-why", role: "alert", "data-testid": "why" });
  private readonly tabs = h("div", { class: "clever-tabs", role: "tablist", "aria-label": t("clever.sheets") });
  private readonly sheetBox = h("div", { class: "clever-sheet-box", "data-testid": "sheet" });
  /** The sheet as last drawn (snabbdom patches the next drawing into it); first a placeholder element. */
  private sheetVNode: VNode | Element = this.sheetBox.appendChild(h("div"));
  private readonly board = h("div", { class: "clever-board" });
  private readonly handover = h("div", { class: "clever-handover card", hidden: true, "data-testid": "handover" });

  constructor(
    private readonly root: HTMLElement,
    private readonly ctx: ViewContext,
  ) {
    this.board.append(
      h("div", { class: "clever-head" }, h("div", { class: "clever-round", "data-testid": "round" }), this.status),
      this.tray,
      this.pending,
      this.controls,
      this.why,
      this.hint,
      this.tabs,
      this.sheetBox,
      h("p", { class: "muted small keys-hint" }, t("clever.keys")),
    );
    root.append(this.board, this.handover);
    root.classList.add("clever-root");
    this.sheetBox.addEventListener("click", (e) => {
      const el = (e.target as Element).closest("[data-target]");
      if (el) this.clickCell(el.getAttribute("data-target") ?? "");
    });
    // a lit cell reached with Tab takes the die on Enter or Space
    this.sheetBox.addEventListener("keydown", (e) => {
      const el = (e.target as Element).closest("[data-target]");
      if (!el || (e.key !== "Enter" && e.key !== " ")) return;
      e.preventDefault();
      e.stopPropagation();
      this.clickCell(el.getAttribute("data-target") ?? "");
    });
    this.tray.addEventListener("keydown", (e) => {
      const el = (e.target as HTMLElement).closest(".cdie.pickable") as HTMLElement | null;
      if (!el || (e.key !== "Enter" && e.key !== " ")) return;
      e.preventDefault();
      e.stopPropagation();
      this.clickDie(el.dataset.die as DieName);
    });
    document.addEventListener("keydown", this.onKey);
  }

  destroy(): void {
    document.removeEventListener("keydown", this.onKey);
    this.root.classList.remove("clever-root");
  }

  refused(): void {
    this.locked = false;
    this.render();
  }

  describe(entry: LogEntry, state: View | null): string[] {
    // (the page asks for the words before it shows the new state: this.m is still the position the move was made in)
    return describeEvent(entry, state, this.m, this.ctx.seatName, this.hotSeat());
  }

  summary(state: View): { headline: string; body: HTMLElement } {
    const m = read(state);
    const name = this.ctx.seatName;
    const solo = m.sheets.length === 1;
    const headline = solo ? t("clever.over.solo", { total: m.sheets[0]?.total ?? 0 }) : m.winners.length === 1 ? t("clever.over.winner", { name: name(m.winners[0]) }) : t("clever.over.winners", { names: m.winners.map(name).join(", ") });
    const areas = ["yellow", "blue", "green", "orange", "purple"] as const;
    // a column per player (at most four: it fits a phone), a row per area, then foxes and the total
    const win = (i: number): string => (m.winners.includes(i) ? "winner" : "");
    const row = (label: string, cls: string, cell: (s: SheetModel) => string | HTMLElement): HTMLElement =>
      h("tr", { class: cls }, h("th", { scope: "row" }, label), m.sheets.map((s, i) => h("td", { class: win(i), "data-seat": i }, cell(s))));
    const table = h(
      "table",
      { class: "clever-results", "data-testid": "results" },
      h("thead", null, h("tr", null, h("th", null, ""), m.sheets.map((_, i) => h("th", { scope: "col", class: win(i) }, name(i))))),
      h(
        "tbody",
        null,
        areas.map((a) => row(areaWord(a), `area-${a}`, (s) => formatNumber(s.areas[a]))),
        row(t("clever.over.foxes"), "foxes", (s) => t("clever.over.fox_points", { n: s.foxes, low: Math.min(...areas.map((a) => s.areas[a])), points: s.foxPoints })),
        row(t("clever.over.total"), "total", (s) => h("b", null, formatNumber(s.total))),
      ),
    );
    const body = h("div", { class: "clever-summary" }, table);
    if (solo) body.append(h("p", { class: "rating", "data-testid": "rating" }, ratingText(m)));
    const tie = tieBreakText(m, name);
    if (tie) body.append(h("p", { class: "tie-break", "data-testid": "tie-break" }, tie));
    return { headline, body };
  }

  update(state: View, fresh: LogEntry | null): void {
    const m = read(state);
    if (!m.layout) return;
    const before = this.m;
    this.m = m;
    this.locked = false;
    this.reason = "";
    this.fresh = new Set();
    this.rolling = fresh?.actor === "chance";
    if (fresh && fresh.actor !== "chance") {
      const mv = parseMove(fresh.move);
      if (mv && (mv.kind === "entry" || mv.kind === "choose")) {
        this.fresh.add(targetKey(mv.target));
        this.freshSeat = Number(fresh.actor);
      }
    }
    if (!before || before.actor !== m.actor || before.step !== m.step) {
      this.selected = null;
      if (!before || before.actor !== m.actor) this.chosenTab = null;
    }
    if (this.selected && !this.movesFor(this.selected).length) this.selected = null;
    // hot seat: remember the sheets as the passive phase found them
    const key = `${m.round}.${m.active}`;
    if (inPassivePhase(m)) {
      if (this.passiveBase?.key !== key) this.passiveBase = { key, sheets: m.sheets };
    } else this.passiveBase = null;
    this.render();
  }

  // -- who may act ------------------------------------------------------------------------------------------
  private hotSeat(): boolean {
    return this.ctx.mySeats().length > 1;
  }

  /** The seat this device decides for now, if any. */
  private mySeat(): number | null {
    if (!this.m) return null;
    const mine = this.ctx.mySeats();
    return this.m.deciders.find((s) => mine.includes(s)) ?? null;
  }

  private needsHandover(): boolean {
    const seat = this.mySeat();
    return this.hotSeat() && seat !== null && seat !== this.holder;
  }

  private myMoves(): Move[] {
    if (!this.m || this.locked || this.mySeat() === null || this.needsHandover()) return [];
    return this.m.legal;
  }

  private movesFor(d: DieName): Move[] {
    return this.myMoves().filter((x) => x.kind === "entry" && x.die === d);
  }

  private shownSeat(): number {
    const m = this.m;
    if (!m) return 0;
    if (this.chosenTab !== null && this.chosenTab < m.sheets.length) return this.chosenTab;
    const mine = this.ctx.mySeats();
    const me = this.mySeat();
    if (me !== null) return me;
    if (m.actor !== null && mine.includes(m.actor)) return m.actor;
    if (mine.length === 1) return mine[0];
    return m.actor ?? m.active;
  }

  /** The sheet as this device may see it: in hot seat, another passive player's choice stays hidden. */
  private visibleSheet(seat: number): SheetModel {
    const m = this.m as CleverModel;
    if (this.passiveBase && this.hotSeat() && seat !== m.actor && seat !== m.active && this.ctx.mySeats().includes(seat)) {
      return this.passiveBase.sheets[seat] ?? m.sheets[seat];
    }
    return m.sheets[seat];
  }

  // -- acting -----------------------------------------------------------------------------------------------
  private send(move: Move): void {
    const seat = this.mySeat();
    if (seat === null || this.locked) return;
    if (this.ctx.act(seat, move.text)) {
      this.locked = true;
      this.selected = null;
      this.reason = "";
      this.render();
    }
  }

  private refuse(r: Reason): void {
    this.reason = reasonText(r);
    this.render();
  }

  private clickDie(d: DieName): void {
    const m = this.m;
    const seat = this.mySeat();
    if (!m || seat === null || this.locked || this.needsHandover()) return;
    if (this.shownSeat() !== seat) this.chosenTab = seat;
    const moves = this.movesFor(d);
    if (!moves.length) {
      const where = m.dice.find((x) => x.die === d)?.where;
      if (m.step === "pick" && where !== "rolled") return this.refuse({ id: "not_rolled", params: { die: d } });
      if (m.step === "plus" && m.plusUsed[seat]?.includes(d)) return this.refuse({ id: "plus_used", params: { die: d } });
      if (m.step === "passive_pick" && where !== "platter" && this.myMoves().some((x) => x.kind === "entry")) return this.refuse({ id: "platter_first", params: { die: d } });
      return this.refuse({ id: "no_fit", params: { die: d } });
    }
    if (moves.length === 1) return this.send(moves[0]);
    this.selected = this.selected === d ? null : d;
    this.reason = "";
    this.render();
  }

  private clickCell(key: string): void {
    const m = this.m;
    const seat = this.mySeat();
    const tg = keyTarget(key);
    if (!m || !tg || this.locked || this.needsHandover()) return;
    if (seat === null) {
      if (m.actor !== null && !m.terminal) this.refuse({ id: "not_yours", params: { name: this.ctx.seatName(m.actor) } });
      return;
    }
    if (this.shownSeat() !== seat) return this.refuse({ id: "other_sheet", params: { name: this.ctx.seatName(this.shownSeat()) } });
    const moves = this.myMoves();
    const here = moves.filter((x) => (x.kind === "entry" || x.kind === "choose") && targetKey(x.target) === key && (x.kind !== "entry" || !this.selected || x.die === this.selected));
    if (m.step === "bonus") {
      if (here.length) return this.send(here[0]);
      return this.refuse({ id: "bonus_cell", params: {} });
    }
    if (this.selected) {
      if (here.length) return this.send(here[0]);
      return this.refuse(whyNot(m, seat, this.selected, tg));
    }
    const dice = new Set(here.map((x) => (x.kind === "entry" ? x.die : "")));
    if (here.length && dice.size === 1) return this.send(here[0]);
    this.refuse({ id: "pick_die", params: {} });
  }

  private simple(kind: "reroll" | "forfeit" | "stop" | "pass"): Move | undefined {
    return this.myMoves().find((x) => x.kind === kind);
  }

  private readonly onKey = (e: KeyboardEvent): void => {
    const target = e.target as HTMLElement | null;
    if (target && (target.tagName === "INPUT" || target.tagName === "SELECT" || target.tagName === "TEXTAREA")) return;
    if (e.ctrlKey || e.metaKey || e.altKey) return;
    if (this.needsHandover()) {
      if (e.key === "Enter" || e.key === " ") {
        e.preventDefault();
        this.takeOver();
      }
      return;
    }
    const k = e.key.toLowerCase();
    if (k >= "1" && k <= "6") return this.clickDie(DICE[Number(k) - 1]);
    if (k === "escape") {
      this.selected = null;
      this.reason = "";
      return this.render();
    }
    const map: Record<string, "reroll" | "forfeit" | "stop" | "pass"> = { r: "reroll", f: "forfeit" };
    const mv = k === "n" ? (this.simple("stop") ?? this.simple("pass")) : map[k] ? this.simple(map[k]) : undefined;
    if (mv) this.send(mv);
  };

  private takeOver(): void {
    this.holder = this.mySeat();
    this.chosenTab = null;
    this.render();
  }

  // -- drawing ----------------------------------------------------------------------------------------------
  private render(): void {
    const m = this.m;
    if (!m) return;
    const name = this.ctx.seatName;
    const seat = this.mySeat();
    const handover = this.needsHandover();
    // for tests and styling: what this device can do now
    this.root.dataset.state = m.terminal ? "over" : handover ? "handover" : seat !== null && !this.locked ? "act" : "wait";
    this.handover.hidden = !handover;
    this.board.hidden = handover;
    if (handover && seat !== null) this.drawHandover(seat);

    (this.board.querySelector(".clever-round") as HTMLElement).textContent = t("clever.round", { round: Math.min(m.round, m.rounds), rounds: m.rounds });
    this.status.textContent = statusText(m, name);
    this.status.classList.toggle("mine", seat !== null);
    this.hint.textContent = seat === null ? "" : this.hintText(m);
    this.pending.hidden = !m.pending;
    this.pending.textContent = m.pending ? t("clever.pending", { name: name(m.pending.player), bonus: bonusWord(m.pending.bonus) }) : "";
    this.why.textContent = this.reason;
    this.drawTray(m);
    this.drawControls(m, seat);
    this.drawTabs(m);
    this.drawSheet(m);
  }

  private hintText(m: CleverModel): string {
    if (m.step === "bonus") return t("clever.hint.bonus");
    if (m.step === "plus") return t("clever.hint.plus");
    if (m.step === "passive_pick") {
      const fallback = m.legal.some((x) => x.kind === "entry" && m.dice.find((d) => d.die === x.die)?.where === "field");
      const solo = m.sheets.length === 1 ? `${t("clever.dice.solo_rolled")}. ` : "";
      return solo + (fallback ? t("clever.hint.fallback") : t("clever.hint.passive"));
    }
    if (m.step === "pick") return this.selected ? t("clever.hint.cell", { die: dieWord(this.selected) }) : t("clever.hint.pick");
    return "";
  }

  private drawHandover(seat: number): void {
    const m = this.m as CleverModel;
    const name = this.ctx.seatName(seat);
    clear(this.handover);
    this.handover.append(
      h("h2", null, t("clever.handover.title", { name })),
      h("p", null, statusText(m, this.ctx.seatName)),
      h("p", { class: "muted" }, t("clever.handover.body")),
      h("button", { type: "button", class: "btn primary big", "data-testid": "handover-ready", onclick: () => this.takeOver() }, t("clever.handover.ready", { name })),
    );
  }

  private dieButton(d: DieName, value: number | null, opts: { clickable: boolean; used?: boolean; delay?: number }): HTMLElement {
    const face = value ?? 0;
    const el = face ? die(face, { rolling: this.rolling && !opts.used, delay: opts.delay }) : h("span", { class: "die slot" });
    el.classList.add("cdie", `cdie-${d}`);
    el.dataset.die = d;
    if (opts.used) el.classList.add("used");
    if (this.selected === d) el.classList.add("selected");
    if (opts.clickable) {
      el.classList.add("pickable");
      el.dataset.moves = String(this.movesFor(d).length);
      el.setAttribute("role", "button");
      el.setAttribute("tabindex", "0");
      el.setAttribute("aria-label", t("clever.ui.die_label", { die: dieWord(d), value: face }));
      el.addEventListener("click", () => this.clickDie(d));
    } else {
      el.setAttribute("aria-label", t("clever.ui.die_label", { die: dieWord(d), value: face }));
    }
    return el;
  }

  private drawTray(m: CleverModel): void {
    clear(this.tray);
    const seat = this.mySeat();
    const canPick = (d: DieName): boolean => seat !== null && this.movesFor(d).length > 0;
    const anyPick = seat !== null && m.step !== "bonus" && m.step !== "roll" && m.step !== "passive_roll";
    const rolled = m.dice.filter((d) => d.where === "rolled" || d.where === "to_roll" || (d.where === "unused" && d.value));
    const fields = [0, 1, 2].map((i) => m.fields[i] ?? null);
    const platter = m.dice.filter((d) => d.where === "platter");
    const box = (cls: string, label: string, testid: string, ...kids: HTMLElement[]): HTMLElement =>
      h("div", { class: `tray-box ${cls}`, "data-testid": testid }, h("span", { class: "tray-label" }, label), h("div", { class: "tray-dice" }, kids));
    const shown = (d: DieName): { value: number | null; where: string } => m.dice.find((x) => x.die === d) ?? { value: null, where: "" };
    this.tray.append(
      box(
        "rolled",
        t("clever.dice.rolled"),
        "rolled",
        ...rolled.map((d, i) => this.dieButton(d.die, d.where === "to_roll" ? null : d.value, { clickable: anyPick && canPick(d.die), used: d.where === "unused", delay: i * 40 })),
      ),
      box(
        "fields",
        t("clever.dice.fields"),
        "fields",
        ...fields.map((d) => (d ? this.dieButton(d, shown(d).value, { clickable: anyPick && canPick(d) }) : h("span", { class: "die slot field-slot" }))),
      ),
      box("platter", t("clever.dice.platter"), "platter", ...platter.map((d) => this.dieButton(d.die, d.value, { clickable: anyPick && canPick(d.die) }))),
    );
  }

  private drawControls(m: CleverModel, seat: number | null): void {
    clear(this.controls);
    if (seat === null) return;
    const sheet = m.sheets[seat];
    const btn = (mv: Move | undefined, label: string, testid: string, key: string): HTMLElement | null =>
      mv ? h("button", { type: "button", class: "btn", "data-testid": testid, "aria-keyshortcuts": key, onclick: () => this.send(mv) }, label) : null;
    const reroll = this.simple("reroll");
    const forfeit = this.simple("forfeit");
    this.controls.append(
      ...[
        btn(reroll, t("clever.btn.reroll", { n: sheet.rerolls.gained - sheet.rerolls.used }), "reroll-btn", "R"),
        btn(forfeit, t("clever.btn.forfeit"), "forfeit-btn", "F"),
        forfeit ? h("span", { class: "small forfeit-why", "data-testid": "forfeit-why" }, t("clever.forfeit_why")) : null,
        btn(this.simple("pass"), t("clever.btn.pass"), "pass-btn", "N"),
        btn(this.simple("stop"), t("clever.btn.stop", { n: sheet.plusOnes.gained - sheet.plusOnes.used }), "stop-btn", "N"),
        this.selected ? h("button", { type: "button", class: "btn ghost", "data-testid": "cancel-btn", onclick: () => ((this.selected = null), this.render()) }, t("clever.btn.cancel")) : null,
      ].filter((x): x is HTMLElement => x !== null),
    );
  }

  private drawTabs(m: CleverModel): void {
    clear(this.tabs);
    const shown = this.shownSeat();
    m.sheets.forEach((_, i) => {
      const deciding = m.deciders.includes(i) || m.pending?.player === i;
      const total = this.visibleSheet(i).total;
      const tab = h(
        "button",
        { type: "button", role: "tab", class: `clever-tab${i === shown ? " on" : ""}${deciding ? " deciding" : ""}`, "aria-selected": i === shown ? "true" : "false", "data-seat": i, onclick: () => ((this.chosenTab = i), this.render()) },
        h("span", { class: "tab-name" }, this.ctx.seatName(i)),
        i === m.active && !m.terminal ? h("span", { class: "badge small" }, t("clever.tab.active")) : null,
        deciding ? h("span", { class: "badge small deciding" }, t("clever.tab.deciding")) : null,
        h("b", { class: "tab-total" }, formatNumber(total)),
      );
      this.tabs.append(tab);
    });
    this.tabs.hidden = m.sheets.length < 2;
  }

  private drawSheet(m: CleverModel): void {
    const seat = this.shownSeat();
    const mine = this.mySeat() === seat;
    const targets = new Set<string>();
    if (mine) {
      for (const mv of this.myMoves()) {
        if (mv.kind === "choose" || (mv.kind === "entry" && this.selected === mv.die)) targets.add(targetKey(mv.target));
      }
    }
    const visible = this.visibleSheet(seat);
    // (no mark on a sheet drawn as the passive phase found it: it would point at the hidden choice)
    const fresh = seat === this.freshSeat && visible === m.sheets[seat] ? this.fresh : new Set<string>();
    const sheet = drawSheet(m.layout, visible, { targets, fresh, round: Math.min(m.round, m.rounds), rounds: m.rounds, label: t("clever.sheet.of", { name: this.ctx.seatName(seat) }), seat });
    this.sheetVNode = patch(this.sheetVNode, sheet);
    this.sheetBox.dataset.seat = String(seat);
  }
}
