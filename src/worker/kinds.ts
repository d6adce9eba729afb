import {join, sep} from 'node:path';
import {pathToFileURL} from 'node:url';
import {useProfilesOf} from '../agents/registry.js';
import {realClock} from '../base/clock.js';
import {describeError, EXIT_CODES, type ExitCode, exitCodeOfState} from '../base/errors.js';
import {JOB_ID_PATTERN, layout} from '../base/paths.js';
import {packageDir} from '../base/version.js';
import {relayEnds} from '../front/relay.js';
import {executeJob, recordWorkerFailure} from '../job-worker/execute.js';
import type {JobRequest} from '../jobs/request.js';
import {JobHandle} from '../jobs/store.js';
import {launchWorker} from '../process/launch-worker.js';
import {startWaiterGuard} from '../process/waiter-guard.js';
import type {WorkerKind, WorkerStart} from '../process/worker-main.js';
import {type RelaySpec, relayOf} from '../relay/record.js';
import {recordRelayFailure, runRelay} from '../relay/relay.js';
import {executeRunJob} from '../runs/execute.js';
import {createControlPool} from '../tmux/control-pool.js';
import {createSpawnRunner} from '../tmux/runner.js';
import {createTmux} from '../tmux/tmux.js';
import {parseTransportChoice} from '../tmux/transport.js';
import {nodeContext} from '../verbs/node-context.js';
import {handOrServe, type WaiterJob} from '../waiter/waiter.js';
import {takeOver} from '../waiter/waiter-takeover.js';
import {executeCycles, recordCycleFailure} from '../watch/execute.js';
import {WATCHER_NAME} from '../watch/record.js';

/**
 * The four kinds of detached worker, each its work and where its failures go; the entry
 * (src/process/worker-main.ts) does the rest the same way for all. Each worker runs in the
 * state folder, with no project folder of its own: it reads the profile files the starting
 * command read (NUDGE_PROFILE_DIRS).
 */

/** A request that cannot be run: the worker fails with this sentence (in its record). */
class BadRequest extends Error {}

/** What a run's and a cycle's execute take of the worker's start. */
const executeContext = (s: WorkerStart) => ({
  stateDir: s.stateDir,
  pid: s.pid,
  signal: s.signal,
  env: s.env,
});

/** A job's failure goes into its record (through the store's one writer of endings). */
const failJob = (s: WorkerStart, reason: string) => recordWorkerFailure(s.stateDir, s.id, reason);

/** `nudge submit`'s job: handed to its tmux server's waiter (src/waiter/waiter.ts), or run here
 * by this process as the waiter, with every job handed to it meanwhile. Each job's request is
 * read from the store by its id and checked. `NUDGE_WAITER=0` runs the job here alone (one
 * process per job, as before the waiter). */
export const JOB_WORKER: WorkerKind = {
  name: 'job',
  idPattern: JOB_ID_PATTERN,
  recordFailure: failJob,
  prepare: useProfilesOf,
  async run(s) {
    const request = await requestOf(s.stateDir, s.id);
    // NUDGE_TRANSPORT=spawn|control|auto picks how tmux is reached (tests run both).
    const transport = parseTransportChoice(s.env.NUDGE_TRANSPORT);
    if (!transport.ok) throw new BadRequest(transport.error);
    // One control client per session for every job this process runs.
    const controls = createControlPool();
    const runOne = async (job: WaiterJob, known?: JobRequest) => {
      const outcome = await executeJob(known ?? (await requestOf(s.stateDir, job.id)), {
        stateDir: s.stateDir,
        pid: s.pid,
        signal: job.signal,
        transport: transport.value,
        usage: s.usage,
        env: job.env,
        controls,
      });
      return exitCodeOfState(outcome.state);
    };
    if (s.env.NUDGE_WAITER === '0')
      return runOne({id: s.id, env: s.env, signal: s.signal}, request);
    // The process exits with its own job's code when it ran it (the one table), else 0: its
    // job went to the waiter, which says how it ended in its record.
    let own: ExitCode = EXIT_CODES.ok;
    await handOrServe(s.id, {
      stateDir: s.stateDir,
      server: {socketPath: request.server.socketPath, serverPid: request.server.pid},
      env: s.env,
      pid: s.pid,
      signal: s.signal,
      log: s.log,
      onCancelMarks: s.onCancelMarks,
      clock: realClock,
      guard: () =>
        startWaiterGuard({
          node: s.node,
          entry: WORKER_ENTRY.takeover,
          id: String(s.pid),
          env: s.env,
        }),
      runJob: async (job) => {
        const mine = job.id === s.id;
        try {
          const code = await runOne(job, mine ? request : undefined);
          if (mine) own = code;
        } catch (error) {
          // One job's bad request or throw is its own failure, recorded in its record; the
          // waiter's other jobs go on.
          await recordWorkerFailure(s.stateDir, job.id, `Worker failed: ${describeError(error)}.`);
          if (mine) own = EXIT_CODES.failure;
        }
      },
    });
    return own;
  },
};

/** The worker scripts the waiter starts (dist/workers/), found from the package, not from this
 * module: bundled, it sits in a chunk of dist/workers (scripts/bundle.ts). */
const WORKER_ENTRY = {
  get job() {
    return join(packageDir(), 'dist', 'workers', 'job-worker.js');
  },
  get takeover() {
    return join(packageDir(), 'dist', 'workers', 'takeover-worker.js');
  },
};

/** The takeover of a killed waiter, started by its guard: `--id` is the waiter's pid. Its
 * queued jobs get a job worker again; the others are ended lost and told once
 * (src/waiter/waiter-takeover.ts). Its failures go to its log alone (it has no record). */
export const TAKEOVER_WORKER: WorkerKind = {
  name: 'takeover',
  idPattern: /^[1-9][0-9]{0,9}$/,
  prepare: useProfilesOf,
  async run(s) {
    const done = await takeOver(Number(s.id), {
      stateDir: s.stateDir,
      env: s.env,
      launch: async (handle, env) => {
        const worker = await launchWorker({
          entry: WORKER_ENTRY.job,
          id: handle.id,
          stateDir: s.stateDir,
          logPath: handle.logPath,
          env,
        });
        await handle.recordWorkerPid(worker).catch(() => {});
        return worker;
      },
      lost: {env: s.env, clock: realClock, tmux: (spec) => createTmux(createSpawnRunner(spec))},
      log: s.log,
    });
    s.log(
      `took over the jobs of waiter ${s.id}: started again ${done.restarted.join(' ') || 'none'}; lost ${done.lost.join(' ') || 'none'}`,
    );
    return EXIT_CODES.ok;
  },
  recordFailure: async () => {},
};

/** A job's checked request, read from the store by its id. */
async function requestOf(stateDir: string, id: string): Promise<JobRequest> {
  const decoded = await new JobHandle(id, layout.jobDir(stateDir, id)).readRequest();
  if (!decoded.ok) throw new BadRequest(decoded.error);
  return decoded.value;
}

/** A kind whose request is its record in the store, read by the id (`nudge run`'s job, a
 * watcher's cycle): its work, and the exit code of how it ended. */
const byRecord = (
  name: 'run' | 'watch',
  idPattern: RegExp,
  work: (id: string, ctx: ReturnType<typeof executeContext>) => Promise<ExitCode>,
  recordFailure: WorkerKind['recordFailure'],
): WorkerKind => ({
  name,
  idPattern,
  prepare: useProfilesOf,
  run: (s) => work(s.id, executeContext(s)),
  recordFailure,
});

/** `nudge run`'s job: its request is the job's request.json (read by id). */
export const RUN_WORKER = byRecord(
  'run',
  JOB_ID_PATTERN,
  async (id, ctx) => exitCodeOfState((await executeRunJob(id, ctx)).state),
  failJob,
);

/** A watcher's cycle: the watcher named by `--id`, its queued reports read from its record;
 * the watcher pauses with a failure's reason in its transcript. */
export const WATCH_WORKER = byRecord(
  'watch',
  WATCHER_NAME,
  async (id, ctx) =>
    (await executeCycles(id, ctx)) === 'not-ours' ? EXIT_CODES.failure : EXIT_CODES.ok,
  (s, reason) => recordCycleFailure(s.stateDir, s.id, reason),
);

/** A relay: its record (`relays/<job>.json`, written before its launch), for the job named by
 * `--id`. */
export const RELAY_WORKER: WorkerKind = {
  name: 'relay',
  idPattern: JOB_ID_PATTERN,
  prepare: useProfilesOf,
  async run(s) {
    const record = await relayOf(s.stateDir, s.id);
    if (record === undefined) throw new BadRequest(`job ${s.id} has no relay recorded`);
    if (record.job !== s.id || typeof record.to?.pane !== 'string')
      throw new BadRequest(`the relay recorded for job ${s.id} is not one`);
    const spec: RelaySpec = {
      job: record.job,
      from: record.from,
      to: record.to,
      notice: record.notice,
    };
    const ctx = nodeContext(
      {
        env: s.env,
        cwd: s.cwd,
        pid: s.pid,
        uid: s.uid,
        signal: s.signal,
        readStdin: async () => '',
        readStdinBytes: async () => new Uint8Array(),
        node: s.node,
      },
      // The CLI's folder (dist/src/), where its paths are relative to.
      pathToFileURL(join(packageDir(), 'dist', 'src') + sep),
    );
    const ended = await runRelay(spec, relayEnds(ctx, s.log));
    return ended.state === 'failed' ? EXIT_CODES.failure : EXIT_CODES.ok;
  },
  recordFailure: (s, reason) => recordRelayFailure(s.stateDir, s.id, reason, realClock.wall()),
};
