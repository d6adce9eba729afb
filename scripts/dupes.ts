/**
 * `npm run dupes`: the copy-paste check, two counts for src/ and test/ each. jscpd (its
 * defaults: 5 lines, 50 tokens; TypeScript only — test/fixtures/ holds captured screens, which
 * are data) counts the pairs of places that share a run of identical code; the shape finder
 * (test/harness/shapes.ts) counts the pairs that share six lines of the same shape — the same
 * code with other names, strings and numbers — as a reader sees a copy. Each pair is printed,
 * and the check fails when a folder has more of either than its limit in .jscpd-limits.json.
 * The limits only go down: lower them when a change removes pairs (CONTRIBUTING.md, "the
 * copy-paste check").
 */
import {execFileSync} from 'node:child_process';
import {readFileSync} from 'node:fs';
import {createRequire} from 'node:module';
import {fileURLToPath} from 'node:url';
import {findShapePairs, type Place as ShapePlace} from '../test/harness/shapes.js';

interface Place {
  sourceId: string;
  start: {line: number};
  end: {line: number};
}
interface Clone {
  duplicationA: Place;
  duplicationB: Place;
}

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
// jscpd's ESM build does not load on Node 20 (a bare `colors/safe` import); its CommonJS does.
const {detectClones} = createRequire(import.meta.url)('jscpd') as {
  detectClones(o: Record<string, unknown>): Promise<Clone[]>;
};
const limits = JSON.parse(readFileSync(`${ROOT}.jscpd-limits.json`, 'utf8')) as Record<
  string,
  {identical: number; shapes: number}
>;

process.chdir(ROOT);
let over = false;
const say = (line: string) => process.stdout.write(`${line}\n`);
for (const [folder, limit] of Object.entries(limits)) {
  const clones = await detectClones({
    path: [folder],
    format: ['typescript'],
    minLines: 5,
    minTokens: 50,
    ignore: ['**/fixtures/**', '**/node_modules/**'],
    silent: true,
    reporters: [],
    gitignore: true,
  });
  const at = (p: Place) => `${p.sourceId}:${p.start.line}-${p.end.line}`;
  for (const c of clones) say(`  ${at(c.duplicationA)} ~ ${at(c.duplicationB)}`);
  const paths = execFileSync(
    'git',
    ['ls-files', '--cached', '--others', '--exclude-standard', folder],
    {
      encoding: 'utf8',
    },
  )
    .split('\n')
    .filter((p) => p.endsWith('.ts') && !p.includes('/fixtures/'));
  const shapes = findShapePairs(paths.map((path) => ({path, text: readFileSync(path, 'utf8')})));
  const where = (p: ShapePlace) => `${p.path}:${p.from}-${p.to}`;
  for (const s of shapes) say(`  ${where(s.a)} ~ ${where(s.b)} (shape)`);
  for (const [what, count, most] of [
    ['identical', clones.length, limit.identical],
    ['of the same shape', shapes.length, limit.shapes],
  ] as const) {
    const verdict = count > most ? 'over its limit' : 'within its limit';
    say(`${folder}/: ${count} pairs ${what} (limit ${most}, ${verdict})`);
    if (count > most) over = true;
  }
}
if (over) {
  say('The copy-paste check failed: fold the new copy into what it repeats.');
  process.exitCode = 1;
}
