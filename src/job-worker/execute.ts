import {hookMarkSource} from '../agents/hook-marks.js';
import {loadedProfiles} from '../agents/registry.js';
import {realClock} from '../base/clock.js';
import type {Logger} from '../base/log.js';
import {layout} from '../base/paths.js';
import {thisProcess} from '../base/this-process.js';
import {realDoors} from '../doors/ladder.js';
import {withSessionNeeds} from '../doors/session-needs.js';
import {ifBusyMeans} from '../job-options/policies.js';
import type {JobOutcome} from '../jobs/events.js';
import type {JobRecord, RecordPatch} from '../jobs/record.js';
import {climbingReceipts, createJobRecorder, type JobRecorder} from '../jobs/recorder.js';
import type {JobRequest} from '../jobs/request.js';
import {isTerminal, type TerminalState} from '../jobs/states.js';
import {JobHandle} from '../jobs/store.js';
import {untilRoom} from '../jobs/unrecorded.js';
import {controlMutexFor} from '../locks/control-mutex.js';
import {type PaneLock, paneLockFor} from '../locks/pane-lock.js';
import {paneMemory} from '../pane/memory.js';
import {systemForeground} from '../process/foreground.js';
import {endProcessGroup, interruptProcess} from '../process/group.js';
import {listenersOf} from '../process/listeners.js';
import {servedInPane} from '../process/served.js';
import {systemTree} from '../process/tree.js';
import {repliesOfPanes} from '../records/reply.js';
import {showingPaneState} from '../status-bar/pane-status.js';
import type {ControlPool} from '../tmux/control-pool.js';
import {createSpawnRunner} from '../tmux/runner.js';
import type {ServerRef, ServerSpec} from '../tmux/server.js';
import {createTmux, type Tmux} from '../tmux/tmux.js';
import {
  type LazyTransport,
  openTransport,
  openTransportLazily,
  type TransportChoice,
} from '../tmux/transport.js';
import {claimJob, jobTeller} from './claim.js';
import {stoppedFromOutside} from './ending.js';
import {runJob} from './job.js';
import type {JobDeps} from './job-deps.js';
import {requestAfterEdit} from './lock-pane.js';
import {describeTransport, recordTransport, watchForLoss} from './transport-record.js';
import {watchForAnswer} from './unblocked.js';

/** What the worker process used, for its exit log line. */
export interface WorkerUsage {
  /** CPU time of the process itself (user + system). */
  cpuMs: number;
  /** CPU time of its children that have exited (the tmux control client), if known. */
  childrenCpuMs?: number | undefined;
  /** Peak resident set size. */
  maxRssKb: number;
}

/** Where a job runs and how. Built by the worker entry (or `submit --wait`). */
export interface ExecuteContext {
  stateDir: string;
  pid: number;
  signal: AbortSignal;
  /** The tmux transport to use (default `auto`: control mode, else spawning). */
  transport?: TransportChoice | undefined;
  /** Read the process's resource usage, logged when the job ends. */
  usage?: (() => WorkerUsage) | undefined;
  /** The worker's environment: where the agents' doors are found (src/doors/). */
  env: Record<string, string | undefined>;
  /** The control clients this process shares among its jobs (the server's waiter); without
   * it, the job attaches its own. */
  controls?: ControlPool | undefined;
}

/** How long a door waits for the agent to show a notice taken before it is typed instead:
 * Claude Code writes it to its transcript within ~50 ms of the post (measured on 2.1.332),
 * but a program that took a post and is slow to show it (opencode on a loaded 2-core CI
 * machine went past 8 s) would get it twice; the window is wide for that. */
const DOOR_CONFIRM_MS = 20_000;

/** When tmux has fallen this many seconds behind in sending us a pane's output, it pauses
 * that pane for us (and we resume it at once, counting it as output) rather than holding the
 * program in the pane back to our reading speed. */
const CONTROL_PAUSE_AFTER_SECONDS = 2;

/** A job ended before its worker started (a cancel): taken out of the pane's queue. */
async function endedBeforeStart(
  record: JobRecord,
  request: JobRequest,
  ctx: ExecuteContext,
  server: ServerRef,
): Promise<JobOutcome> {
  await paneLockFor(ctx.stateDir, {...server, pane: request.pane}).dequeue(request.jobId);
  const reason = record.reason ?? 'Ended before the worker started.';
  return {state: record.state as TerminalState, notified: false, reason};
}

/** The recorder that shows each step on the pane too (@nudge-state …), over `current()` (the
 * job's transport once open, else one tmux process); a text handed to the agent's door leaves
 * the pane's state to its jobs. */
function shownOnPane(
  patched: JobRecorder,
  request: JobRequest,
  w: {current: () => Tmux; lock: PaneLock},
): JobRecorder {
  if (ifBusyMeans(request.options.ifBusy).door) return patched;
  return showingPaneState(patched, request.pane, request.jobId, {
    tmux: {
      markPane: (pane, option, value) => w.current().markPane(pane, option, value),
      paneStates: () => w.current().paneStates(),
      markServer: (option, value) => w.current().markServer(option, value),
    },
    lock: w.lock,
  });
}

/**
 * Run a job with the real world wired in: tmux on the job's server socket, the pane lock
 * under the state dir, the job's files and pino log. Used by the detached worker and by
 * `submit --wait`.
 *
 * tmux is reached over a control-mode client attached to the pane's session (commands over
 * one pipe, and `%output` events that drive the wait), opened at the first tmux call — after
 * the lock is taken, so a job queued behind others holds no client — and closed at the end.
 * When control mode cannot be used, or with `transport: 'spawn'`, one tmux process runs per
 * call. The `transport` event and the record's `transport` field say which, and why; if the
 * control client ends during the job, a `transport-lost` event says so and the job carries on
 * over spawned processes (waiting by polling).
 */
export async function executeJob(request: JobRequest, ctx: ExecuteContext): Promise<JobOutcome> {
  const server: ServerRef = {socketPath: request.server.socketPath, serverPid: request.server.pid};
  const claimed = await claimJob(ctx.stateDir, request, ctx.pid);
  const {handle, log} = claimed;
  // Ended before its worker started (a cancel): out of the pane's queue, nothing typed.
  if (claimed.ended) return endedBeforeStart(claimed.record, request, ctx, server);
  const spec: ServerSpec = {kind: 'socket-path', path: request.server.socketPath};
  let lost: string | undefined;
  let transportRecord: string | undefined;
  // Each state change carries the transport once known: the final state has it, come what may.
  const untilRecorded = untilRoom(request, ctx, () => current());
  const patched = withPatch(
    createJobRecorder(handle, log, untilRecorded),
    () => (transportRecord === undefined ? {} : {transport: transportRecord}),
    () => handle.cancelledByPerson(),
  );

  const transport = openTransportLazily(
    () =>
      openTransport(spec, request.pane, {
        prefer: ctx.transport === 'spawn' ? 'spawn' : 'control',
        pauseAfterSeconds: CONTROL_PAUSE_AFTER_SECONDS,
        mutex: controlMutexFor(ctx.stateDir, server, {pid: ctx.pid}),
        pool: ctx.controls,
      }),
    async (opened) => {
      transportRecord = describeTransport(opened);
      watchForLoss(opened, (detail) => {
        lost = detail;
        transportRecord = `${describeTransport(opened)}, lost: ${detail}`;
        // An event only (two writers of the state record could lose a transition).
        void recorder.event('transport-lost', {detail}).catch(() => {});
      });
      await recordTransport(opened, transportRecord, {handle, recorder, log});
    },
  );
  const lockFor = (pane: string) => paneLockFor(ctx.stateDir, {...server, pane});
  // Each step shown on the pane too (@nudge-state …): over the job's transport once open, else
  // one tmux process; a text handed to the agent's door leaves the pane's state to its jobs.
  const spawned = createTmux(createSpawnRunner(spec));
  const current = () => (transport.opened ? transport.tmux : spawned);
  const shown = shownOnPane(patched, request, {current, lock: lockFor(request.pane)});
  const recorder = climbingReceipts(shown, claimed.record, () => new Date().toISOString());
  // The profiles are read before any pane lock is taken (zod and TOML: CPU a holder can't spare).
  loadedProfiles();

  let outcome: JobOutcome;
  try {
    outcome = await runJob(
      realJobDeps(request, ctx, {handle, transport, recorder, lockFor, server}),
      request,
      ctx.signal,
    );
  } finally {
    await transport.close();
    // Out of the pane's queue when its worker ends, whatever stopped it (a cancel, too).
    await paneLockFor(ctx.stateDir, {...server, pane: request.pane})
      .dequeue(request.jobId)
      .catch(() => {});
  }
  // A dialog that ended the job: the pane stops saying blocked once the person answers it.
  if (outcome.state === 'blocked')
    await watchForAnswer(
      handle,
      request,
      {tmux: spawned, lockFor, recorder: patched, log},
      ctx.signal,
    );
  await recordTheEnd(
    outcome,
    {handle, recorder, log, ctx},
    {
      lost: lost !== undefined ? transportRecord : undefined,
      kind: transport.opened?.kind ?? 'none',
    },
  );
  return outcome;
}

/** After the job: the profile files refused, a transport lost after the last transition
 * written into the record, and the worker's last line. */
async function recordTheEnd(
  outcome: JobOutcome,
  {
    handle,
    recorder,
    log,
    ctx,
  }: {handle: JobHandle; recorder: JobRecorder; log: Logger; ctx: ExecuteContext},
  transport: {lost: string | undefined; kind: string},
): Promise<void> {
  // Read after the job (not before it: the worker's start stays as quick as it was).
  for (const why of loadedProfiles().problems)
    await recorder.event('profile-file-refused', {why}).catch(() => {});
  if (transport.lost !== undefined) {
    // Lost after the last transition (e.g. while closing).
    const record = await handle.readState().catch(() => undefined);
    if (record && record.transport !== transport.lost)
      await handle.updateState({transport: transport.lost}).catch(() => {});
  }
  log.info(
    {event: 'worker-exit', state: outcome.state, transport: transport.kind, ...ctx.usage?.()},
    'worker exiting',
  );
}

/** What runJob needs, wired to the real world: the job's transport, its recorder, the pane
 * locks, the hooks' marks, the process view, the agents' doors and the person's sinks. */
function realJobDeps(
  request: JobRequest,
  ctx: ExecuteContext,
  {
    handle,
    transport,
    recorder,
    lockFor,
    server,
  }: {
    handle: JobHandle;
    transport: LazyTransport;
    recorder: JobRecorder;
    lockFor: (pane: string) => PaneLock;
    server: ServerRef;
  },
): JobDeps {
  return {
    tmux: transport.tmux,
    activity: transport.activity,
    clock: realClock,
    lockFor,
    requestNow: () =>
      requestAfterEdit(handle, {
        pane: request.pane,
        recorder,
        clock: realClock,
        signal: ctx.signal,
      }),
    recorder,
    pid: ctx.pid,
    hookMarks: withSessionNeeds(hookMarkSource(ctx.stateDir, server), {
      tree: systemTree,
      env: ctx.env,
      panePidOf: async (pane) => (await transport.tmux.describePane(pane))?.panePid,
      now: () => realClock.wall(),
    }),
    foreground: systemForeground,
    served: servedInPane,
    doors: realDoors({
      tree: systemTree,
      env: ctx.env,
      confirmMs: DOOR_CONFIRM_MS,
      stateDir: ctx.stateDir,
      commandLine: (pid) => systemForeground.commandLine(pid),
      listeners: listenersOf,
    }),
    paneMemory: paneMemory(ctx.stateDir, server),
    replies: repliesOfPanes(async (pane) => (await transport.tmux.describePane(pane))?.panePid, {
      foreground: systemForeground,
      tree: systemTree,
      env: ctx.env,
      signal: ctx.signal,
      listeners: listenersOf,
    }),
    stopWork: {
      wanted: () => handle.cancelStopsCommand(),
      endGroup: (group) => endProcessGroup(group, realClock),
      interruptShell: interruptProcess,
    },
    tell: jobTeller(
      handle,
      {...request, sinks: request.options.notifySinks},
      {
        deps: {
          clock: realClock,
          tmux: transport.tmux,
          platform: thisProcess.platform,
          env: ctx.env,
        },
        recorder,
      },
    ),
  };
}

/** `recorder`, with `patch()` merged into every state change; a cancel no person asked for
 * (`byPerson`) is recorded as a stop from outside. */
function withPatch(
  recorder: JobRecorder,
  patch: () => RecordPatch,
  byPerson: () => Promise<boolean>,
): JobRecorder {
  return {
    transition: (state, data, extra) => recorder.transition(state, data, {...patch(), ...extra}),
    event: (name, data) => recorder.event(name, data),
    mark: (p) => recorder.mark({...patch(), ...p}),
    end: async (outcome, extra) => {
      const told = outcome.state === 'cancelled' && !(await byPerson());
      await recorder.end(told ? stoppedFromOutside(outcome) : outcome, {...patch(), ...extra});
    },
  };
}

/**
 * Record that a worker could not run its job at all (bad request, crash), so the failure is
 * never silent. Best effort: the job directory may not exist.
 */
export async function recordWorkerFailure(
  stateDir: string,
  jobId: string,
  reason: string,
): Promise<void> {
  try {
    const handle = new JobHandle(jobId, layout.jobDir(stateDir, jobId));
    const record = await handle.readState();
    if (isTerminal(record.state)) return;
    await handle.end('failed', {reason, notified: false});
  } catch {
    // nothing to record into; the message also went to the worker's stderr (its log file)
  }
}
