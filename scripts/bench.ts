/**
 * `npm run bench`: nudge's speed and footprint, each figure against a baseline measured in the
 * same run, on the same machine (the machines here are noisy 2-core VMs, so absolute numbers
 * from different runs do not compare; ratios from one run do). The baseline is the
 * straightforward design: one `tmux send-keys` process per character and one `capture-pane`
 * process per poll (scripts/baseline-job.ts).
 *
 * Prints a table (with the issue's goals, met or not) and writes
 * bench/results/<YYYY-MM-DD (UTC)>.json with the raw samples and the machine (node and tmux
 * versions, cpu model, load average before and after). A later run on the same day overwrites
 * that day's file; a run with --only or --runs writes <date>-partial.json instead.
 *
 * Every figure is one entry of FIGURES below: add a figure by adding an entry. Options:
 *   --only ID[,ID...]   run only these figures        --runs N   samples per side (default each
 *                                                                figure's own)
 *
 * All tmux work happens on private servers (their own sockets in temp dirs); nothing touches
 * the default server. Exits non-zero when a figure fails (e.g. typed bytes did not arrive
 * byte-exact, a job ended wrong).
 */
import {mkdirSync, writeFileSync} from 'node:fs';
import {cpus, loadavg, totalmem} from 'node:os';
import {join} from 'node:path';
import {
  checkPrerequisites,
  cleanEnv,
  makeTempDir,
  REPO_ROOT,
  runCleanup,
  startPrivateTmux,
  tmuxVersion,
} from '../test/harness/private-tmux.js';
import {
  type BenchContext,
  type Figure,
  type FigureResult,
  median,
  ratioOf,
  type Side,
} from './lib/bench-kit.js';
import {concurrency} from './lib/figure-concurrency.js';
import {corpus} from './lib/figure-corpus.js';
import {cpuWaiting} from './lib/figure-cpu.js';
import {detection, detectionLong} from './lib/figure-detection.js';
import {doors} from './lib/figure-doors.js';
import {frontEnd} from './lib/figure-front-end.js';
import {patterns} from './lib/figure-patterns.js';
import {remote} from './lib/figure-remote.js';
import {typing} from './lib/figure-typing.js';
import {neighbours, waiterLatency, waitMemory} from './lib/figure-waiting.js';
import {wakeup} from './lib/figure-wakeup.js';

/** Every figure, in the order they run. Add new figures here. */
const FIGURES: Figure[] = [
  frontEnd,
  typing,
  detection,
  detectionLong,
  corpus,
  cpuWaiting,
  waitMemory,
  neighbours,
  waiterLatency,
  concurrency,
  wakeup,
  doors,
  remote,
  patterns,
];

interface Options {
  only?: string[];
  runs?: number;
}

function parseOptions(argv: string[]): Options {
  const o: Options = {};
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!;
    const value = () => {
      const v = argv[++i];
      if (v === undefined) throw new Error(`${arg} needs a value`);
      return v;
    };
    if (arg === '--only') o.only = value().split(',');
    else if (arg === '--runs') {
      o.runs = Number.parseInt(value(), 10);
      if (!(o.runs >= 1)) throw new Error('--runs must be a positive integer');
    } else throw new Error(`unknown option ${arg}; use --only ID[,ID] or --runs N`);
  }
  const unknown = (o.only ?? []).filter((id) => !FIGURES.some((f) => f.id === id));
  if (unknown.length) {
    throw new Error(
      `no figure ${unknown.join(', ')}; figures: ${FIGURES.map((f) => f.id).join(', ')}`,
    );
  }
  return o;
}

const round2 = (n: number) => Math.round(n * 100) / 100;
const sideRecord = (side: Side) => ({
  label: side.label,
  unit: side.unit,
  median: round2(median(side.samples)),
  samples: side.samples.map(round2),
});

function fmt(side: Side | undefined): string {
  if (!side) return '';
  const m = median(side.samples);
  const n = m >= 100 ? m.toFixed(0) : m.toFixed(1);
  return side.unit === 'ms' ? `${n} ms` : side.unit === 'MB' ? `${n} MB` : `${n} ms CPU`;
}

function table(rows: string[][]): string {
  const widths = rows[0]!.map((_, i) => Math.max(...rows.map((r) => r[i]!.length)));
  const line = (r: string[]) =>
    r
      .map((c, i) => c.padEnd(widths[i]!))
      .join('  ')
      .trimEnd();
  return [
    line(rows[0]!),
    widths.map((w) => '-'.repeat(w)).join('  '),
    ...rows.slice(1).map(line),
  ].join('\n');
}

function ratioText(r: FigureResult): string {
  const ratio = ratioOf(r);
  if (ratio === undefined) return '';
  return r.ratio === 'baseline/subject' ? `${ratio.toFixed(1)}× faster` : `${ratio.toFixed(3)}×`;
}

async function main(): Promise<number> {
  checkPrerequisites();
  const options = parseOptions(process.argv.slice(2));
  const figures = FIGURES.filter((f) => !options.only || options.only.includes(f.id));
  const startedAt = new Date();
  const loadBefore = loadavg();
  const dir = makeTempDir('nudge-bench-');
  const stateDir = join(dir, 'home');
  const {server} = await startPrivateTmux(dir, ['sh', '-c', 'exec cat > /dev/null'], {
    width: 120,
    height: 40,
  });
  const ctx: BenchContext = {
    server,
    dir,
    stateDir,
    env: cleanEnv({NUDGE_HOME: stateDir, HOME: dir}),
    runs: (d) => options.runs ?? d,
    log: (line) => process.stdout.write(`${line}\n`),
  };
  const machine = {
    node: process.version,
    tmux: tmuxVersion(),
    cpu: cpus()[0]?.model ?? 'unknown',
    cores: cpus().length,
    memoryGb: Math.round(totalmem() / 2 ** 30),
    platform: `${process.platform} ${process.arch}`,
  };
  ctx.log(
    `nudge bench: node ${machine.node}, ${machine.tmux}, ${machine.cores} × ${machine.cpu}, load ${loadBefore.map((l) => l.toFixed(2)).join(' ')}`,
  );

  const results: Array<{figure: Figure; rows?: FigureResult[]; error?: string; seconds: number}> =
    [];
  for (const figure of figures) {
    ctx.log(`running ${figure.id}: ${figure.title} ...`);
    const t = performance.now();
    try {
      const rows = await figure.run(ctx);
      results.push({figure, rows, seconds: (performance.now() - t) / 1000});
    } catch (error) {
      const message = (error as Error).message;
      ctx.log(`  FAILED: ${message}`);
      results.push({figure, error: message, seconds: (performance.now() - t) / 1000});
    }
  }
  const loadAfter = loadavg();

  const rows = [['figure', 'nudge (median)', 'baseline (median)', 'ratio', 'goal', 'met', 'n']];
  for (const {figure, rows: figureRows, error} of results) {
    if (!figureRows) {
      rows.push([figure.id, 'FAILED', '', '', error ?? '', 'no', '']);
      continue;
    }
    for (const r of figureRows) {
      rows.push([
        r.id,
        fmt(r.subject),
        fmt(r.baseline),
        ratioText(r),
        r.goal?.text ?? '',
        r.goal ? (r.goal.met ? 'yes' : 'NO') : '',
        String(r.subject.samples.length),
      ]);
    }
  }
  ctx.log('');
  ctx.log(table(rows));
  ctx.log('');
  for (const {figure, rows: figureRows, seconds} of results) {
    ctx.log(`${figure.id} (${seconds.toFixed(1)} s)`);
    for (const r of figureRows ?? []) {
      ctx.log(`  ${r.id}: ${r.subject.label}${r.baseline ? ` vs ${r.baseline.label}` : ''}`);
      for (const note of r.notes) ctx.log(`    - ${note}`);
    }
  }

  const day = startedAt.toISOString().slice(0, 10);
  // A run with --only or --runs is not the day's figure set: keep it beside, not over, it.
  const partial = options.only !== undefined || options.runs !== undefined;
  const file = join(REPO_ROOT, 'bench', 'results', `${day}${partial ? '-partial' : ''}.json`);
  mkdirSync(join(REPO_ROOT, 'bench', 'results'), {recursive: true});
  const record = {
    startedAt: startedAt.toISOString(),
    machine,
    loadavg: {before: loadBefore, after: loadAfter},
    figures: results.map(({figure, rows: figureRows, error, seconds}) => ({
      id: figure.id,
      title: figure.title,
      seconds: Number(seconds.toFixed(1)),
      ...(figureRows
        ? {
            rows: figureRows.map((r) => ({
              id: r.id,
              ...(r.ratio ? {ratio: Number(ratioOf(r)?.toFixed(3)), ratioIs: r.ratio} : {}),
              ...(r.goal ? {goal: r.goal.text, met: r.goal.met} : {}),
              subject: sideRecord(r.subject),
              ...(r.baseline ? {baseline: sideRecord(r.baseline)} : {}),
              notes: r.notes,
            })),
          }
        : {error}),
    })),
  };
  writeFileSync(file, `${JSON.stringify(record, null, 2)}\n`);
  ctx.log(`\nwrote ${file} (load average after: ${loadAfter.map((l) => l.toFixed(2)).join(' ')})`);
  return results.every((r) => r.rows) ? 0 : 1;
}

let code = 1;
try {
  code = await main();
} catch (error) {
  process.stderr.write(`bench failed: ${(error as Error).message}\n`);
} finally {
  runCleanup();
}
process.exit(code);
