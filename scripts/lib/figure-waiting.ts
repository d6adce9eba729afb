import {makeTempDir, runCli, sleep, startPrivateTmux} from '../../test/harness/private-tmux.js';
import {
  type BenchContext,
  type Figure,
  type FigureResult,
  jobEvents,
  median,
  NEVER_MATCHES,
  quickJob,
  submitJob,
  waitForEvent,
  waitForJobEnd,
} from './bench-kit.js';
import {treeCpuMs, treeRssKb} from './proc-usage.js';

/**
 * What waiting costs as the agents grow in number (issue 44): the memory of many jobs waiting
 * at once, and what busy panes beside a job's cost it.
 */

/** Issue 44's goal: fifty waiting jobs hold at most this many times the memory of one. */
const MEMORY_GOAL = 1.5;
/** How many jobs wait at once, each on its own pane of one tmux server. */
const COUNTS = [1, 10, 50] as const;
/** What each job types into its pane's shell: a line printed twice a second, forever, which
 * never matches the job's condition. */
const PRINTER = 'while :; do echo tick; sleep 0.5; done';
const SHELL = ['bash', '--norc', '--noprofile'];
/** Measured this long after the last job began to wait (its client attached, its lock held). */
const SETTLE_MS = 2_000;

/** The summed RSS, in MB, of `count` nudge jobs waiting at once: every worker and every
 * process under it (its `tmux -C` client). */
async function waitingMemory(
  ctx: BenchContext,
  count: number,
  env: Record<string, string> = ctx.env,
): Promise<number> {
  const dir = makeTempDir('nudge-bench-mem-');
  const {server, pane} = await startPrivateTmux(dir, SHELL);
  const panes = [pane];
  while (panes.length < count) panes.push(await server.newPane(SHELL));
  const ids = await Promise.all(
    panes.map((p) =>
      submitJob(
        ctx,
        quickJob(
          server.socket,
          p,
          '--no-clear',
          '--until',
          NEVER_MATCHES,
          '--timeout',
          '10m',
          '--',
          PRINTER,
        ),
        env,
      ),
    ),
  );
  try {
    const pids: number[] = [];
    for (const id of ids) {
      await waitForEvent(ctx, id, 'waiting', 120_000);
      pids.push(Number((await waitForEvent(ctx, id, 'worker-started')).pid));
    }
    await sleep(SETTLE_MS);
    let kb = 0;
    // With the waiter, the jobs share one process: each counted once.
    for (const pid of new Set(pids)) {
      const rss = treeRssKb(pid);
      if (rss === undefined) throw new Error(`worker ${pid} ended while it was being measured`);
      kb += rss;
    }
    return kb / 1024;
  } finally {
    await Promise.all(ids.map((id) => runCli(['cancel', id], env)));
    await Promise.all(ids.map((id) => waitForJobEnd(ctx, id, 60_000).catch(() => undefined)));
    server.kill();
  }
}

/** Memory of 1, 10 and 50 jobs waiting at once, against one job's: what waiting costs as the
 * number of agents grows. */
export const waitMemory: Figure = {
  id: 'wait-memory',
  title:
    "summed RSS of 1, 10 and 50 jobs waiting at once (every nudge process and child), one worker per job (NUDGE_WAITER=0) and with the server's waiter (the default)",
  async run(ctx) {
    const results: FigureResult[] = [];
    for (const shape of ['workers', 'waiter'] as const) {
      const env = shape === 'waiter' ? ctx.env : {...ctx.env, NUDGE_WAITER: '0'};
      const mb: number[] = [];
      for (const count of COUNTS) mb.push(await waitingMemory(ctx, count, env));
      const one = mb[0] ?? 0;
      results.push(
        ...COUNTS.slice(1).map((count, i): FigureResult => {
          const total = mb[i + 1] ?? 0;
          return {
            id: `wait-memory-${count}${shape === 'waiter' ? '-waiter' : ''}`,
            subject: {
              label: `${count} jobs waiting${shape === 'waiter' ? ', one waiter' : ''}`,
              unit: 'MB',
              samples: [total],
            },
            baseline: {label: '1 job waiting', unit: 'MB', samples: [one]},
            ratio: 'subject/baseline',
            goal:
              count === 50
                ? {text: `≤ ${MEMORY_GOAL}× one job's`, met: total / one <= MEMORY_GOAL}
                : undefined,
            notes: [
              `each job types a loop into its own pane's bash, on one private server (a line printed twice a second, --until regex: that never matches); measured ${SETTLE_MS} ms after the last began to wait`,
              `VmRSS of each worker and its descendants (its tmux -C client), summed; shared pages count in each process, as ps shows RSS${shape === 'waiter' ? '; the jobs share one waiter process, counted once' : ''}`,
            ],
          };
        }),
      );
    }
    return results;
  },
};

/** How many other panes of the job's session print meanwhile (agents at work beside it). */
const NEIGHBOURS = 5;
/** What each neighbour prints: twenty lines every 100 ms, an agent's stream of tokens. */
const NEIGHBOUR = ['sh', '-c', 'while :; do seq 1 20; sleep 0.1; done'];
const SECONDS = 20;
const NEAR_SETTLE_MS = 1_000;

/** CPU of a job waiting on a quiet pane over SECONDS, with `neighbours` busy panes in its
 * session (windows of the same session: a control client hears every pane of its session). */
async function waitingBeside(ctx: BenchContext, neighbours: number): Promise<number> {
  const dir = makeTempDir('nudge-bench-near-');
  const {server, pane} = await startPrivateTmux(dir, ['bash', '--norc', '--noprofile']);
  for (let i = 0; i < neighbours; i++) await server.newPane(NEIGHBOUR);
  const id = await submitJob(
    ctx,
    quickJob(
      server.socket,
      pane,
      '--until',
      NEVER_MATCHES,
      '--timeout',
      `${SECONDS + 60}s`,
      '--',
      'true',
    ),
  );
  try {
    await waitForEvent(ctx, id, 'waiting', 60_000);
    const pid = Number((await waitForEvent(ctx, id, 'worker-started')).pid);
    await sleep(NEAR_SETTLE_MS);
    const before = treeCpuMs(pid);
    await sleep(SECONDS * 1_000);
    const after = treeCpuMs(pid);
    if (before === undefined || after === undefined) throw new Error(`worker ${pid} ended`);
    if (jobEvents(ctx, id).some((e) => e.event === 'transport-lost')) {
      throw new Error(`job ${id} lost its control client`);
    }
    return after - before;
  } finally {
    await runCli(['cancel', id], ctx.env);
    await waitForJobEnd(ctx, id).catch(() => undefined);
    server.kill();
  }
}

/** What busy panes beside a job's pane cost the job: each waiting worker should pay for its
 * own pane, not for every agent in the session. */
export const neighbours: Figure = {
  id: 'neighbours',
  title: `CPU of a job waiting on a quiet pane with ${NEIGHBOURS} busy panes in its session vs none`,
  async run(ctx) {
    const [alone, beside] = await Promise.all([
      waitingBeside(ctx, 0),
      waitingBeside(ctx, NEIGHBOURS),
    ]);
    const result: FigureResult = {
      id: 'cpu-neighbours',
      subject: {
        label: `waiting beside ${NEIGHBOURS} busy panes`,
        unit: 'cpu-ms',
        samples: [beside],
      },
      baseline: {label: 'waiting alone in its session', unit: 'cpu-ms', samples: [alone]},
      ratio: 'subject/baseline',
      goal: {text: '≤ 1.5× waiting alone', met: beside <= 1.5 * alone},
      notes: [
        `${SECONDS} s from ${NEAR_SETTLE_MS} ms into the wait; each neighbour prints 20 lines every 100 ms in its own window of the job's session`,
        'CPU of the worker and its tmux -C client (10 ms clock ticks)',
      ],
    };
    return [result];
  },
};

/** How many jobs wait at once in one waiter, for the latency figure. */
const LATENCY_COUNTS = [1, 10, 50] as const;

/** A job's work: a line twice a second for 6-8 s (so that its pane is followed by its checks
 * when it ends), then a line carrying the time it was printed (epoch ms). */
function latencyWork(i: number): string {
  const lines = 12 + (i % 5);
  return `for i in $(seq ${lines}); do echo tick; sleep 0.5; done; echo DONE-$(date +%s%3N)`;
}

/** From the end of each job's work (the time its last line carries) to its verdict (the
 * job's condition-met event), for `count` jobs waiting at once in one waiter. */
async function verdictLatencies(ctx: BenchContext, count: number): Promise<number[]> {
  const dir = makeTempDir('nudge-bench-latency-');
  const {server, pane} = await startPrivateTmux(dir, SHELL);
  const panes = [pane];
  while (panes.length < count) panes.push(await server.newPane(SHELL));
  try {
    const ids = await Promise.all(
      panes.map((p, i) =>
        submitJob(
          ctx,
          quickJob(
            server.socket,
            p,
            '--until',
            'regex:DONE-[0-9]+',
            '--timeout',
            '2m',
            '--',
            latencyWork(i),
          ),
        ),
      ),
    );
    const latencies: number[] = [];
    for (const id of ids) {
      const end = await waitForJobEnd(ctx, id, 180_000);
      if (end.state !== 'done') throw new Error(`job ${id} ended ${end.state}`);
      const met = jobEvents(ctx, id).find((e) => e.event === 'condition-met');
      const printed = Number(/DONE-(\d+)/.exec(String(met?.match))?.[1]);
      if (!met || !Number.isFinite(printed)) throw new Error(`job ${id}: no verdict on its line`);
      latencies.push(Date.parse(String(met.t)) - printed);
    }
    return latencies;
  } finally {
    server.kill();
  }
}

/** Jobs per waiter before latency grows (issue 44): the verdicts of 1, 10 and 50 jobs waiting
 * at once in one waiter, each on a busy pane that ends with the line its regex waits for. */
export const waiterLatency: Figure = {
  id: 'waiter-latency',
  title:
    'verdict latency (end of work → verdict) of 1, 10 and 50 jobs waiting at once in one waiter, busy panes',
  async run(ctx) {
    const byCount: number[][] = [];
    for (const count of LATENCY_COUNTS) byCount.push(await verdictLatencies(ctx, count));
    const one = byCount[0] ?? [];
    return LATENCY_COUNTS.slice(1).map((count, i): FigureResult => {
      const samples = byCount[i + 1] ?? [];
      const p90 = [...samples].sort((a, b) => a - b)[Math.floor(samples.length * 0.9)] ?? 0;
      return {
        id: `waiter-latency-${count}`,
        subject: {label: `${count} jobs waiting in one waiter`, unit: 'ms', samples},
        baseline: {label: '1 job waiting', unit: 'ms', samples: one},
        ratio: 'subject/baseline',
        goal: undefined,
        notes: [
          'each job types a loop printing a line twice a second for 6-8 s (its pane followed by its checks by then), then a line with the time: --until regex: waits for it',
          `latency = the job's condition-met event - the time printed; ${count} jobs: median ${median(samples).toFixed(0)} ms, p90 ${p90.toFixed(0)} ms, max ${Math.max(...samples).toFixed(0)} ms`,
        ],
      };
    });
  },
};
