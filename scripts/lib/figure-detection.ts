import {existsSync, readFileSync, rmSync} from 'node:fs';
import {join} from 'node:path';
import {FIXTURES, sleep} from '../../test/harness/private-tmux.js';
import {
  type Figure,
  interleave,
  median,
  runBaseline,
  startTimedRecorder,
  submitJob,
  type TimedRecorder,
  waitForJobEnd,
} from './bench-kit.js';

/** The goal: the notice's first byte at most this long after quiet was provable. */
const DETECTION_GOAL_MS = 100;
/** After long work the quiet is known to a check, once a second (issue 44): within one. */
const FOLLOWED_GOAL_MS = 1_000;
/** nudge's defaults: checks every second, done after 3 stable ones (a 3 s window). */
const INTERVAL_MS = 1_000;
const STABLE_CHECKS = 3;
const WINDOW_MS = INTERVAL_MS * STABLE_CHECKS;
const NOTICE = 'detected';

/**
 * Detection overhead: how long after the pane has provably been quiet for the stability
 * window (its last output + the window) the notice's first byte reaches the notify pane.
 * The pane runs test/fixtures/job-sim.mjs, told to print for a while (a different length each
 * sample, so the end falls anywhere between two polls), which notes the time of its last
 * output; the notify pane is a timed recorder.
 */
export const detection: Figure = detectionOf({
  id: 'detection',
  title: 'detection overhead: notice first byte - (last output + stability window)',
  fromMs: 1_000,
  goalMs: DETECTION_GOAL_MS,
  how: 'nudge job (control mode, %output times)',
});

/** Work long enough that the pane is followed by its checks when it goes quiet (issue 44:
 * src/tmux/pane-hearing.ts), where the quiet is known only to a check. */
export const detectionLong: Figure = detectionOf({
  id: 'detection-long',
  title:
    'detection overhead after long work (followed by its checks): notice first byte - (last output + window)',
  fromMs: 8_000,
  goalMs: FOLLOWED_GOAL_MS,
  how: 'nudge job (a pane busy past COARSE_AFTER_MS: subscription checks)',
});

/** The detection figure for work of `fromMs` to `fromMs` + 1 s. */
function detectionOf(o: {
  id: string;
  title: string;
  fromMs: number;
  goalMs: number;
  how: string;
}): Figure {
  return {
    id: o.id,
    title: o.title,
    async run(ctx) {
      const runs = ctx.runs(5);
      const lastOutputFile = join(ctx.dir, 'last-output');
      const work = await ctx.server.newPane([
        process.execPath,
        join(FIXTURES, 'job-sim.mjs'),
        lastOutputFile,
      ]);
      await ctx.server.waitForScreen(work, /JOB-SIM READY/);
      const rec = await startTimedRecorder(ctx.server, ctx.dir, 'detection');
      const workMs = (i: number) => o.fromMs + ((i * 373) % 1_000);

      const overhead = async (rec: TimedRecorder) => {
        await rec.waitForLength(NOTICE.length + 1, 30_000);
        const first = rec.chunks()[0];
        if (!first) throw new Error('the notify pane noted no chunk times');
        const got = rec.bytes().toString('utf8');
        if (got !== `${NOTICE}\r`) throw new Error(`the notify pane got ${JSON.stringify(got)}`);
        const lastOutput = Number(readFileSync(lastOutputFile, 'utf8'));
        return first.at - (lastOutput + WINDOW_MS);
      };
      const prepare = () => {
        rec.reset();
        rmSync(lastOutputFile, {force: true});
      };

      const viaNudge = async (i: number) => {
        prepare();
        const id = await submitJob(ctx, [
          '-S',
          ctx.server.socket,
          '--pane',
          work,
          '--notify-pane',
          rec.pane,
          '--no-clear',
          '--delay',
          '0',
          '--type-delay',
          '0',
          '--enter-delay',
          '0',
          '--interval',
          `${INTERVAL_MS}ms`,
          '--stable-checks',
          String(STABLE_CHECKS),
          '--timeout',
          '60s',
          '--notice',
          NOTICE,
          '--',
          `work ${workMs(i)}`,
        ]);
        const ms = await overhead(rec);
        const end = await waitForJobEnd(ctx, id);
        if (end.state !== 'done' || !String(end.transport).startsWith('control')) {
          throw new Error(`nudge job ${id} ended ${end.state} over ${end.transport}`);
        }
        return ms;
      };
      const viaBaseline = async (i: number) => {
        prepare();
        await runBaseline(
          {
            socket: ctx.server.socket,
            pane: work,
            notifyPane: rec.pane,
            text: `work ${workMs(i)}`,
            notice: NOTICE,
            enter: true,
            intervalMs: INTERVAL_MS,
            stableChecks: STABLE_CHECKS,
            timeoutMs: 60_000,
          },
          ctx.env,
        );
        if (!existsSync(lastOutputFile)) throw new Error('the job never printed');
        return overhead(rec);
      };
      const s = await interleave(runs, viaNudge, viaBaseline, () => sleep(200));
      return [
        {
          id: o.id,
          subject: {label: o.how, unit: 'ms', samples: s.subject},
          baseline: {
            label: `capture-pane process every ${INTERVAL_MS} ms, ${STABLE_CHECKS} stable`,
            unit: 'ms',
            samples: s.baseline,
          },
          ratio: 'subject/baseline',
          goal: {
            text: `≤ ${o.goalMs} ms (baseline: up to one interval)`,
            met: median(s.subject) <= o.goalMs,
          },
          notes: [
            `--interval ${INTERVAL_MS}ms --stable-checks ${STABLE_CHECKS}: a ${WINDOW_MS} ms window; the pane prints every 50 ms for ${o.fromMs / 1_000}-${o.fromMs / 1_000 + 1} s, then stays quiet`,
            `nudge max ${Math.max(...s.subject).toFixed(0)} ms; baseline max ${Math.max(...s.baseline).toFixed(0)} ms`,
          ],
        },
      ];
    },
  };
}
