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
 * - `nudge submit`, `nudge jobs` and `nudge status` (src/quick-submit.ts, src/quick.ts) are each
 *   one file of their own (QUICK): split into chunks they loaded 70–90 files (esbuild puts a
 *   module shared by a different set of lazy parts in a chunk of its own), and each file costs
 *   Node about half a millisecond.
 * - The CLI's chunks go next to cli.js in dist/src, named `cli-*.js`. The workers' code is one
 *   file, dist/workers/w-kinds.js, its lazy parts inlined (a worker uses most of them; split,
 *   it loaded 59 chunks), and each worker entry a few lines importing it (one copy, not five:
 *   the package is 1.7 MB packed). Nothing bundled finds a file relative to its own module:
 *   the worker entries and data are found from the package (src/base/version.ts).
 */
import {readdirSync, rmSync} from 'node:fs';
import {join, relative, resolve} from 'node:path';
import {type BuildOptions, build, type Plugin} from 'esbuild';
import {findRepoRoot} from '../test/harness/private-tmux.js';

const EXTERNAL = ['pino', 'pino-pretty', 'ws', 'ink', 'react', 'jsonc-parser'];
const REQUIRE_SHIM =
  "import {createRequire as __nudgeRequire} from 'node:module'; const require = __nudgeRequire(import.meta.url);";

/** What every bundle shares: ESM for Node 20, the packages above left to node_modules. */
const COMMON: BuildOptions = {
  bundle: true,
  format: 'esm',
  platform: 'node',
  target: 'node20',
  external: EXTERNAL,
  logLevel: 'warning',
  metafile: true,
  banner: {js: REQUIRE_SHIM},
};

/** Remove what an earlier bundle left in `dir`: its chunks (`prefix-*.js`) and maps. */
function clean(dir: string, prefix: string): void {
  for (const name of readdirSync(dir)) {
    if (name.startsWith(`${prefix}-`) || name.endsWith('.js.map')) rmSync(join(dir, name));
  }
}

const count = (result: {metafile?: {outputs: object}}) =>
  Object.keys(result.metafile?.outputs ?? {}).length;

const dist = join(findRepoRoot(), 'dist');
const src = join(dist, 'src');
clean(src, 'cli');
const cli = await build({
  ...COMMON,
  entryPoints: [join(src, 'cli.js')],
  outdir: src,
  allowOverwrite: true,
  splitting: true,
  chunkNames: 'cli-[name]-[hash]',
  plugins: [
    {
      name: 'quick-apart',
      setup(b) {
        b.onResolve({filter: /^\.\/quick(-submit)?\.js$/}, (args) => ({
          path: args.path,
          external: true,
        }));
      },
    },
  ],
});

/**
 * The quick bundles: each entry and all it imports, lazily too, in one file — but for what
 * another command, another host or a rare turn needs (COLD), left to the unbundled module tsc
 * wrote beside it (dist/src/…), loaded only if it runs. A module of the entry's own path
 * (`own`) is bundled even where the rest of its folder is left out. Any other module of
 * nudge's imported lazily is bundled all the same: a copy of it beside the bundle's would not
 * share its state (the profiles the person's files add, read once).
 */
const QUICK: ReadonlyArray<{entry: string; own: readonly string[]}> = [
  {
    entry: 'quick.js',
    own: ['declare/jobs.js', 'verbs/jobs.js', 'render/render.js', 'render/status.js'],
  },
  {entry: 'quick-submit.js', own: ['verbs/submit.js', 'render/render.js']},
];

/** What the quick bundles leave out: the other commands (their verbs, declarations and
 * renderers), the ways to other hosts, a lost job's notifications (execa), a stored request's
 * checks (zod), yargs' command line. */
const COLD =
  /^(verbs|declare|render|cli)\/|^front\/(anywhere|hosts|relay|serve-remote)\.js$|^notify\/tell\.js$|^jobs\/(request-check|cancel)\.js$/;

function coldApart(own: readonly string[]): Plugin {
  return {
    name: 'cold-apart',
    setup(b) {
      b.onResolve({filter: /^\./}, (args) => {
        if (args.kind !== 'dynamic-import') return undefined;
        const file = relative(src, resolve(args.resolveDir, args.path));
        if (!COLD.test(file) || own.includes(file)) return undefined;
        return {path: `./${file}`, external: true};
      });
      // A package imported lazily (proper-lockfile for a queue's lock) is loaded from
      // node_modules if it runs: packages keep no state of nudge's, so two copies do no harm.
      b.onResolve({filter: /^[^./]/}, (args) =>
        args.kind === 'dynamic-import' ? {path: args.path, external: true} : undefined,
      );
    },
  };
}
for (const {entry, own} of QUICK)
  await build({
    ...COMMON,
    entryPoints: [join(src, entry)],
    outfile: join(src, entry),
    allowOverwrite: true,
    plugins: [coldApart(own)],
  });

// The workers: the code of every kind in one file (WORKER_SHARED), and each entry a few lines
// that import it, so the five share one copy.
const workersDir = join(dist, 'workers');
clean(workersDir, 'w');
const WORKER_SHARED = 'w-kinds.js';
await build({
  ...COMMON,
  stdin: {
    contents:
      "export {workerMain} from './src/process/worker-main.js';\nexport * from './src/worker/kinds.js';\n",
    resolveDir: dist,
    sourcefile: 'worker-kinds.js',
  },
  outfile: join(workersDir, WORKER_SHARED),
});
const shared = /\/src\/(process\/worker-main|worker\/kinds)\.js$/;
const workers = readdirSync(workersDir).filter((name) => /-worker\.js$/.test(name));
await build({
  ...COMMON,
  entryPoints: workers.map((name) => join(workersDir, name)),
  outdir: workersDir,
  allowOverwrite: true,
  plugins: [
    {
      name: 'worker-kinds',
      setup(b) {
        b.onResolve({filter: shared}, () => ({path: `./${WORKER_SHARED}`, external: true}));
      },
    },
  ],
});
process.stdout.write(
  `bundled dist/src/cli.js (${count(cli)} files) and ${workers.length} workers (one shared file)\n`,
);
