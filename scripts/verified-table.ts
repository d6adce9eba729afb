/**
 * `npm run verified`: merge what test runs verified (the JSON files test/helpers/
 * verified-reporter.ts wrote into $NUDGE_VERIFIED_DIR, default .verified/) into
 * data/verified-versions.json — the table shipped in the package and read by `nudge doctor` —
 * and print it as Markdown (the README's table). An entry is one program at one version on
 * one tmux and Node. The records of one batch (one .ci/run, or the runs made by hand since
 * the folder was emptied) add up scenario by scenario, the latest run of each scenario saying
 * whether it passed; a row the batch has replaces the table's row for the same program,
 * version, tmux and Node major.
 *
 *   NUDGE_VERIFIED_DIR=.verified npx vitest run --project integration …   # record
 *   npm run verified                                                       # merge, print
 *   npm run verified -- --print                                            # print only
 *
 * It also writes the table into the README, between its `<!-- verified-table … -->` markers.
 */
import {existsSync, readdirSync, readFileSync, statSync, writeFileSync} from 'node:fs';
import {join} from 'node:path';
import {
  compareVersions,
  doorsVerified,
  VERIFIED_FILE,
  type VerifiedEntry,
  type VerifiedTable,
} from '../src/agents/verified.js';
import {findRepoRoot} from '../test/harness/private-tmux.js';

const root = findRepoRoot();
const file = join(root, 'data', VERIFIED_FILE);
const table = JSON.parse(readFileSync(file, 'utf8')) as VerifiedTable;
const dir = process.env.NUDGE_VERIFIED_DIR || join(root, '.verified');
/** How the reporter marks a scenario that failed. */
const FAILED = 'FAILED: ';
const keyOf = (e: VerifiedEntry) => `${e.program}|${e.version}|${e.tmux}|${e.node.split('.')[0]}`;

if (!process.argv.includes('--print') && existsSync(dir)) {
  // Runs of the same program, version, tmux and Node add up, scenario by scenario: the last
  // run of a scenario (files in the order written) says whether it passed.
  const fresh = new Map<string, {entry: VerifiedEntry; outcomes: Map<string, boolean>}>();
  const files = readdirSync(dir)
    .filter((n) => n.endsWith('.json'))
    .map((n) => join(dir, n))
    .sort((a, b) => statSync(a).mtimeMs - statSync(b).mtimeMs);
  for (const path of files) {
    for (const e of JSON.parse(readFileSync(path, 'utf8')) as VerifiedEntry[]) {
      const had = fresh.get(keyOf(e)) ?? {entry: e, outcomes: new Map<string, boolean>()};
      for (const s of e.scenarios) {
        const failed = s.startsWith(FAILED);
        had.outcomes.set(failed ? s.slice(FAILED.length) : s, !failed);
      }
      had.entry = {...e, date: [had.entry.date, e.date].sort().at(-1) ?? e.date};
      fresh.set(keyOf(e), had);
    }
  }
  const merged = [...fresh.values()].map(({entry, outcomes}) => {
    const names = [...outcomes.keys()].sort();
    const passed = names.filter((n) => outcomes.get(n));
    const failed = names.filter((n) => !outcomes.get(n));
    return {
      ...entry,
      passed: passed.length,
      failed: failed.length,
      scenarios: [...passed, ...failed.map((n) => `${FAILED}${n}`)],
    };
  });
  const kept = table.entries.filter((e) => !fresh.has(keyOf(e)));
  table.entries = [...kept, ...merged].sort(
    (a, b) =>
      a.program.localeCompare(b.program) ||
      compareVersions(a.version, b.version) ||
      compareVersions(a.tmux, b.tmux) ||
      a.node.localeCompare(b.node),
  );
  writeFileSync(file, `${JSON.stringify(table, null, 2)}\n`);
}

const cells = [
  ['program', 'version', 'tmux', 'Node', 'scenarios passed', 'doors', 'date'],
  ...table.entries.map((e) => [
    e.program,
    e.version,
    e.tmux,
    e.node.split('.')[0] ?? e.node,
    `${e.passed}/${e.passed + e.failed}`,
    doorsVerified({...table, entries: [e]}, e.program, e.version).join(', ') || '–',
    e.date,
  ]),
];
// Columns padded as the formatter (Biome) writes a Markdown table, so the README stays lint-clean.
const widths =
  cells[0]?.map((_, i) => Math.max(3, ...cells.map((row) => row[i]?.length ?? 0))) ?? [];
const line = (row: string[]) => `| ${row.map((c, i) => c.padEnd(widths[i] ?? 0)).join(' | ')} |`;
const [header = [], ...body] = cells;
const markdown = [
  line(header),
  line(widths.map((w) => '-'.repeat(w))),
  ...body.map(line),
  '',
  `Minimum: ${Object.entries(table.minimum)
    .map(([k, v]) => `${k} ${v}`)
    .join(', ')}.`,
  '',
].join('\n');
process.stdout.write(markdown);
if (!process.argv.includes('--print')) {
  const readme = join(root, 'README.md');
  const text = readFileSync(readme, 'utf8');
  const block = /(<!-- verified-table[^\n]*-->\n)[\s\S]*?(<!-- \/verified-table -->)/;
  if (block.test(text)) writeFileSync(readme, text.replace(block, `$1${markdown}$2`));
}
