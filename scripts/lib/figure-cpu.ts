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
const SETTLE_MS = 1_000;

interface Measured {
  cpuMs: number;
  serverCpuMs: number;
  note: string;
}

/** A private server whose pane runs the spinner (a redraw every 100 ms, forever), or, for
 * `quiet`, a shell, into which the job types a command that prints nothing (nudge types into
 * no program it knows is busy: not into a bare `cat`). */
async function busyServer(quiet = false) {
  const dir = makeTempDir('nudge-bench-cpu-');
  const {server, pane} = await startPrivateTmux(
    dir,
    quiet ? ['bash', '--norc', '--noprofile'] : [process.execPath, join(FIXTURES, 'spinner.mjs')],
  );
  if (!quiet) await server.waitForScreen(pane, /SPINNER START/);
  const serverPid = Number((await server.tmux('display-message', '-p', '#{pid}')).trim());
  return {server, pane, serverPid};
}

/** CPU of `pid`'s process tree and of the tmux server over `seconds`. */
async function measure(pid: number, serverPid: number, seconds: number) {
  const before = treeCpuMs(pid);
  const serverBefore = processCpuMs(serverPid);
  await sleep(seconds * 1_000);
  const after = treeCpuMs(pid);
  const serverAfter = processCpuMs(serverPid);
  if (before === undefined || after === undefined) {
    throw new Error(`process ${pid} ended while it was being measured`);
  }
  return {cpuMs: after - before, serverCpuMs: (serverAfter ?? 0) - (serverBefore ?? 0)};
}

/** A nudge job waiting `seconds` on the spinner; with `quiet`, on a pane that prints nothing
 * with a stability window longer than the measurement (what waiting costs when there is
 * nothing to watch: the pane lock's upkeep). */
async function nudgeWaiting(ctx: BenchContext, seconds: number, quiet = false): Promise<Measured> {
  const {server, pane, serverPid} = await busyServer(quiet);
  const id = await submitJob(ctx, [
    ...quickJob(server.socket, pane),
    '--interval',
    `${INTERVAL_MS}ms`,
    '--stable-checks',
    quiet ? '1000' : '3',
    '--timeout',
    `${seconds + 60}s`,
    '--',
    quiet ? 'sleep 600' : 'go',
  ]);
  await waitForEvent(ctx, id, 'waiting');
  const pid = Number((await waitForEvent(ctx, id, 'worker-started')).pid);
  await sleep(SETTLE_MS);
  const m = await measure(pid, serverPid, seconds);
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

async function baselineWaiting(ctx: BenchContext, seconds: number): Promise<Measured> {
  const {server, pane, serverPid} = await busyServer();
  const run = startBaseline(
    {
      socket: server.socket,
      pane,
      text: 'go',
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
  const m = await measure(pid, serverPid, seconds);
  run.child.kill('SIGTERM');
  await run.ended.catch(() => undefined);
  server.kill();
  return {...m, note: `poller ${pid} and its capture-pane processes`};
}

/** CPU of a job waiting on a pane that never goes quiet, 10 s and 60 s, nudge vs baseline.
 * All four run at once (each on its own tmux server), so the figure takes one minute. */
export const cpuWaiting: Figure = {
  id: 'cpu-wait',
  title: 'CPU of a worker waiting on a busy pane (10 s, 60 s) vs a capture-pane poller',
  async run(ctx) {
    const lengths = [10, 60] as const;
    const [idle, ...measured] = await Promise.all([
      nudgeWaiting(ctx, 60, true),
      ...lengths.flatMap((s) => [nudgeWaiting(ctx, s), baselineWaiting(ctx, s)]),
    ]);
    return lengths.map((seconds, i): FigureResult => {
      const nudge = measured[2 * i]!;
      const baseline = measured[2 * i + 1]!;
      const ratio = nudge.cpuMs / baseline.cpuMs;
      return {
        id: `cpu-wait-${seconds}s`,
        subject: {
          label: `nudge worker waiting ${seconds} s`,
          unit: 'cpu-ms',
          samples: [nudge.cpuMs],
        },
        baseline: {
          label: `poller waiting ${seconds} s (capture-pane every ${INTERVAL_MS} ms)`,
          unit: 'cpu-ms',
          samples: [baseline.cpuMs],
        },
        ratio: 'subject/baseline',
        goal: seconds === 60 ? {text: '≤ 1/5 of the baseline', met: ratio <= CPU_GOAL} : undefined,
        notes: [
          `the pane runs test/fixtures/spinner.mjs (a redraw every 100 ms); --until stable, --interval ${INTERVAL_MS}ms; measured from ${SETTLE_MS} ms into the wait, for ${seconds} s`,
          `CPU of the ${nudge.note}; baseline: ${baseline.note} (10 ms clock ticks)`,
          `the tmux server meanwhile (busy pane included): ${nudge.serverCpuMs} ms with nudge, ${baseline.serverCpuMs} ms with the poller`,
          `a nudge worker waiting 60 s on a pane that prints nothing used ${idle?.cpuMs} ms (holding the pane lock: a refresh and a heartbeat every 2 s, a watchdog every 250 ms); the rest is reading %output, 10 events a second here`,
        ],
      };
    });
  },
};
