/**
 * `npm run verified`: merge what test runs verified (the JSON files test/helpers/
 * verified-reporter.ts wrote into $NUDGE_VERIFIED_DIR, default .verified/) into
 * data/verified-versions.json — the table shipped in the package and read by `nudge doctor` —
 * and print it as Markdown (the README's table). An entry is one program at one version on
 * one tmux and Node; a newer run of the same replaces it.
 *
 *   NUDGE_VERIFIED_DIR=.verified npx vitest run --project integration …   # record
 *   npm run verified                                                       # merge, print
 *   npm run verified -- --print                                            # print only
 */
import {existsSync, readdirSync, readFileSync, writeFileSync} from 'node:fs';
import {join} from 'node:path';
import {
  compareVersions,
  VERIFIED_FILE,
  type VerifiedEntry,
  type VerifiedTable,
} from '../src/agents/verified.js';
import {findRepoRoot} from './lib/private-tmux.js';

const root = findRepoRoot();
const file = join(root, 'data', VERIFIED_FILE);
const table = JSON.parse(readFileSync(file, 'utf8')) as VerifiedTable;
const dir = process.env.NUDGE_VERIFIED_DIR || join(root, '.verified');
const keyOf = (e: VerifiedEntry) => `${e.program}|${e.version}|${e.tmux}|${e.node.split('.')[0]}`;

if (!process.argv.includes('--print') && existsSync(dir)) {
  // Several runs of one day (the matrix runs each tmux, each agent release) add up.
  const fresh = new Map<string, VerifiedEntry>();
  for (const name of readdirSync(dir)
    .filter((n) => n.endsWith('.json'))
    .sort()) {
    for (const e of JSON.parse(readFileSync(join(dir, name), 'utf8')) as VerifiedEntry[]) {
      const had = fresh.get(keyOf(e));
      fresh.set(
        keyOf(e),
        had
          ? {
              ...had,
              passed: had.passed + e.passed,
              failed: had.failed + e.failed,
              scenarios: [...had.scenarios, ...e.scenarios],
              date: [had.date, e.date].sort().at(-1) ?? e.date,
            }
          : e,
      );
    }
  }
  const kept = table.entries.filter((e) => !fresh.has(keyOf(e)));
  table.entries = [...kept, ...fresh.values()].sort(
    (a, b) =>
      a.program.localeCompare(b.program) ||
      compareVersions(a.version, b.version) ||
      compareVersions(a.tmux, b.tmux) ||
      a.node.localeCompare(b.node),
  );
  writeFileSync(file, `${JSON.stringify(table, null, 2)}\n`);
}

const rows = table.entries.map(
  (e) =>
    `| ${e.program} | ${e.version} | ${e.tmux} | ${e.node.split('.')[0]} | ${e.passed}/${e.passed + e.failed} | ${e.date} |`,
);
process.stdout.write(
  [
    '| program | version | tmux | Node | scenarios passed | date |',
    '| --- | --- | --- | --- | --- | --- |',
    ...rows,
    '',
    `minimum: ${Object.entries(table.minimum)
      .map(([k, v]) => `${k} ${v}`)
      .join(', ')}`,
    '',
  ].join('\n'),
);
