// The front end's second copies of the rules, run on cases from tests/web/test_front_end_reasons.py: reads
// {"clever": [...], ...} as JSON on stdin and prints the TypeScript functions' answers as JSON, case by case.
// The test bundles this file with esbuild (the TypeScript modules it imports come along) and runs it in Node.

// i18n.ts reads the browser's language and sets the document's at import: a bare stand-in for both.
globalThis.document ??= { documentElement: {} };
globalThis.localStorage ??= { getItem: () => null, setItem: () => {} };
if (!globalThis.navigator) globalThis.navigator = { languages: ["en"], language: "en" };

const clever = await import("../../web/src/views/clever-model.ts");

/** Every die on every cell of every area of the sheet (grids by row and column, tracks by their next cell),
 * as the page answers a click: a legal entry (and the value it enters), or why not. */
function cleverCase({ view, seat }) {
  const m = clever.read(view);
  const targets = [];
  for (const area of ["yellow", "blue"]) {
    const rows = m.layout[area].values;
    for (let r = 0; r < rows.length; r++) for (let c = 0; c < rows[r].length; c++) targets.push({ area, r, c });
  }
  for (const area of ["green", "orange", "purple"]) targets.push({ area, r: 0, c: 0 });
  const out = [];
  for (const die of clever.DICE) {
    for (const t of targets) {
      const key = clever.targetKey(t);
      const legal = m.legal.some((x) => x.kind === "entry" && x.die === die && clever.targetKey(x.target) === key);
      out.push({
        die,
        area: t.area,
        r: t.r,
        c: t.c,
        legal,
        value: clever.enteredValue(m, die, t.area),
        reason: legal ? null : clever.whyNot(m, seat, die, t),
      });
    }
  }
  return { step: m.step, legal: m.legal.map((x) => x.text), probes: out };
}

let input = "";
for await (const chunk of process.stdin) input += chunk;
const cases = JSON.parse(input);
const answers = {};
if (cases.clever) answers.clever = cases.clever.map(cleverCase);
process.stdout.write(JSON.stringify(answers));
