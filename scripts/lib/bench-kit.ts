/**
 * What the benchmark's figures share: their shape, statistics, running nudge jobs and the
 * baseline job, and reading what they left behind (events, worker exit lines, recorder
 * timings).
 */
import {type ChildProcess, spawn} from 'node:child_process';
import {readFileSync, writeFileSync} from 'node:fs';
import {join} from 'node:path';
import {isTerminal} from '../../src/jobs/states.js';
import {JobStore} from '../../src/jobs/store.js';
import {
  FIXTURES,
  type PrivateTmux,
  REPO_ROOT,
  runCli,
  sleep,
} from '../../test/harness/private-tmux.js';
import type {BaselineJob} from '../baseline-job.js';

// ---------------------------------------------------------------------------------------------
// The shape of a figure.

/** One side of a comparison: what was measured, in which unit, and every sample. */
export interface Side {
  label: string;
  unit: 'ms' | 'cpu-ms' | 'MB';
  samples: number[];
}

/** One row of the table. */
export interface FigureResult {
  id: string;
  subject: Side;
  baseline?: Side | undefined;
  /** subject/baseline when lower is better for nudge; baseline/subject for a speed-up. */
  ratio?: 'subject/baseline' | 'baseline/subject' | undefined;
  /** The issue's goal for this row, and whether the run met it. */
  goal?: {text: string; met: boolean} | undefined;
  /** Facts worth keeping beside the numbers (checks passed, what stands in the way). */
  notes: string[];
}

export interface BenchContext {
  /** The default private tmux server (more can be started in `dir`). */
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

export interface Figure {
  id: string;
  title: string;
  run(ctx: BenchContext): Promise<FigureResult[]>;
}

// ---------------------------------------------------------------------------------------------
// Statistics and interleaving.

export function median(xs: readonly number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  const mid = Math.floor(s.length / 2);
  if (s.length === 0) return Number.NaN;
  return s.length % 2 ? s[mid]! : (s[mid - 1]! + s[mid]!) / 2;
}

export function ratioOf(r: FigureResult): number | undefined {
  if (!r.baseline || !r.ratio) return undefined;
  const subject = median(r.subject.samples);
  const baseline = median(r.baseline.samples);
  return r.ratio === 'subject/baseline' ? subject / baseline : baseline / subject;
}

/** Run `runs` pairs of (subject, baseline), alternating which goes first, so drift in the
 * machine's load hits both sides alike. `between` runs after each sample, untimed. */
export async function interleave(
  runs: number,
  subject: (i: number) => Promise<number>,
  baseline: (i: number) => Promise<number>,
  between: () => Promise<void> = async () => {},
): Promise<{subject: number[]; baseline: number[]}> {
  const out = {subject: [] as number[], baseline: [] as number[]};
  for (let i = 0; i < runs; i++) {
    const order: Array<['subject' | 'baseline', (i: number) => Promise<number>]> = [
      ['subject', subject],
      ['baseline', baseline],
    ];
    if (i % 2 === 1) order.reverse();
    for (const [side, fn] of order) {
      out[side].push(await fn(i));
      await between();
    }
  }
  return out;
}

// ---------------------------------------------------------------------------------------------
// nudge jobs.

/** The start of a bench job's flags on `pane`: no notice, no pause before typing or between
 * keys (`rest` after them). */
export function quickJob(socket: string, pane: string, ...rest: string[]): string[] {
  return [
    '-S',
    socket,
    '--pane',
    pane,
    '--no-notice',
    '--delay',
    '0',
    '--type-delay',
    '0',
    ...rest,
  ];
}

/** An `--until` that never matches: a job that waits until it is cancelled or times out. */
export const NEVER_MATCHES = 'regex:NEVER-MATCHES-[0-9]{40}';

/** Submit a detached nudge job; its id. */
export async function submitJob(
  ctx: BenchContext,
  args: string[],
  env: Record<string, string> = ctx.env,
): Promise<string> {
  const r = await runCli(['submit', ...args], env);
  if (r.exitCode !== 0) throw new Error(`nudge submit exited ${r.exitCode}: ${r.stderr.trim()}`);
  return r.stdout.trim();
}

export interface JobEnd {
  state: string;
  notified?: boolean;
  transport?: string;
  pid?: number;
  [key: string]: unknown;
}

/** Wait (untimed) until job `id` has ended; cancel it and fail after `timeoutMs`. */
export async function waitForJobEnd(
  ctx: BenchContext,
  id: string,
  timeoutMs = 60_000,
): Promise<JobEnd> {
  const handle = await new JobStore(ctx.stateDir).open(id);
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    const record = await handle.readState();
    if (isTerminal(record.state)) return record as unknown as JobEnd;
    await sleep(20);
  }
  await runCli(['cancel', id], ctx.env);
  throw new Error(`bench job ${id} did not end within ${timeoutMs} ms; cancelled it`);
}

/** Wait until job `id` has recorded `event`; that event. */
export async function waitForEvent(
  ctx: BenchContext,
  id: string,
  event: string,
  timeoutMs = 30_000,
): Promise<JobEventLine> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    const found = jobEvents(ctx, id).find((e) => e.event === event);
    if (found) return found;
    await sleep(20);
  }
  throw new Error(`bench job ${id} did not record "${event}" within ${timeoutMs} ms`);
}

export interface JobEventLine {
  t: string;
  event: string;
  [key: string]: unknown;
}

/** A job's events (a torn last line skipped). */
export function jobEvents(ctx: BenchContext, id: string): JobEventLine[] {
  let text = '';
  try {
    text = readFileSync(join(ctx.stateDir, 'jobs', id, 'events.jsonl'), 'utf8');
  } catch {
    return [];
  }
  const out: JobEventLine[] = [];
  for (const l of text.split('\n')) {
    try {
      if (l) out.push(JSON.parse(l) as JobEventLine);
    } catch {
      // being written
    }
  }
  return out;
}

/** The time (epoch ms) of a job's event; fails if it has none. */
export function eventTime(ctx: BenchContext, id: string, event: string): number {
  const e = jobEvents(ctx, id).find((x) => x.event === event);
  if (!e) throw new Error(`job ${id} has no "${event}" event`);
  return Date.parse(e.t);
}

/** What the worker logged on exit: its CPU and peak RSS (see workers/job-worker.ts). */
export interface WorkerExit {
  /** The process that ran the job: its own worker, or the server's waiter that ran several. */
  pid: number;
  /** That process's CPU so far (a waiter's: over every job it ran until then). */
  cpuMs: number;
  childrenCpuMs?: number;
  maxRssKb: number;
  transport: string;
}

/** The worker's exit line; it comes after the job's last state change (the worker closes
 * its tmux client first), so this waits for it a little. */
export async function workerExit(ctx: BenchContext, id: string): Promise<WorkerExit> {
  const deadline = Date.now() + 15_000;
  for (;;) {
    const log = readFileSync(join(ctx.stateDir, 'jobs', id, 'worker.log'), 'utf8');
    for (const l of log.split('\n').reverse()) {
      if (!l.includes('"worker-exit"')) continue;
      const entry = JSON.parse(l) as Partial<WorkerExit>;
      if (
        typeof entry.pid !== 'number' ||
        typeof entry.cpuMs !== 'number' ||
        typeof entry.maxRssKb !== 'number'
      ) {
        throw new Error(`job ${id}: the worker's exit line has no usage: ${l}`);
      }
      return entry as WorkerExit;
    }
    if (Date.now() > deadline) throw new Error(`job ${id}: no worker-exit line in its log`);
    await sleep(20);
  }
}

// ---------------------------------------------------------------------------------------------
// The baseline job (scripts/baseline-job.ts), as a child process.

const BASELINE_ENTRY = join(REPO_ROOT, 'dist', 'scripts', 'baseline-job.js');

export interface BaselineEnd {
  status: string;
  waitedMs?: number;
  cpuMs: number;
  childrenCpuMs?: number;
  maxRssKb: number;
  error?: string;
}

export interface BaselineRun {
  child: ChildProcess;
  /** Resolves when polling starts (epoch ms). */
  waiting: Promise<number>;
  /** Resolves when it has ended. */
  ended: Promise<BaselineEnd>;
}

/** Start the baseline job; see BaselineJob. */
export function startBaseline(job: BaselineJob, env: Record<string, string>): BaselineRun {
  const child = spawn(process.execPath, [BASELINE_ENTRY, JSON.stringify(job)], {
    env,
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  let onWaiting: (t: number) => void = () => {};
  let onEnd: (end: BaselineEnd) => void = () => {};
  const waiting = new Promise<number>((resolve) => {
    onWaiting = resolve;
  });
  const ended = new Promise<BaselineEnd>((resolve, reject) => {
    onEnd = resolve;
    child.on('error', reject);
    child.on('exit', (code) => {
      setTimeout(() => reject(new Error(`the baseline job exited ${code} without a result`)), 500);
    });
  });
  let rest = '';
  child.stdout?.setEncoding('utf8');
  child.stdout?.on('data', (chunk: string) => {
    rest += chunk;
    for (let i = rest.indexOf('\n'); i >= 0; i = rest.indexOf('\n')) {
      const entry = JSON.parse(rest.slice(0, i)) as {event: string; t?: number} & BaselineEnd;
      rest = rest.slice(i + 1);
      if (entry.event === 'waiting') onWaiting(entry.t ?? Date.now());
      if (entry.event === 'end') onEnd(entry);
    }
  });
  return {child, waiting, ended};
}

/** Run the baseline job to its end; fail unless it ended `done` (or `expect`). */
export async function runBaseline(
  job: BaselineJob,
  env: Record<string, string>,
  expect = 'done',
): Promise<BaselineEnd> {
  const end = await startBaseline(job, env).ended;
  if (end.status !== expect) {
    throw new Error(`the baseline job ended ${end.status}${end.error ? `: ${end.error}` : ''}`);
  }
  return end;
}

// ---------------------------------------------------------------------------------------------
// Panes that record what reaches them.

/** A pane running test/fixtures/timed-recorder.mjs. */
export interface TimedRecorder {
  pane: string;
  file: string;
  /** Forget what was recorded so far. */
  reset(): void;
  bytes(): Buffer;
  /** Arrival times (epoch ms) and sizes of the chunks recorded so far. */
  chunks(): Array<{at: number; bytes: number}>;
  /** Wait (untimed) until `length` bytes have arrived; fails after `timeoutMs`. */
  waitForLength(length: number, timeoutMs?: number): Promise<void>;
}

export async function startTimedRecorder(
  server: PrivateTmux,
  dir: string,
  name: string,
): Promise<TimedRecorder> {
  const file = join(dir, `${name}.bin`);
  const pane = await server.newPane([process.execPath, join(FIXTURES, 'timed-recorder.mjs'), file]);
  await server.waitForScreen(pane, /RECORDER READY/);
  const bytes = () => readFileSync(file);
  return {
    pane,
    file,
    reset() {
      writeFileSync(file, '');
      writeFileSync(`${file}.times`, '');
    },
    bytes,
    chunks() {
      return readFileSync(`${file}.times`, 'utf8')
        .split('\n')
        .filter(Boolean)
        .map((l) => {
          const [at, n] = l.split(' ');
          return {at: Number(at), bytes: Number(n)};
        });
    },
    async waitForLength(length, timeoutMs = 60_000) {
      const deadline = Date.now() + timeoutMs;
      while (bytes().length < length) {
        if (Date.now() > deadline) {
          throw new Error(`${file}: ${bytes().length} of ${length} bytes after ${timeoutMs} ms`);
        }
        await sleep(5);
      }
    },
  };
}

export function describeMismatch(want: Buffer, got: Buffer): string {
  let i = 0;
  while (i < want.length && i < got.length && want[i] === got[i]) i++;
  const around = (b: Buffer) => JSON.stringify(b.subarray(Math.max(0, i - 8), i + 8).toString());
  return `typed bytes differ at offset ${i} (want ${want.length} bytes, got ${got.length}): want ${around(want)}, got ${around(got)}`;
}

/** A deterministic pseudo-random sequence (the same every run). */
export function seeded(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (Math.imul(s, 1103515245) + 12345) >>> 0;
    return s >>> 8;
  };
}
