import {makeTempDir, runCli, sleep, startPrivateTmux} from '../../test/harness/private-tmux.js';
import {
  type BenchContext,
  type Figure,
  type FigureResult,
  submitJob,
  waitForEvent,
  waitForJobEnd,
} from './bench-kit.js';
import {treeRssKb} from './proc-usage.js';

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
async function waitingMemory(ctx: BenchContext, count: number): Promise<number> {
  const dir = makeTempDir('nudge-bench-mem-');
  const {server, pane} = await startPrivateTmux(dir, SHELL);
  const panes = [pane];
  while (panes.length < count) panes.push(await server.newPane(SHELL));
  const ids = await Promise.all(
    panes.map((p) =>
      submitJob(ctx, [
        '-S',
        server.socket,
        '--pane',
        p,
        '--no-notice',
        '--no-clear',
        '--delay',
        '0',
        '--type-delay',
        '0',
        '--until',
        'regex:NEVER-MATCHES-[0-9]{40}',
        '--timeout',
        '10m',
        '--',
        PRINTER,
      ]),
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
    for (const pid of pids) {
      const rss = treeRssKb(pid);
      if (rss === undefined) throw new Error(`worker ${pid} ended while it was being measured`);
      kb += rss;
    }
    return kb / 1024;
  } finally {
    await Promise.all(ids.map((id) => runCli(['cancel', id], ctx.env)));
    await Promise.all(ids.map((id) => waitForJobEnd(ctx, id, 60_000).catch(() => undefined)));
    server.kill();
  }
}

/** Memory of 1, 10 and 50 jobs waiting at once, against one job's: what waiting costs as the
 * number of agents grows. */
export const waitMemory: Figure = {
  id: 'wait-memory',
  title: 'summed RSS of 1, 10 and 50 jobs waiting at once (every nudge process and child)',
  async run(ctx) {
    const mb: number[] = [];
    for (const count of COUNTS) mb.push(await waitingMemory(ctx, count));
    const one = mb[0] ?? 0;
    return COUNTS.slice(1).map((count, i): FigureResult => {
      const total = mb[i + 1] ?? 0;
      return {
        id: `wait-memory-${count}`,
        subject: {label: `${count} jobs waiting`, unit: 'MB', samples: [total]},
        baseline: {label: '1 job waiting', unit: 'MB', samples: [one]},
        ratio: 'subject/baseline',
        goal:
          count === 50
            ? {text: `≤ ${MEMORY_GOAL}× one job's`, met: total / one <= MEMORY_GOAL}
            : undefined,
        notes: [
          `each job types a loop into its own pane's bash, on one private server (a line printed twice a second, --until regex: that never matches); measured ${SETTLE_MS} ms after the last began to wait`,
          `VmRSS of each worker and its descendants (its tmux -C client), summed; shared pages count in each process, as ps shows RSS`,
        ],
      };
    });
  },
};
