import {NudgeError} from '../base/errors.js';
import {Undo} from '../base/undo.js';
import {ifBusyMeans} from '../job-options/policies.js';
import {paneLockFor} from '../locks/pane-lock.js';
import {paneRefOf} from '../pane/target.js';
import {launchWorker} from '../process/launch-worker.js';
import type {PaneInfo} from '../tmux/tmux.js';
import type {JobRecord} from './record.js';
import {JOB_ID_PATTERN, type JobRequest} from './request.js';
import type {JobHandle, JobStore} from './store.js';

/**
 * A job put in its place: its record and its place in the pane's queue made together, and its
 * detached worker started and recorded — in one go, for whichever front end submitted it.
 */

type Env = Record<string, string | undefined>;

/** What putting a job in its place needs: every member required. */
export interface Enqueue {
  store: JobStore;
  info: PaneInfo;
  /** Who submitted it (absent: the person). */
  from: JobRecord['submittedFrom'];
  /** The worker script the job runs in, and the environment it starts with. */
  entry: string;
  env: Env;
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

/** The job recorded, queued and handed to its detached worker (in a session of its own). */
export async function enqueueJob(
  request: JobRequest,
  w: Enqueue,
): Promise<{handle: JobHandle; pid: number}> {
  const {handle, undo} = await recordJob(request, w);
  const {pid} = await startWorker(handle, {...w, undo});
  return {handle, pid};
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
  w: Pick<Enqueue, 'store' | 'info' | 'from'>,
): Promise<{handle: JobHandle; undo: Undo}> {
  // A text handed to the agent's door takes no place in the pane's queue.
  const {door} = ifBusyMeans(request.options.ifBusy);
  const lock = paneLockFor(w.store.stateDir, paneRefOf(w.info));
  const [created, queued] = await Promise.allSettled([
    w.store.create(request, 'detached', w.from),
    door ? Promise.resolve() : lock.enqueue(request.jobId),
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

/** Start the job's detached worker and record it at once, so `status` can tell a dead worker
 * (lost) and `cancel` can reach it even before the worker writes anything. The worker is
 * running by then and records itself when it starts, so a failure to record it here does not
 * fail the submit; a worker that cannot start takes the job back (`undo`). */
export async function startWorker(
  handle: JobHandle,
  w: Pick<Enqueue, 'store' | 'entry' | 'env'> & {undo: Undo},
): Promise<{pid: number}> {
  const worker = await launchWorker({
    entry: w.entry,
    id: handle.id,
    stateDir: w.store.stateDir,
    logPath: handle.logPath,
    env: w.env,
    undo: w.undo,
  });
  await handle.recordWorkerPid(worker).catch(() => {});
  return {pid: worker.pid};
}
