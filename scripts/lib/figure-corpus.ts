import {mkdirSync} from 'node:fs';
import {join} from 'node:path';
import {realClock} from '../../src/base/clock.js';
import {waitUntil} from '../../src/detect/wait-until.js';
import {ForegroundWatch, StableWatcher} from '../../src/detect/watchers.js';
import {systemForeground} from '../../src/process/foreground.js';
import {openTransport} from '../../src/tmux/transport.js';
import {
  CORPUS,
  CORPUS_SHELLS,
  type CorpusCase,
  startCase,
} from '../../test/harness/detection-corpus.js';
import {FIXTURES, type PrivateTmux} from '../../test/harness/private-tmux.js';
import {type Figure, median} from './bench-kit.js';

/** The goals: every verdict right; at most this beyond the window, on control mode. */
const OVERHEAD_GOAL_MS = 150;
/** nudge's defaults: 3 stable checks 1 s apart, a 3 s window. */
const INTERVAL_MS = 1_000;
const STABLE_CHECKS = 3;
const WINDOW_MS = INTERVAL_MS * STABLE_CHECKS;
/** A busy program must still be busy after this long: the window and two more seconds
 * (inside the build's 6 s silent phase). */
const BUSY_TIMEOUT_MS = WINDOW_MS + 2_000;

/** Start the case's program in a new pane and wait until it is at the moment under test. */
async function prepare(server: PrivateTmux, dir: string, c: CorpusCase): Promise<string> {
  const pane = await server.newPane([...CORPUS_SHELLS[c.shell ?? 'bash']]);
  await startCase(server, pane, c, {dir, fixtures: FIXTURES});
  return pane;
}

/**
 * The detection corpus at nudge's defaults, on the control-mode transport (what a job's
 * worker uses): for each program, the verdict of a `--until stable` wait armed on the pane
 * (right: the one the corpus says), and for an idle one how long after the window it came.
 */
export const corpus: Figure = {
  id: 'corpus',
  title: 'detection corpus: verdicts right, time to verdict beyond the window (control mode)',
  async run(ctx) {
    const overheads: number[] = [];
    const notes: string[] = [];
    let right = 0;
    for (const c of CORPUS) {
      const dir = join(ctx.dir, `corpus-${right + notes.length}`);
      mkdirSync(dir, {recursive: true});
      const pane = await prepare(ctx.server, dir, c);
      const info = await ctx.server.tmux('display-message', '-p', '-t', pane, '#{pane_pid}');
      const transport = await openTransport({kind: 'socket-path', path: ctx.server.socket}, pane);
      try {
        if (transport.kind !== 'control')
          throw new Error(`no control mode: ${transport.fallbackReason}`);
        const foreground = new ForegroundWatch(() => systemForeground.inputState(Number(info)));
        const watcher = new StableWatcher(STABLE_CHECKS, {
          baselineKey: undefined,
          graceChecks: 0,
          ignore: [],
          shellPane: true,
          input: () => foreground.state,
        });
        const started = realClock.now();
        const waited = await waitUntil(transport.tmux, pane, watcher, {
          intervalMs: INTERVAL_MS,
          timeoutMs: c.verdict === 'idle' ? 30_000 : BUSY_TIMEOUT_MS,
          clock: realClock,
          signal: AbortSignal.timeout(60_000),
          activity: transport.activity,
          typedAt: started,
          foreground,
        });
        const took = realClock.now() - started;
        const v = waited.verdict;
        const reason = v.status === 'pending' ? v.why : v.status === 'done' ? (v.why ?? '') : '';
        const ok = (waited.status === 'done') === (c.verdict === 'idle') && c.reason.test(reason);
        if (ok) right++;
        if (c.verdict === 'idle' && waited.status === 'done') overheads.push(took - WINDOW_MS);
        notes.push(
          `${ok ? 'right' : 'WRONG'}: ${c.name} → ${waited.status} (${reason}) in ${Math.round(took)} ms`,
        );
      } finally {
        await transport.close();
        await ctx.server.tmux('kill-pane', '-t', pane).catch(() => '');
      }
    }
    const max = Math.max(...overheads);
    return [
      {
        id: 'corpus',
        subject: {
          label: 'time to an idle verdict beyond the 3 s window',
          unit: 'ms',
          samples: overheads,
        },
        goal: {
          text: `${CORPUS.length}/${CORPUS.length} right, ≤ ${OVERHEAD_GOAL_MS} ms beyond the window`,
          met:
            right === CORPUS.length &&
            median(overheads) <= OVERHEAD_GOAL_MS &&
            max <= OVERHEAD_GOAL_MS,
        },
        notes: [
          `${right}/${CORPUS.length} verdicts right; overhead median ${Math.round(median(overheads))} ms, max ${Math.round(max)} ms`,
          ...notes,
        ],
      },
    ];
  },
};
