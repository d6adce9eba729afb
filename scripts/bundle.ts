/**
 * Part of `npm run build`, after tsc: bundle the front end (dist/src/cli.js) in place, so
 * `nudge submit` loads a handful of files instead of ~25 modules (ESM loading costs about a
 * millisecond per module on the 2-core CI machine, which is a third of the front end's budget
 * beyond Node's own start-up; see docs/benchmarks.md).
 *
 * - Code splitting keeps the lazy paths lazy: yargs (help, errors, other commands) and the
 *   worker code (`submit --wait`) stay in chunks loaded by dynamic import.
 * - npm packages stay external (imported at run time from node_modules), so a lazily loaded
 *   package is still loaded lazily.
 * - Chunks go next to cli.js in dist/src, named `cli-*.js`. cli.js finds the worker entry
 *   (`../workers/job-worker.js`) relative to itself, which holds bundled or not.
 *   The worker entry (dist/workers/job-worker.js) and the other modules stay as tsc built them.
 */
import {readdirSync, rmSync} from 'node:fs';
import {join} from 'node:path';
import {build} from 'esbuild';
import {findRepoRoot} from '../test/harness/private-tmux.js';

const dir = join(findRepoRoot(), 'dist', 'src');
for (const name of readdirSync(dir)) {
  if (/^cli-.*\.js$/.test(name) || name === 'cli.js.map') rmSync(join(dir, name));
}
const result = await build({
  entryPoints: [join(dir, 'cli.js')],
  outdir: dir,
  allowOverwrite: true,
  bundle: true,
  splitting: true,
  format: 'esm',
  platform: 'node',
  target: 'node20',
  packages: 'external',
  chunkNames: 'cli-[name]-[hash]',
  logLevel: 'warning',
  metafile: true,
});
const outputs = Object.keys(result.metafile.outputs).length;
process.stdout.write(`bundled dist/src/cli.js (${outputs} files)\n`);
