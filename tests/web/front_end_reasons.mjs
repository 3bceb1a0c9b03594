// The front end's second copies of the rules, run on cases from tests/web/test_front_end_reasons.py: reads
// {"clever": [...], ...} as JSON on stdin and prints the TypeScript functions' answers as JSON, case by case.
// The test bundles this file with esbuild (the TypeScript modules it imports come along) and runs it in Node.

// i18n.ts reads the browser's language and sets the document's at import: a bare stand-in for both.
globalThis.document ??= { documentElement: {} };
globalThis.localStorage ??= { getItem: () => null, setItem: () => {} };
if (!globalThis.navigator) globalThis.navigator = { languages: ["en"], language: "en" };
// snabbdom's style module (dice.ts draws with it) looks for window.requestAnimationFrame at import.
globalThis.window ??= globalThis;

const clever = await import("../../web/src/views/clever-model.ts");
const cleverWords = await import("../../web/src/views/clever-words.ts");
const thousandModel = await import("../../web/src/views/thousand.ts");
const thousandWords = await import("../../web/src/views/thousand-words.ts");
const wurf = await import("../../web/src/views/wurf-model.ts");
const resignWords = await import("../../web/src/resign-words.ts");
const { default: en } = await import("../../web/src/locales/en.json");

// Dice 1000's words come from the English catalogue: the messages the test reads are made to say their id and
// parameters instead, as "\u0001id|key=value|...", so the answers can be held against the engine's message ids.
const MARK = "\u0001";
for (const id of Object.keys(en)) {
  if (!["thousand.refusal.", "thousand.event.", "resign.what.", "clever.why."].some((p) => id.startsWith(p))) continue;
  const keys = [...new Set([...String(en[id]).matchAll(/\{(\w+)\}/g)].map((x) => x[1]))];
  en[id] = MARK + [id, ...keys.map((k) => `${k}={${k}}`)].join("|");
}
/** A marked message back as {id, params} (numbers as numbers), or the text as it is. */
function unmark(text) {
  if (typeof text !== "string" || !text.startsWith(MARK)) return text;
  const [id, ...pairs] = text.slice(1).split("|");
  const params = {};
  for (const pair of pairs) {
    const [k, v] = [pair.slice(0, pair.indexOf("=")), pair.slice(pair.indexOf("=") + 1)];
    const n = Number(v.replaceAll(",", "").replace("\u2212", "-"));
    params[k] = v !== "" && Number.isFinite(n) ? n : v;
  }
  return { id, params };
}

/** Every die on every cell of every area of the sheet (grids by row and column, tracks by their next cell), as
 * the page answers a click: a legal entry, or the reason it shows (the die's, else the cell's). */
function cleverCase({ view }) {
  const m = clever.read(view);
  const targets = [];
  for (const area of ["yellow", "blue"]) {
    const rows = m.layout[area].values;
    for (let r = 0; r < rows.length; r++) for (let c = 0; c < rows[r].length; c++) targets.push({ area, r, c });
  }
  for (const area of ["green", "orange", "purple"]) targets.push({ area, r: 0, c: 0 });
  const out = [];
  for (const die of clever.DICE) {
    const takes = m.legal.some((x) => x.kind === "entry" && x.die === die);
    const dieWhy = clever.refusal(m, die);
    for (const t of targets) {
      const key = clever.targetKey(t);
      const legal = m.legal.some((x) => x.kind === "entry" && x.die === die && clever.targetKey(x.target) === key);
      const why = clever.refusal(m, die, key);
      out.push({ die, area: t.area, r: t.r, c: t.c, legal, takes, shown: why ? unmark(cleverWords.reasonText(why)) : null, dieShown: dieWhy ? unmark(cleverWords.reasonText(dieWhy)) : null });
    }
  }
  return { step: m.step, legal: m.legal.map((x) => x.text), probes: out };
}

/** Dice 1000: why the player to move may not bank, and what the step from `before` to `view` changed. */
function thousandCase({ before, view, rules, banker, names }) {
  const m = thousandModel.read(view);
  const prev = before ? thousandModel.read(before) : null;
  const name = (seat) => names[seat];
  return {
    refusal: unmark(thousandWords.refusalText(m, rules, m.bankRefusal)),
    consequences: thousandWords.consequences(prev, m, rules, name, banker).map(unmark),
  };
}

/** Der große Wurf: a throw's outcome as the page reads it, and what becomes of each die (by the view after it). */
function wurfCase({ move, view }) {
  const dice = wurf.parseLands(move);
  return { dice, fates: dice ? wurf.fates(dice, wurf.read(view).last?.takenFaces ?? []) : null };
}

/** What the confirm before a resign says follows, for a `game` table where `others` stay in. */
function resignCase({ game, others }) {
  const said = resignWords.resignConsequence(game, others);
  return said === "" ? null : unmark(said);
}

let input = "";
for await (const chunk of process.stdin) input += chunk;
const cases = JSON.parse(input);
const answers = {};
if (cases.clever) answers.clever = cases.clever.map(cleverCase);
if (cases.thousand) answers.thousand = cases.thousand.map(thousandCase);
if (cases.wurf) answers.wurf = cases.wurf.map(wurfCase);
if (cases.resign) answers.resign = cases.resign.map(resignCase);
process.stdout.write(JSON.stringify(answers));
