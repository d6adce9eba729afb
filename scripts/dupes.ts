/**
 * `npm run dupes`: the copy-paste check. jscpd (its defaults: 5 lines, 50 tokens; TypeScript
 * only — test/fixtures/ holds captured screens, which are data) counts the pairs of places in
 * src/ and in test/ that share a run of code, prints each pair, and fails when either folder
 * has more than its limit in .jscpd-limits.json. The limits only go down: lower them when a
 * change removes pairs (CONTRIBUTING.md, "the copy-paste check").
 */
import {readFileSync} from 'node:fs';
import {createRequire} from 'node:module';
import {fileURLToPath} from 'node:url';

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
  number
>;

process.chdir(ROOT);
let over = false;
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
  for (const c of clones) process.stdout.write(`  ${at(c.duplicationA)} ~ ${at(c.duplicationB)}\n`);
  const verdict = clones.length > limit ? 'over its limit' : 'within its limit';
  process.stdout.write(`${folder}/: ${clones.length} pairs (limit ${limit}, ${verdict})\n`);
  if (clones.length > limit) over = true;
}
if (over) {
  process.stdout.write('The copy-paste check failed: fold the new copy into what it repeats.\n');
  process.exitCode = 1;
}
