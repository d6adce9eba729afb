import {makeTempDir, runCli, sleep, startPrivateTmux} from '../../test/harness/private-tmux.js';
import {
  type BenchContext,
  type Figure,
  type FigureResult,
  jobEvents,
  submitJob,
  waitForEvent,
  waitForJobEnd,
} from './bench-kit.js';
import {treeCpuMs} from './proc-usage.js';

/** How many other panes of the job's session print meanwhile (agents at work beside it). */
const NEIGHBOURS = 5;
/** What each neighbour prints: twenty lines every 100 ms, an agent's stream of tokens. */
const NEIGHBOUR = ['sh', '-c', 'while :; do seq 1 20; sleep 0.1; done'];
const SECONDS = 20;
const SETTLE_MS = 1_000;

/** CPU of a job waiting on a quiet pane over SECONDS, with `neighbours` busy panes in its
 * session (windows of the same session: a control client hears every pane of its session). */
async function waitingBeside(ctx: BenchContext, neighbours: number): Promise<number> {
  const dir = makeTempDir('nudge-bench-near-');
  const {server, pane} = await startPrivateTmux(dir, ['bash', '--norc', '--noprofile']);
  for (let i = 0; i < neighbours; i++) await server.newPane(NEIGHBOUR);
  const id = await submitJob(ctx, [
    '-S',
    server.socket,
    '--pane',
    pane,
    '--no-notice',
    '--delay',
    '0',
    '--type-delay',
    '0',
    '--until',
    'regex:NEVER-MATCHES-[0-9]{40}',
    '--timeout',
    `${SECONDS + 60}s`,
    '--',
    'true',
  ]);
  try {
    await waitForEvent(ctx, id, 'waiting', 60_000);
    const pid = Number((await waitForEvent(ctx, id, 'worker-started')).pid);
    await sleep(SETTLE_MS);
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
        `${SECONDS} s from ${SETTLE_MS} ms into the wait; each neighbour prints 20 lines every 100 ms in its own window of the job's session`,
        'CPU of the worker and its tmux -C client (10 ms clock ticks)',
      ],
    };
    return [result];
  },
};
