/**
 * Part of `npm run build`, after tsc: bundle the front end (dist/src/cli.js) and the worker
 * entries (dist/workers/*.js) in place, so `nudge submit` and each job's worker load a handful of
 * files instead of hundreds of modules (ESM loading costs about a millisecond per module on the
 * 2-core CI machine; see docs/benchmarks.md). Measured on Node 20, five runs each, alternated:
 * `nudge jobs` and `nudge --version` 470 ms → 380 ms with the npm packages in the bundle; a
 * job worker's start 520 ms → 290 ms as one file instead of ~460 modules.
 *
 * - Code splitting keeps the lazy paths lazy: yargs (help, errors, other commands) and the
 *   worker code (`submit --wait`) stay in chunks loaded by dynamic import.
 * - The npm packages are bundled too, but for those that find files of their own at run time
 *   (pino's transports start a thread from a file; ink loads its layout engine), have
 *   optional native parts (ws) or load their own files by a `require` esbuild cannot follow
 *   (jsonc-parser's UMD build): those stay external, imported from node_modules.
 *   A bundled CommonJS package calls `require`: each file gets one (the banner).
 * - The CLI's chunks go next to cli.js in dist/src, named `cli-*.js`. Each worker is one file,
 *   its lazy parts inlined (a worker uses most of them; split, it loaded 59 chunks). Nothing
 *   bundled finds a file relative to its own module: the worker entries and data are found
 *   from the package (src/base/version.ts).
 */
import {readdirSync, rmSync} from 'node:fs';
import {join} from 'node:path';
import {type BuildOptions, build} from 'esbuild';
import {findRepoRoot} from '../test/harness/private-tmux.js';

const EXTERNAL = ['pino', 'pino-pretty', 'ws', 'ink', 'react', 'jsonc-parser'];
const REQUIRE_SHIM =
  "import {createRequire as __nudgeRequire} from 'node:module'; const require = __nudgeRequire(import.meta.url);";

/** Bundle `entries` in `dir` in place (their chunks named `prefix-*.js` beside them). */
async function bundle(dir: string, entries: string[], prefix: string): Promise<number> {
  for (const name of readdirSync(dir)) {
    if (name.startsWith(`${prefix}-`) || name.endsWith('.js.map')) rmSync(join(dir, name));
  }
  const options: BuildOptions = {
    entryPoints: entries.map((entry) => join(dir, entry)),
    outdir: dir,
    allowOverwrite: true,
    bundle: true,
    splitting: prefix === 'cli',
    format: 'esm',
    platform: 'node',
    target: 'node20',
    external: EXTERNAL,
    chunkNames: `${prefix}-[name]-[hash]`,
    logLevel: 'warning',
    metafile: true,
    banner: {js: REQUIRE_SHIM},
  };
  const result = await build(options);
  return Object.keys(result.metafile?.outputs ?? {}).length;
}

const dist = join(findRepoRoot(), 'dist');
const cli = await bundle(join(dist, 'src'), ['cli.js'], 'cli');
const workers = readdirSync(join(dist, 'workers')).filter((name) => /-worker\.js$/.test(name));
const worker = await bundle(join(dist, 'workers'), workers, 'w');
process.stdout.write(
  `bundled dist/src/cli.js (${cli} files) and ${workers.length} workers (${worker} files)\n`,
);
