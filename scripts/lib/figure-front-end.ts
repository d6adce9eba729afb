import {execa} from 'execa';
import {type Figure, interleave, median, waitForJobEnd} from './bench-kit.js';
import {runCli} from './private-tmux.js';

/** The front end's goal: `nudge submit` at most this many times a bare `node -e 0`. */
const FRONT_END_GOAL = 1.5;

/** `nudge submit` (front end only: it returns once the worker is spawned) vs `node -e 0`. */
export const frontEnd: Figure = {
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
    // Wait for each job's worker to finish (untimed) so it does not load the next sample.
    const settle = async () => {
      if (lastJob === undefined) return;
      const job = lastJob;
      lastJob = undefined;
      const end = await waitForJobEnd(ctx, job, 20_000);
      if (end.state !== 'done') throw new Error(`bench job ${job} ended ${end.state}`);
    };
    // One untimed warm-up of each (file cache, first tmux client).
    await submit();
    await settle();
    await nodeStart();
    const s = await interleave(runs, submit, nodeStart, settle);
    const ratio = median(s.subject) / median(s.baseline);
    const beyond = median(s.subject) - median(s.baseline);
    return [
      {
        id: 'front-end',
        subject: {
          label: 'nudge submit --no-notice (returns after spawning the worker)',
          unit: 'ms',
          samples: s.subject,
        },
        baseline: {label: 'node -e 0', unit: 'ms', samples: s.baseline},
        ratio: 'subject/baseline',
        goal: {text: `≤ ${FRONT_END_GOAL}× node -e 0`, met: ratio <= FRONT_END_GOAL},
        notes: [
          `median beyond node start-up: ${beyond.toFixed(0)} ms`,
          `${n} jobs submitted, each waited for until done before the next sample`,
        ],
      },
    ];
  },
};
