import {join} from 'node:path';
import {
  FIXTURES,
  makeTempDir,
  runCli,
  sleep,
  startPrivateTmux,
} from '../../test/harness/private-tmux.js';
import {
  type BenchContext,
  type Figure,
  type FigureResult,
  jobEvents,
  NEVER_MATCHES,
  quickJob,
  startBaseline,
  submitJob,
  waitForEvent,
  waitForJobEnd,
} from './bench-kit.js';
import {processCpuMs, treeCpuMs} from './proc-usage.js';

/** The goal: a waiting worker costs at most this fraction of the baseline's CPU. */
const CPU_GOAL = 1 / 5;
const INTERVAL_MS = 1_000;
/** Measuring starts this long after the wait began (typing and attaching are done). */
const SETTLE_MS = 2_000;

interface Measured {
  cpuMs: number;
  serverCpuMs: number;
  note: string;
}

/** What a job waits on, and how:
 * - `spinner`: the pane runs the spinner (a redraw every 100 ms, forever), `--until stable`;
 * - `printer`: a shell into which the job types a loop printing a line twice a second, with
 *   `--until regex:` that never matches (issue 44's own measurement);
 * - `quiet`: a shell into which the job types a command that prints nothing, `--until stable`
 *   with a window longer than the measurement (nudge types into no program it knows is busy:
 *   not into a bare `cat`). */
type Shape = 'spinner' | 'printer' | 'quiet';

const SHELL = ['bash', '--norc', '--noprofile'];
/** The printer's loop: a line twice a second. */
const PRINTER = 'i=0; while :; do i=$((i+1)); echo tick $i; sleep 0.5; done';

/** A private server whose pane is ready for `shape`. */
async function busyServer(shape: Shape) {
  const dir = makeTempDir('nudge-bench-cpu-');
  const {server, pane} = await startPrivateTmux(
    dir,
    shape === 'spinner' ? [process.execPath, join(FIXTURES, 'spinner.mjs')] : SHELL,
  );
  if (shape === 'spinner') await server.waitForScreen(pane, /SPINNER START/);
  const serverPid = Number((await server.tmux('display-message', '-p', '#{pid}')).trim());
  return {server, pane, serverPid};
}

/** The job's flags for `shape` (after quickJob's). */
function shapeFlags(shape: Shape, seconds: number): string[] {
  const until =
    shape === 'printer'
      ? ['--until', NEVER_MATCHES]
      : ['--stable-checks', shape === 'quiet' ? '1000' : '3'];
  const text = shape === 'quiet' ? 'sleep 600' : shape === 'printer' ? PRINTER : 'go';
  return ['--interval', `${INTERVAL_MS}ms`, ...until, '--timeout', `${seconds + 60}s`, '--', text];
}

/** CPU of `pid`'s process tree and of the tmux server over `seconds`. */
async function measure(pid: number, serverPid: number, seconds: number, what: string) {
  const before = treeCpuMs(pid);
  const serverBefore = processCpuMs(serverPid);
  await sleep(seconds * 1_000);
  const after = treeCpuMs(pid);
  const serverAfter = processCpuMs(serverPid);
  if (before === undefined || after === undefined) {
    throw new Error(`${what} (process ${pid}) ended while it was being measured`);
  }
  return {cpuMs: after - before, serverCpuMs: (serverAfter ?? 0) - (serverBefore ?? 0)};
}

/** A nudge job waiting `seconds` on the spinner; with `quiet`, on a pane that prints nothing
 * with a stability window longer than the measurement (what waiting costs when there is
 * nothing to watch: the pane lock's upkeep). */
async function nudgeWaiting(ctx: BenchContext, seconds: number, shape: Shape): Promise<Measured> {
  const {server, pane, serverPid} = await busyServer(shape);
  const id = await submitJob(ctx, [
    ...quickJob(server.socket, pane),
    ...shapeFlags(shape, seconds),
  ]);
  await waitForEvent(ctx, id, 'waiting');
  const pid = Number((await waitForEvent(ctx, id, 'worker-started')).pid);
  await sleep(SETTLE_MS);
  const m = await measure(pid, serverPid, seconds, `the nudge job on the ${shape}`);
  const events = jobEvents(ctx, id).map((e) => e.event);
  await runCli(['cancel', id], ctx.env);
  const end = await waitForJobEnd(ctx, id);
  if (!String(end.transport).startsWith('control') || events.includes('transport-lost')) {
    throw new Error(`nudge job ${id} did not wait over the control transport: ${end.transport}`);
  }
  if (events.includes('condition-met') || events.includes('wait-timeout')) {
    throw new Error(`nudge job ${id} stopped waiting early: ${events.join(' ')}`);
  }
  server.kill();
  return {...m, note: `worker ${pid} and its tmux client`};
}

async function baselineWaiting(
  ctx: BenchContext,
  seconds: number,
  shape: Shape,
): Promise<Measured> {
  const {server, pane, serverPid} = await busyServer(shape);
  const run = startBaseline(
    {
      socket: server.socket,
      pane,
      text: shape === 'printer' ? PRINTER : 'go',
      enter: true,
      intervalMs: INTERVAL_MS,
      stableChecks: 3,
      timeoutMs: (seconds + 60) * 1_000,
    },
    ctx.env,
  );
  await run.waiting;
  const pid = run.child.pid ?? 0;
  await sleep(SETTLE_MS);
  const m = await measure(pid, serverPid, seconds, `the poller on the ${shape}`);
  run.child.kill('SIGTERM');
  await run.ended.catch(() => undefined);
  server.kill();
  return {...m, note: `poller ${pid} and its capture-pane processes`};
}

/** CPU of a job waiting 60 s on a pane that never goes quiet — the spinner with `--until
 * stable`, and a line printed twice a second with `--until regex:` — each against a 1 s
 * capture-pane poller on the same kind of pane; and what a wait on a quiet pane costs. The
 * five run at once (each on its own tmux server), so the figure takes a minute. */
export const cpuWaiting: Figure = {
  id: 'cpu-wait',
  title:
    'CPU of a job waiting 60 s on a busy pane (a spinner; a line twice a second) vs a 1 s capture-pane poller',
  async run(ctx) {
    const seconds = 60;
    const shapes = ['spinner', 'printer'] as const;
    const [idle, ...measured] = await Promise.all([
      nudgeWaiting(ctx, seconds, 'quiet'),
      ...shapes.flatMap((shape) => [
        nudgeWaiting(ctx, seconds, shape),
        baselineWaiting(ctx, seconds, shape),
      ]),
    ]);
    return shapes.map((shape, i): FigureResult => {
      const nudge = measured[2 * i]!;
      const baseline = measured[2 * i + 1]!;
      const ratio = nudge.cpuMs / baseline.cpuMs;
      const what =
        shape === 'spinner'
          ? 'the spinner (a redraw every 100 ms), --until stable'
          : 'a shell printing a line twice a second, --until regex: that never matches (issue 44)';
      return {
        id: `cpu-wait-${shape}`,
        subject: {label: `nudge job waiting ${seconds} s`, unit: 'cpu-ms', samples: [nudge.cpuMs]},
        baseline: {
          label: `poller waiting ${seconds} s (capture-pane every ${INTERVAL_MS} ms)`,
          unit: 'cpu-ms',
          samples: [baseline.cpuMs],
        },
        ratio: 'subject/baseline',
        goal: {
          text: '≤ 1/5 of the baseline (goal 1/10)',
          met: ratio <= CPU_GOAL,
        },
        notes: [
          `the pane: ${what}; --interval ${INTERVAL_MS}ms; measured from ${SETTLE_MS} ms into the wait, for ${seconds} s`,
          `CPU of the ${nudge.note}; baseline: ${baseline.note} (10 ms clock ticks)`,
          `the tmux server meanwhile (busy pane included): ${nudge.serverCpuMs} ms with nudge, ${baseline.serverCpuMs} ms with the poller`,
          `a nudge job waiting ${seconds} s on a pane that prints nothing used ${idle?.cpuMs} ms (its pane lock's refresh every 4 s and its watchdog, the waiter's lock's refresh, which also reads its inbox, a look at most every 8 s)`,
        ],
      };
    });
  },
};
