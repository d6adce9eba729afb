import {eachProcessOnce} from '../../test/harness/each-process-once.js';
import {
  makeTempDir,
  type PrivateTmux,
  runCli,
  startPrivateTmux,
} from '../../test/harness/private-tmux.js';
import {
  type BaselineEnd,
  type BenchContext,
  type Figure,
  type FigureResult,
  median,
  startBaseline,
  submitJob,
  type WorkerExit,
  waitForJobEnd,
  workerExit,
} from './bench-kit.js';
import {processCpuMs} from './proc-usage.js';

/** The goals: peak RSS per worker, and CPU per job that does not grow with the
 * number of jobs (this factor over the single job's leaves room for a noisy machine). */
const RSS_GOAL_MB = 60;
const LINEAR_TOLERANCE = 1.5;
/** A job as an agent would hand it off: a command that works for a second, printing. */
const TASK = 'for i in 1 2 3 4 5; do echo step $i; sleep 0.2; done';
const COUNTS = [1, 10, 50] as const;

interface SideRun {
  correct: number;
  /** CPU a job, each process counted once (eachProcessOnce). */
  cpuMs: number[];
  /** Peak RSS, one sample a process. */
  rssMb: number[];
  /** How many processes ran the jobs (nudge: the waiter and any worker of its own). */
  processes?: number;
  serverCpuMs: number;
  problems: string[];
}

/** A private server with `n` bash panes (one session, a window each). */
async function shellPanes(n: number): Promise<{server: PrivateTmux; panes: string[]}> {
  const dir = makeTempDir('nudge-bench-many-');
  const bash = ['bash', '--norc', '--noprofile'];
  const {server, pane} = await startPrivateTmux(dir, bash, {width: 100, height: 20});
  const panes = [pane];
  while (panes.length < n) panes.push(await server.newPane(bash, {width: 100, height: 20}));
  await Promise.all(panes.map((p) => server.waitForScreen(p, /\$ ?$/)));
  return {server, panes};
}

async function serverPid(server: PrivateTmux): Promise<number> {
  return Number((await server.tmux('display-message', '-p', '#{pid}')).trim());
}

/** Did `pane` get the task's output and then `notice`? */
async function sawNotice(server: PrivateTmux, pane: string, notice: string): Promise<boolean> {
  const screen = await server.capture(pane);
  const done = screen.lastIndexOf('step 5');
  return done >= 0 && screen.indexOf(notice, done) > done;
}

async function runNudgeJobs(ctx: BenchContext, n: number): Promise<SideRun> {
  const {server, panes} = await shellPanes(n);
  const pid = await serverPid(server);
  const cpuBefore = processCpuMs(pid) ?? 0;
  const ids = await Promise.all(
    panes.map((pane) =>
      submitJob(ctx, [
        '-S',
        server.socket,
        '--pane',
        pane,
        '--delay',
        '0',
        '--type-delay',
        '0',
        '--enter-delay',
        '100ms',
        '--interval',
        '250ms',
        '--stable-checks',
        '3',
        '--timeout',
        '180s',
        '--notice',
        '# nudge done {job}',
        '--',
        TASK,
      ]),
    ),
  );
  const out: SideRun = {correct: 0, cpuMs: [], rssMb: [], serverCpuMs: 0, problems: []};
  const exits: WorkerExit[] = [];
  for (const [i, id] of ids.entries()) {
    const end = await waitForJobEnd(ctx, id, 240_000);
    exits.push(await workerExit(ctx, id));
    const ok =
      end.state === 'done' &&
      end.notified === true &&
      String(end.transport).startsWith('control') &&
      (await sawNotice(server, panes[i]!, `# nudge done ${id}`));
    if (ok) out.correct++;
    else out.problems.push(`job ${id} on ${panes[i]}: ${end.state} over ${end.transport}`);
  }
  const counted = eachProcessOnce(exits);
  out.cpuMs = counted.cpuPerJob;
  out.rssMb = counted.rssMb;
  out.processes = counted.processes;
  out.serverCpuMs = (processCpuMs(pid) ?? 0) - cpuBefore;
  server.kill();
  return out;
}

async function runBaselineJobs(ctx: BenchContext, n: number): Promise<SideRun> {
  const {server, panes} = await shellPanes(n);
  const pid = await serverPid(server);
  const cpuBefore = processCpuMs(pid) ?? 0;
  const ends = await Promise.all(
    panes.map(
      (pane, i) =>
        startBaseline(
          {
            socket: server.socket,
            pane,
            text: TASK,
            notice: `# baseline done ${i}`,
            enter: true,
            intervalMs: 250,
            stableChecks: 3,
            timeoutMs: 180_000,
          },
          ctx.env,
        ).ended,
    ),
  );
  const out: SideRun = {correct: 0, cpuMs: [], rssMb: [], serverCpuMs: 0, problems: []};
  for (const [i, end] of ends.entries() as Iterable<[number, BaselineEnd]>) {
    out.cpuMs.push(end.cpuMs + (end.childrenCpuMs ?? 0));
    out.rssMb.push(end.maxRssKb / 1024);
    if (end.status === 'done' && (await sawNotice(server, panes[i]!, `# baseline done ${i}`))) {
      out.correct++;
    } else {
      out.problems.push(`baseline job on ${panes[i]}: ${end.status}`);
    }
  }
  out.serverCpuMs = (processCpuMs(pid) ?? 0) - cpuBefore;
  server.kill();
  return out;
}

const sum = (xs: number[]) => xs.reduce((a, b) => a + b, 0);

/** 1, 10 and 50 jobs at once on separate panes, nudge vs the baseline job. */
export const concurrency: Figure = {
  id: 'concurrency',
  title: '1, 10 and 50 concurrent jobs on separate panes: correctness, CPU, peak RSS',
  async run(ctx) {
    const rows: FigureResult[] = [];
    let perJobAtOne: number | undefined;
    const allRss: number[] = [];
    const baselineRss: number[] = [];
    for (const n of COUNTS) {
      ctx.log(`  ${n} job(s) ...`);
      const nudge = await runNudgeJobs(ctx, n);
      const baseline = await runBaselineJobs(ctx, n);
      await runCli(['jobs'], ctx.env); // untimed: the store stays readable with many jobs
      allRss.push(...nudge.rssMb);
      baselineRss.push(...baseline.rssMb);
      const perJob = median(nudge.cpuMs);
      perJobAtOne ??= perJob;
      const growth = perJob / perJobAtOne;
      const allCorrect = nudge.correct === n && baseline.correct === n;
      rows.push({
        id: `concurrency-${n}`,
        subject: {label: `CPU per nudge job, ${n} at once`, unit: 'cpu-ms', samples: nudge.cpuMs},
        baseline: {
          label: `CPU per baseline job, ${n} at once`,
          unit: 'cpu-ms',
          samples: baseline.cpuMs,
        },
        ratio: 'subject/baseline',
        goal: {
          text: `all correct; CPU per job ≤ ${LINEAR_TOLERANCE}× that of 1 job`,
          met: allCorrect && growth <= LINEAR_TOLERANCE,
        },
        notes: [
          `correct: nudge ${nudge.correct}/${n}, baseline ${baseline.correct}/${n} (done, notified, notice after the output)`,
          `total CPU: nudge ${sum(nudge.cpuMs)} ms over ${nudge.processes ?? '?'} process(es), each counted once (a waiter's CPU split over its jobs; with its tmux clients), baseline ${sum(baseline.cpuMs)} ms; tmux server: ${nudge.serverCpuMs} vs ${baseline.serverCpuMs} ms`,
          `CPU per job vs 1 job: ${growth.toFixed(2)}×; peak RSS per process: max ${Math.max(...nudge.rssMb).toFixed(1)} MB`,
          ...nudge.problems,
          ...baseline.problems,
        ],
      });
    }
    const worst = Math.max(...allRss);
    rows.push({
      id: 'worker-rss',
      subject: {
        label: 'peak RSS per nudge process, each counted once (all runs)',
        unit: 'MB',
        samples: allRss,
      },
      baseline: {label: 'peak RSS per baseline job', unit: 'MB', samples: baselineRss},
      ratio: 'subject/baseline',
      goal: {text: `≤ ${RSS_GOAL_MB} MB per worker (max)`, met: worst <= RSS_GOAL_MB},
      notes: [`max ${worst.toFixed(1)} MB over ${allRss.length} processes (waiters and workers)`],
    });
    return rows;
  },
};
