import {NudgeError} from '../base/errors.js';
import {Undo} from '../base/undo.js';
import {resolveStall} from '../detect/stall-options.js';
import {paneLockFor} from '../locks/pane-lock.js';
import {resolveSinks} from '../notify/config.js';
import {type AskerCaller, askerOf} from '../pane/asker.js';
import {askerPane} from '../pane/reach.js';
import {paneRefOf} from '../pane/target.js';
import {launchWorker} from '../process/launch-worker.js';
import type {PaneInfo, Tmux} from '../tmux/tmux.js';
import {resolveJobOptions, type SubmitOptions, validateText} from './options.js';
import {configuredVia, givenIfBusy, type IfBusy, ifBusyMeans, resolveIfBusy} from './policies.js';
import type {JobRecord} from './record.js';
import {JOB_ID_PATTERN, type JobOptions, type JobRequest} from './request.js';
import type {JobHandle, JobStore} from './store.js';

/**
 * A submit's job, from what was given to its detached worker: its options decided once (with
 * config.toml's defaults), its record and its place in the pane's queue made together, and
 * its worker started and recorded. `nudge submit` (src/verbs/submit.ts) calls these in order,
 * around the checks of its pane (src/pane/submit-target.ts).
 */

type Env = Record<string, string | undefined>;

/** The job's options from what was given, with config.toml's defaults (its sinks, its via,
 * its busy policy, its stall watchdog), and the busy policy decided. */
export function submitJobOptions(
  o: SubmitOptions,
  env: Env,
): {options: JobOptions; ifBusy: IfBusy} {
  validateText(o.text);
  const options = resolveJobOptions(o);
  options.notifySinks = resolveSinks(o.notify, env);
  if (o.via === undefined && options.notify) options.via = configuredVia(env) ?? 'auto';
  const ifBusy = resolveIfBusy(givenIfBusy(o), env);
  options.ifBusy = ifBusy;
  if (ifBusy === 'now' && o.stall !== undefined)
    throw new NudgeError(
      'bad-usage',
      '--stall watches the wait for the work to be done, and --if-busy now does not wait; give one of them.',
    );
  // A text handed to the agent's door is not waited on: config.toml's stall is not for it.
  options.stall =
    ifBusy === 'now'
      ? null
      : resolveStall(o, env, 'submit', {intervalMs: options.intervalMs, continues: true});
  return {options, ifBusy};
}

/** The job `jobId` names, when a submit with that id was made before (a relay's delivery sent
 * twice): the answer the first time gave, with nothing new started. */
export async function madeBefore(
  store: JobStore,
  jobId: string,
): Promise<{pane: string; pid: number; log: string} | undefined> {
  if (!JOB_ID_PATTERN.test(jobId))
    throw new NudgeError('bad-job', `${JSON.stringify(jobId)} is not a job id.`);
  if (!(await store.ids()).includes(jobId)) return undefined;
  const handle = await store.open(jobId);
  const record = await handle.readState();
  return {pane: record.pane, pid: record.pid ?? 0, log: handle.logPath};
}

/**
 * Record the job and take its place in the pane's queue (so jobs run in submission order even
 * if their workers start in another order), both at once. Until a worker runs, a failure
 * leaves no job behind (it would only show as "lost" later): the user gets one sentence and
 * exit 1, and nothing was typed. A job for the agent's door now (--if-busy now) takes no place
 * in the queue: it never takes the pane's lock, and would hold the jobs behind it back.
 */
export async function recordJob(
  request: JobRequest,
  mode: 'foreground' | 'detached',
  w: {store: JobStore; tmux: Tmux; info: PaneInfo; caller: AskerCaller},
): Promise<{handle: JobHandle; undo: Undo}> {
  const lock = paneLockFor(w.store.stateDir, paneRefOf(w.info));
  const from = submittedFrom(w.caller, w.tmux, w.info);
  const [created, queued] = await Promise.allSettled([
    w.store.create(request, mode, await from),
    ifBusyMeans(request.options.ifBusy).door ? Promise.resolve() : lock.enqueue(request.jobId),
  ]);
  // Taken back in reverse if a later step fails: the queue entry, then the record.
  const undo = new Undo();
  if (created.status === 'fulfilled') undo.add(() => w.store.discard(created.value));
  undo.add(() => lock.dequeue(request.jobId));
  if (created.status === 'rejected' || queued.status === 'rejected') {
    await undo.run();
    throw created.status === 'rejected' ? created.reason : (queued as PromiseRejectedResult).reason;
  }
  return {handle: created.value, undo};
}

/** Start the job's detached worker (`entry`) and record it at once, so `status` can tell a
 * dead worker (lost) and `cancel` can reach it even before the worker writes anything. The
 * worker is running by then and records itself when it starts, so a failure to record it here
 * does not fail the submit; a worker that cannot start takes the job back (`undo`). */
export async function startWorker(
  handle: JobHandle,
  w: {entry: string; stateDir: string; env: Env; undo: Undo},
): Promise<{pid: number}> {
  const worker = await launchWorker({
    entry: w.entry,
    id: handle.id,
    stateDir: w.stateDir,
    logPath: handle.logPath,
    env: w.env,
    undo: w.undo,
  });
  await handle.recordWorkerPid(worker).catch(() => {});
  return {pid: worker.pid};
}

/** The pane the caller runs in and its session, as the job records who submitted it (absent:
 * the person; a pane of another host says so): the pane its process tree proves on the
 * target's server, else the one its environment claims. */
async function submittedFrom(
  caller: AskerCaller,
  tmux: Tmux,
  target: PaneInfo,
): Promise<JobRecord['submittedFrom']> {
  const asker = await askerOf(caller);
  if (asker.kind === 'remote') return {socketPath: '', pane: asker.from};
  if (asker.kind !== 'local') return undefined;
  return askerPane(asker, target, () => tmux);
}
