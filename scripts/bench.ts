/**
 * `npm run bench`: nudge's timing figures, each a ratio against a baseline measured in the
 * same run, on the same machine, interleaved with it (the machines here are noisy 2-core VMs,
 * so absolute times from different runs do not compare; ratios from one run do).
 *
 * Prints a table and writes bench/results/<YYYY-MM-DD (UTC)>.json with the raw samples and
 * the machine (node and tmux versions, cpu model, load average before and after). A later run
 * on the same day overwrites that day's file; a run with --only or --runs writes
 * <date>-partial.json instead.
 *
 * Every figure is one entry of FIGURES below: add a figure by adding an entry. Options:
 *   --only ID[,ID...]   run only these figures        --runs N   samples per side (default each
 *                                                                figure's own)
 *
 * All tmux work happens on a private server (its own socket in a temp dir); nothing touches
 * the default server. Exits non-zero when a figure fails (e.g. typed bytes did not arrive
 * byte-exact).
 */
import {mkdirSync, readFileSync, statSync, writeFileSync} from 'node:fs';
import {cpus, loadavg} from 'node:os';
import {join} from 'node:path';
import {execa} from 'execa';
import {isTerminal, JobStore} from '../src/job-store.js';
import {createSpawnRunner} from '../src/tmux/runner.js';
import {createTmux} from '../src/tmux/tmux.js';
import {planTyping} from '../src/typing.js';
import {
  checkPrerequisites,
  cleanEnv,
  FIXTURES,
  makeTempDir,
  type PrivateTmux,
  REPO_ROOT,
  runCleanup,
  runCli,
  sleep,
  startPrivateTmux,
  tmuxVersion,
} from './lib/private-tmux.js';

// ---------------------------------------------------------------------------------------------
// The shape of a figure.

/** One side of a comparison: what was timed, and every sample. */
interface Side {
  label: string;
  samplesMs: number[];
}

interface FigureResult {
  subject: Side;
  baseline: Side;
  /** Which way the ratio is taken: subject/baseline when lower is better for nudge, or
   * baseline/subject for a speed-up. */
  ratio: 'subject/baseline' | 'baseline/subject';
  /** What the ratio means, in a few words, for the table. */
  meaning: string;
  /** Facts worth keeping beside the ratio (correctness checks passed, absolute differences). */
  notes: string[];
}

interface BenchContext {
  /** A private tmux server for the figures' panes. */
  server: PrivateTmux;
  /** Scratch space, removed at the end. */
  dir: string;
  /** The clean environment for the CLI, with NUDGE_HOME in `dir`. */
  env: Record<string, string>;
  stateDir: string;
  /** Samples per side (each figure has its own default). */
  runs(defaultRuns: number): number;
  log(line: string): void;
}

interface Figure {
  id: string;
  title: string;
  run(ctx: BenchContext): Promise<FigureResult>;
}

// ---------------------------------------------------------------------------------------------
// Statistics and interleaving.

function median(xs: readonly number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  const mid = Math.floor(s.length / 2);
  if (s.length === 0) return Number.NaN;
  return s.length % 2 ? s[mid]! : (s[mid - 1]! + s[mid]!) / 2;
}

/** Run `runs` pairs of (subject, baseline), alternating which goes first, so drift in the
 * machine's load hits both sides alike. `between` runs after each sample, untimed. */
async function interleave(
  runs: number,
  subject: () => Promise<number>,
  baseline: () => Promise<number>,
  between: () => Promise<void> = async () => {},
): Promise<{subject: number[]; baseline: number[]}> {
  const out = {subject: [] as number[], baseline: [] as number[]};
  for (let i = 0; i < runs; i++) {
    const order: Array<['subject' | 'baseline', () => Promise<number>]> = [
      ['subject', subject],
      ['baseline', baseline],
    ];
    if (i % 2 === 1) order.reverse();
    for (const [side, fn] of order) {
      out[side].push(await fn());
      await between();
    }
  }
  return out;
}

// ---------------------------------------------------------------------------------------------
// Figure: front-end wall time.

/** Wait until a job's record is final (untimed), so its worker does not load the machine
 * during the next sample. Cancels it if it somehow does not end. */
async function waitForJob(ctx: BenchContext, jobId: string): Promise<void> {
  const handle = await new JobStore(ctx.stateDir).open(jobId);
  const deadline = Date.now() + 20_000;
  while (Date.now() < deadline) {
    const state = (await handle.readState()).state;
    if (isTerminal(state)) {
      if (state !== 'done') throw new Error(`bench job ${jobId} ended ${state}`);
      return;
    }
    await sleep(20);
  }
  await runCli(['cancel', jobId], ctx.env);
  throw new Error(`bench job ${jobId} did not end within 20 s; cancelled it`);
}

const frontEnd: Figure = {
  id: 'front-end',
  title: 'nudge submit wall time vs node -e 0',
  async run(ctx) {
    const runs = ctx.runs(15);
    const pane = await ctx.server.newPane(['sh', '-c', 'exec cat > /dev/null']);
    const submitArgs = (n: number) => [
      'submit',
      '-S',
      ctx.server.socket,
      '--pane',
      pane,
      '--no-notice',
      // Make the worker's job short, so waiting for it between samples is quick; none of
      // these change what the front end does.
      '--delay',
      '0',
      '--type-delay',
      '0',
      '--enter-delay',
      '0',
      '--interval',
      '50ms',
      '--stable-checks',
      '2',
      '--timeout',
      '30s',
      '--',
      `bench sample ${n}`,
    ];
    let n = 0;
    let lastJob: string | undefined;
    const submit = async () => {
      const r = await runCli(submitArgs(n++), ctx.env);
      if (r.exitCode !== 0) throw new Error(`nudge submit exited ${r.exitCode}: ${r.stderr}`);
      lastJob = r.stdout.trim();
      return r.ms;
    };
    const nodeStart = async () => {
      const started = performance.now();
      await execa(process.execPath, ['-e', '0'], {env: ctx.env, extendEnv: false, stdin: 'ignore'});
      return performance.now() - started;
    };
    const settle = async () => {
      if (lastJob === undefined) return;
      const job = lastJob;
      lastJob = undefined;
      await waitForJob(ctx, job);
    };
    // One untimed warm-up of each (file cache, first tmux client).
    await submit();
    await settle();
    await nodeStart();
    const s = await interleave(runs, submit, nodeStart, settle);
    const beyond = median(s.subject) - median(s.baseline);
    return {
      subject: {
        label: 'nudge submit --no-notice (returns after spawning the worker)',
        samplesMs: s.subject,
      },
      baseline: {label: 'node -e 0', samplesMs: s.baseline},
      ratio: 'subject/baseline',
      meaning: 'times a bare node start; lower is better',
      notes: [
        `median beyond node start-up: ${beyond.toFixed(0)} ms (DESIGN.md aims at < ~100 ms)`,
        `${n} jobs submitted, each waited for until done before the next sample`,
      ],
    };
  },
};

// ---------------------------------------------------------------------------------------------
// Figure: typing 500 characters.

/** 500 characters: printable ASCII (with `;` inside and at the end, a leading `-`) and
 * UTF-8 of 2, 3 and 4 bytes. Deterministic, so every run types the same text. */
function typingSample(length = 500): string {
  const wide = ['é', 'ü', 'ß', 'ñ', 'ø', 'я', 'λ', '€', '→', '✓', '中', '文', '字', '😀', '🚀'];
  let seed = 0x2545f491;
  const next = () => {
    seed = (Math.imul(seed, 1103515245) + 12345) >>> 0;
    return seed >>> 8;
  };
  const chars: string[] = ['-'];
  while (chars.length < length - 1) {
    const r = next();
    if (r % 7 === 0) chars.push(wide[r % wide.length]!);
    else if (r % 11 === 0) chars.push(';');
    else chars.push(String.fromCharCode(0x20 + (r % 95)));
  }
  chars.push(';');
  return chars.join('');
}

/** The tmux argument that types one character with `send-keys -l --`: a lone `;` would be
 * taken as a command separator, so it is escaped (the documented shell-script workaround). */
const oneCharArg = (ch: string) => (ch === ';' ? '\\;' : ch);

const typing: Figure = {
  id: 'typing',
  title: 'typing 500 chars at --type-delay 0 vs one tmux send-keys process per char',
  async run(ctx) {
    const runs = ctx.runs(5);
    const text = typingSample();
    const chars = Array.from(text);
    const expected = Buffer.from(text, 'utf8');
    const out = join(ctx.dir, 'typed.bin');
    const pane = await ctx.server.newPane([process.execPath, join(FIXTURES, 'recorder.mjs'), out]);
    await ctx.server.waitForScreen(pane, /RECORDER READY/);

    // Nudge's own typing path, in process: the worker at --type-delay 0 types each run of
    // characters between newlines with one typeLiteral call (run-job.ts), over the same
    // spawn runner the worker uses.
    const tmux = createTmux(createSpawnRunner({kind: 'socket-path', path: ctx.server.socket}));
    const env = ctx.env;

    /** Time from typing start until the recorder has every byte; then check them. */
    const timed = async (type: () => Promise<void>, who: string) => {
      writeFileSync(out, '');
      const started = performance.now();
      await type();
      const deadline = Date.now() + 30_000;
      while (statSync(out).size < expected.length) {
        if (Date.now() > deadline) break;
        await sleep(1);
      }
      const ms = performance.now() - started;
      await sleep(50); // anything extra would arrive now
      const got = readFileSync(out);
      if (!got.equals(expected)) throw new Error(`${who}: ${describeMismatch(expected, got)}`);
      return ms;
    };
    const viaNudge = () =>
      timed(async () => {
        for (const step of planTyping(text)) {
          if (step.kind === 'chars') await tmux.typeLiteral(pane, step.chars.join(''));
        }
      }, 'nudge typeLiteral');
    const perChar = () =>
      timed(async () => {
        for (const ch of chars) {
          await execa(
            'tmux',
            ['-S', ctx.server.socket, 'send-keys', '-t', pane, '-l', '--', oneCharArg(ch)],
            {env, extendEnv: false, stdin: 'ignore'},
          );
        }
      }, 'tmux send-keys per character');

    await viaNudge(); // warm-up, and a first byte-exact check
    const s = await interleave(runs, viaNudge, perChar);
    return {
      subject: {
        label: 'nudge typeLiteral, in process (the worker path at --type-delay 0)',
        samplesMs: s.subject,
      },
      baseline: {label: `${chars.length} × tmux send-keys -l -- CHAR`, samplesMs: s.baseline},
      ratio: 'baseline/subject',
      meaning: 'times faster than a process per char; higher is better',
      notes: [
        `${chars.length} characters, ${expected.length} bytes, timed to the recorder's last byte`,
        `every sample of both sides arrived byte-exact (${runs * 2 + 1} checks)`,
      ],
    };
  },
};

function describeMismatch(want: Buffer, got: Buffer): string {
  let i = 0;
  while (i < want.length && i < got.length && want[i] === got[i]) i++;
  const around = (b: Buffer) => JSON.stringify(b.subarray(Math.max(0, i - 8), i + 8).toString());
  return `typed bytes differ at offset ${i} (want ${want.length} bytes, got ${got.length}): want ${around(want)}, got ${around(got)}`;
}

/** Every figure, in the order they run. Add new figures here. */
const FIGURES: Figure[] = [frontEnd, typing];

// ---------------------------------------------------------------------------------------------
// Running and reporting.

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

function ratioOf(r: FigureResult): number {
  const subject = median(r.subject.samplesMs);
  const baseline = median(r.baseline.samplesMs);
  return r.ratio === 'subject/baseline' ? subject / baseline : baseline / subject;
}

const round2 = (ms: number) => Math.round(ms * 100) / 100;
const sideRecord = (side: Side) => ({
  label: side.label,
  medianMs: round2(median(side.samplesMs)),
  samplesMs: side.samplesMs.map(round2),
});

const fmtMs = (ms: number) => (ms >= 100 ? `${ms.toFixed(0)} ms` : `${ms.toFixed(1)} ms`);

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
    platform: `${process.platform} ${process.arch}`,
  };
  ctx.log(
    `nudge bench: node ${machine.node}, ${machine.tmux}, ${machine.cores} × ${machine.cpu}, load ${loadBefore.map((l) => l.toFixed(2)).join(' ')}`,
  );

  const results: Array<{figure: Figure; result?: FigureResult; error?: string; seconds: number}> =
    [];
  for (const figure of figures) {
    ctx.log(`running ${figure.id}: ${figure.title} ...`);
    const t = performance.now();
    try {
      const result = await figure.run(ctx);
      results.push({figure, result, seconds: (performance.now() - t) / 1000});
    } catch (error) {
      const message = (error as Error).message;
      ctx.log(`  FAILED: ${message}`);
      results.push({figure, error: message, seconds: (performance.now() - t) / 1000});
    }
  }
  const loadAfter = loadavg();

  const rows = [['figure', 'nudge (median)', 'baseline (median)', 'ratio', 'meaning', 'runs']];
  for (const {figure, result, error} of results) {
    if (!result) {
      rows.push([figure.id, 'FAILED', '', '', error ?? '', '']);
      continue;
    }
    rows.push([
      figure.id,
      fmtMs(median(result.subject.samplesMs)),
      `${fmtMs(median(result.baseline.samplesMs))} (${result.baseline.label})`,
      `${ratioOf(result).toFixed(2)}×`,
      result.meaning,
      String(result.subject.samplesMs.length),
    ]);
  }
  ctx.log('');
  ctx.log(table(rows));
  ctx.log('');
  for (const {figure, result, seconds} of results) {
    ctx.log(`${figure.id} (${seconds.toFixed(1)} s): ${result ? result.subject.label : 'failed'}`);
    for (const note of result?.notes ?? []) ctx.log(`  - ${note}`);
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
    figures: results.map(({figure, result, error, seconds}) => ({
      id: figure.id,
      title: figure.title,
      seconds: Number(seconds.toFixed(1)),
      ...(result
        ? {
            ratio: Number(ratioOf(result).toFixed(3)),
            ratioIs: result.ratio,
            meaning: result.meaning,
            subject: sideRecord(result.subject),
            baseline: sideRecord(result.baseline),
            notes: result.notes,
          }
        : {error}),
    })),
  };
  writeFileSync(file, `${JSON.stringify(record, null, 2)}\n`);
  ctx.log(`\nwrote ${file} (load average after: ${loadAfter.map((l) => l.toFixed(2)).join(' ')})`);
  return results.every((r) => r.result) ? 0 : 1;
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
