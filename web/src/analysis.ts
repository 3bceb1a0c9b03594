// The Analysis / replay page of a finished game (lichess-style), game-neutral: the position drawn by the game's
// own view (as a spectator sees it), a value chart, each decision's class and the best alternative, the luck of
// each roll and the totals per player. Everything is fetched once (GET .../analysis and .../positions); stepping
// only redraws.
import { api, type AnalysisResult, type AnalysisStep, type LogEntry, type Positions, type TableInfo, type View } from "./api";
import { ValueChart } from "./analysis-chart";
import { clear, h } from "./dom";
import { apiErrorText } from "./errors";
import { formatNumber, hasKey, t, tKey, type MessageId } from "./i18n";
import { gameTitle, presetName, seatLabel } from "./names";
import { actorName } from "./table";
import { tableDetails } from "./table-details";
import { verifyButton } from "./verify-dice";
import { VIEWS, type GameView, type ViewContext } from "./views";

const MARK: Record<string, string> = { inaccuracy: "?!", mistake: "?", blunder: "??" };
type Cls = "inaccuracy" | "mistake" | "blunder" | "good" | "best";
const CLASS_ID = {
  inaccuracy: "analysis.cls.inaccuracy",
  mistake: "analysis.cls.mistake",
  blunder: "analysis.cls.blunder",
  good: "analysis.cls.good",
  best: "analysis.cls.best",
} as const satisfies Record<Cls, MessageId>;

/** Every position: the first view, then each event's changes applied (views share unchanged fields). */
export function rebuildViews(p: Positions): View[] {
  const out: View[] = [p.first];
  for (const c of p.changes) {
    const next: Record<string, unknown> = { ...out[out.length - 1], ...c.set };
    for (const key of c.drop) delete next[key];
    for (const [key, entries] of Object.entries(c.items ?? {})) {
      const list = [...(next[key] as unknown[])];
      for (const [i, value] of Object.entries(entries)) list[Number(i)] = value;
      next[key] = list;
    }
    out.push(next as View);
  }
  return out;
}

function round1(v: number): number {
  return Math.round(v * 10) / 10;
}

export function renderAnalysis(app: HTMLElement, tableId: string): () => void {
  const title = h("h1", { class: "table-title" }, t("analysis.page_title"));
  const links = h(
    "p",
    { class: "actions small" },
    h("a", { href: `/table/${tableId}`, "data-link": true }, t("analysis.back_to_table")),
    " · ",
    h("a", { href: api.recordUrl(tableId), download: `dicehall-${tableId}.json` }, t("table.download")),
  );
  const body = h("div", { class: "analysis-body" }, h("p", { class: "muted" }, t("common.loading")));
  app.append(h("section", { class: "analysis-page", "data-testid": "analysis" }, title, tableDetails(tableId), links, verifyButton(tableId), body));

  let destroyed = false;
  let cleanup: (() => void) | null = null;
  Promise.all([api.table(tableId), api.positions(tableId), api.analysis(tableId).catch((err: unknown) => err)])
    .then(([info, pos, analysis]) => {
      if (destroyed) return;
      title.replaceChildren(`${t("analysis.page_title")} · ${gameTitle(info.game)} `, info.preset ? h("small", null, `· ${presetName(info.game, info.preset)}`) : "");
      clear(body);
      cleanup = build(body, info, pos, analysis instanceof Error ? null : (analysis as AnalysisResult), analysis instanceof Error ? apiErrorText(analysis) : "", askedStep());
    })
    .catch((err: unknown) => {
      if (destroyed) return;
      clear(body);
      body.append(h("div", { class: "card error", "data-testid": "analysis-error" }, h("h2", null, t("analysis.cannot_open")), h("p", null, apiErrorText(err)), h("a", { href: "/", "data-link": true }, t("nav.back_home"))));
    });
  return () => {
    destroyed = true;
    cleanup?.();
  };
}

/** The step the address asks for (`?step=K`, the game-over card's link to a costly decision); null: the last. */
function askedStep(): number | null {
  const k = Number(new URLSearchParams(location.search).get("step") ?? "");
  return Number.isInteger(k) && k >= 0 && location.search.includes("step=") ? k : null;
}

/** Keep the step shown in the address (a reload or a shared link opens the same one). */
function rememberStep(k: number, n: number): void {
  if (!/\/analysis$/.test(location.pathname)) return;
  const search = k === n ? "" : `?step=${k}`;
  if (location.search !== search) history.replaceState(history.state, "", location.pathname + search);
}

function build(root: HTMLElement, info: TableInfo, pos: Positions, a: AnalysisResult | null, why: string, start: number | null): () => void {
  const views = rebuildViews(pos);
  const n = views.length - 1;
  const entries: LogEntry[] = pos.events.map((e) => ({ seq: e.seq, actor: e.actor, move: e.move }));
  const steps = new Map<number, AnalysisStep>((a?.steps ?? []).map((s) => [s.n, s]));
  let rules: Record<string, unknown> = { ...(info.overrides ?? {}) };
  const seatName = (seat: number): string => {
    const s = info.seats.find((x) => x.seat === seat);
    return s ? seatLabel(s) : (pos.players[seat] ?? t("seat.player", { n: seat + 1 }));
  };
  const ctx: ViewContext = { mySeats: () => [], act: () => false, enter: () => false, undo: () => false, seatName, rules: () => rules };
  const factory = VIEWS[info.game];
  const boardRoot = h("div", { class: "view-root replay-board", "data-testid": "replay-board" });
  const view: GameView | null = factory ? factory(boardRoot, ctx) : null;
  if (!view) boardRoot.append(h("p", { class: "card" }, t("table.no_view", { game: gameTitle(info.game) })));

  // The words of every event and of each best alternative, from the view's own narration (no drawing); a view
  // without `narrate` is walked through the positions by a second, unattached copy (describe() words a move from
  // the position before it).
  const narrator = view?.narrate ? null : factory ? factory(h("div"), ctx) : null;
  const tell = (e: LogEntry, k: number, after: View | null): string => {
    if (view?.narrate) return view.narrate(e, views[k - 1], after)[0] ?? "";
    narrator?.update(views[k - 1], null);
    return narrator?.describe?.(e, after)[0] || (after ? "" : (narrator?.describe?.(e, views[k - 1])[0] ?? ""));
  };
  const words: string[] = [""];
  const bestWords: string[] = [""];
  for (let k = 1; k <= n; k++) {
    const e = entries[k - 1];
    words.push(tell(e, k, views[k]) || t("log.move", { name: actorName(e.actor, seatName), move: e.move }));
    const s = steps.get(k);
    const best = s && s.kind === "decision" && s.best && s.best !== s.move ? s.best : "";
    // (the position after a move not played is unknown)
    bestWords.push(best ? tell({ seq: k, actor: s?.seat ?? 0, move: best }, k, null) || best : "");
  }
  narrator?.destroy();

  const unit = a?.unit ?? "points";
  const fmt = (v: number): string => (unit === "win%" ? `${formatNumber(round1(v))}%` : formatNumber(round1(v)));
  const signed = (v: number): string => (round1(v) > 0 ? `+${fmt(v)}` : round1(v) < 0 ? `−${fmt(-v)}` : fmt(0));

  let current = -1;
  const slider = h("input", { type: "range", min: 0, max: n, step: 1, value: 0, class: "replay-slider", "data-testid": "replay-slider", "aria-label": t("analysis.slider") });
  const counter = h("span", { class: "replay-counter muted small", "data-testid": "replay-counter" });
  const button = (label: string, symbol: string, go: () => number, testid: string): HTMLButtonElement =>
    h("button", { type: "button", class: "btn", "aria-label": label, title: label, "data-testid": testid, onclick: () => show(go(), false) }, symbol);
  const controls = h(
    "div",
    { class: "replay-controls" },
    button(t("analysis.first"), "«", () => 0, "replay-first"),
    button(t("analysis.prev"), "‹", () => current - 1, "replay-prev"),
    slider,
    button(t("analysis.next"), "›", () => current + 1, "replay-next"),
    button(t("analysis.last"), "»", () => n, "replay-last"),
  );
  const stepInfo = h("div", { class: "step-info", "data-testid": "step-info", "aria-live": "polite" });
  // it scrolls: focusable, so that a keyboard can scroll it too
  const moveList = h("ol", { class: "move-list", "data-testid": "moves", tabindex: 0, "aria-label": t("table.events") });
  const chart = a ? new ValueChart(a, t("analysis.chart_label"), (k) => show(k, false)) : null;

  for (let k = 1; k <= n; k++) {
    const s = steps.get(k);
    const mark = s?.kind === "decision" && s.class ? h("b", { class: `cls ${s.class}`, title: t(CLASS_ID[s.class]) }, ` ${MARK[s.class]}`) : null;
    const luck = s?.kind === "roll" && round1(s.luck) !== 0 ? h("span", { class: `luck ${s.luck > 0 ? "good" : "bad"} small` }, ` ${signed(s.luck)}`) : null;
    moveList.append(
      h("li", { "data-step": k, class: entries[k - 1].actor === "chance" ? "chance" : "", onclick: () => show(k, false) }, h("span", { class: "seq" }, String(k)), " ", words[k], mark, luck),
    );
  }

  const unitText = !a ? why : unit === "win%" ? t("analysis.unit_win") : info.game === "clever" ? t("analysis.unit_clever") : t("analysis.unit_points");
  // a note the page has words for (the shipped table: values within ±x of the exact ones) follows the unit's line
  const unitNote = a?.note_id && hasKey(a.note_id) ? `${unitText} ${tKey(a.note_id, a.note, a.note_params)}` : unitText;
  const totals = a ? totalsTable(a, seatName, fmt, signed) : null;

  root.append(
    h(
      "div",
      { class: "analysis-grid" },
      h("div", { class: "analysis-main" }, boardRoot),
      h(
        "aside",
        { class: "analysis-side" },
        h("div", { class: "card chart-card" }, chart ? chart.svg : null, legend(a, seatName), h("p", { class: "muted small", "data-testid": "unit-note" }, unitNote), controls, counter),
        stepInfo,
        totals ? h("div", { class: "card" }, h("h2", null, t("analysis.totals")), totals) : null,
        h("div", { class: "card" }, h("h2", null, t("table.events")), moveList),
      ),
    ),
  );

  function describeStep(k: number): void {
    clear(stepInfo);
    stepInfo.className = "card step-info";
    if (k === 0) {
      stepInfo.append(h("h2", null, t("analysis.start")));
    } else {
      stepInfo.append(h("h2", null, t("analysis.step", { k, n }), " ", h("span", { class: "step-words" }, words[k])));
      const s = steps.get(k);
      if (s?.kind === "decision") {
        const cls: Cls = s.class ?? (s.loss > 0 ? "good" : "best");
        stepInfo.append(
          h(
            "p",
            null,
            h("span", { class: `badge cls-badge ${cls}`, "data-testid": "step-class", "data-class": cls }, t(CLASS_ID[cls])),
            " ",
            s.loss > 0 ? t("analysis.loss", { loss: fmt(s.loss) }) : "",
          ),
        );
        if (bestWords[k]) stepInfo.append(h("p", { "data-testid": "step-best" }, t("analysis.best", { move: bestWords[k], value: fmt(s.best_value), played: fmt(s.value) })));
      } else if (s?.kind === "resign") {
        // (a correspondence seat that ran out of time is weighed as a resign: docs/web.md)
        stepInfo.append(h("p", { class: "muted", "data-testid": "step-resign" }, t(s.move === "timeout" ? "analysis.timed_out" : "analysis.resigned", { name: seatName(s.seat) })));
      } else if (s?.kind === "forced") {
        stepInfo.append(h("p", { class: "muted" }, t("analysis.forced")));
      } else if (s?.kind === "roll") {
        stepInfo.append(
          h("p", { "data-testid": "step-luck" }, h("span", { class: `luck ${s.luck > 0 ? "good" : s.luck < 0 ? "bad" : ""}` }, t("analysis.luck", { name: seatName(s.seat), luck: signed(s.luck) })), " ", h("span", { class: "muted small" }, t("analysis.expected", { value: fmt(s.expected), got: fmt(s.value) }))),
        );
      }
    }
    const row = a?.series[k];
    if (row) {
      stepInfo.append(
        h(
          "p",
          { class: "small values" },
          t(unit === "win%" ? "analysis.values_win" : "analysis.values_points"),
          " ",
          row.map((v, seat) => h("span", { class: `value seat-${seat % 4}` }, `${seatName(seat)} ${fmt(v)}`)),
        ),
      );
    }
  }

  function show(k: number, stepped: boolean): void {
    k = Math.max(0, Math.min(n, k));
    if (k === current) return;
    const forward = stepped && k === current + 1;
    current = k;
    view?.update(views[k], forward && k > 0 ? entries[k - 1] : null);
    slider.value = String(k);
    counter.textContent = t("analysis.counter", { k, n });
    rememberStep(k, n);
    chart?.show(k);
    describeStep(k);
    moveList.querySelector("li.current")?.classList.remove("current");
    const li = moveList.querySelector(`li[data-step="${k}"]`) as HTMLElement | null;
    if (li) {
      li.classList.add("current");
      // keep the current move in sight inside the list, never scrolling the page
      const top = li.offsetTop - moveList.offsetTop;
      if (top < moveList.scrollTop || top + li.offsetHeight > moveList.scrollTop + moveList.clientHeight) moveList.scrollTop = top - moveList.clientHeight / 2;
    }
  }

  slider.addEventListener("input", () => show(Number(slider.value), false));
  const onKey = (e: KeyboardEvent): void => {
    if (e.ctrlKey || e.metaKey || e.altKey) return;
    const target = e.target as HTMLElement | null;
    if (target && target !== slider && (target.tagName === "INPUT" || target.tagName === "TEXTAREA" || target.tagName === "SELECT" || target.isContentEditable)) return;
    const to = e.key === "ArrowRight" ? current + 1 : e.key === "ArrowLeft" ? current - 1 : e.key === "Home" ? 0 : e.key === "End" ? n : null;
    if (to === null) return;
    e.preventDefault(); // (also for the slider: one step per key, never two)
    show(to, e.key === "ArrowRight");
  };
  document.addEventListener("keydown", onKey);

  // The full rule values (targets, limits) for the view's texts, as at the table.
  if (info.preset) {
    api
      .rules(info.game, info.preset)
      .then((opts) => {
        rules = { ...Object.fromEntries(opts.map((o) => [o.key, o.value])), ...(info.overrides ?? {}) };
        const k = current;
        current = -1;
        show(k, false);
      })
      .catch(() => undefined);
  }
  show(start ?? n, false);
  return () => {
    document.removeEventListener("keydown", onKey);
    view?.destroy();
  };
}

function legend(a: AnalysisResult | null, seatName: (s: number) => string): HTMLElement | null {
  if (!a) return null;
  return h(
    "p",
    { class: "chart-legend small" },
    a.players.map((_, seat) => h("span", { class: `key seat-${seat % 4}` }, seatName(seat))),
    (["inaccuracy", "mistake", "blunder"] as const).map((c) => h("span", { class: `key mark-${c}` }, t(CLASS_ID[c]))),
  );
}

function totalsTable(a: AnalysisResult, seatName: (s: number) => string, fmt: (v: number) => string, signed: (v: number) => string): HTMLElement {
  // the three classes as lichess marks them (?!, ?, ??), their words in the tooltip: the table fits a phone
  const head: [string, string][] = [
    [t("analysis.th.player"), ""],
    [t("analysis.th.accuracy"), ""],
    [t("analysis.th.mean_loss"), ""],
    [MARK.inaccuracy, t("analysis.th.inaccuracies")],
    [MARK.mistake, t("analysis.th.mistakes")],
    [MARK.blunder, t("analysis.th.blunders")],
    [t("analysis.th.luck"), ""],
  ];
  return h(
    "div",
    { class: "totals-wrap" },
    h(
      "table",
      { class: "totals", "data-testid": "totals" },
      h("thead", null, h("tr", null, head.map(([c, title]) => h("th", { scope: "col", title: title || null, "aria-label": title || null }, c)))),
      h(
        "tbody",
        null,
        a.totals.map((r) =>
          h(
            "tr",
            { "data-seat": r.seat },
            h("th", { scope: "row" }, seatName(r.seat)),
            h("td", null, `${formatNumber(round1(r.accuracy))}%`),
            h("td", null, fmt(r.mean_loss)),
            h("td", null, formatNumber(r.inaccuracies)),
            h("td", null, formatNumber(r.mistakes)),
            h("td", null, formatNumber(r.blunders)),
            h("td", { class: `luck ${r.luck > 0 ? "good" : r.luck < 0 ? "bad" : ""}` }, signed(r.luck)),
          ),
        ),
      ),
    ),
  );
}
