import {mkdir, readFile, rename, rm} from 'node:fs/promises';
import {join} from 'node:path';
import {type Clock, RACE_OVER} from '../base/clock.js';
import {describeError} from '../base/errors.js';
import {writeFileAtomic} from '../base/fs.js';
import {DIR_MODE} from '../base/paths.js';
import {isTerminal} from '../jobs/states.js';
import {JobHandle} from '../jobs/store.js';
import {fnv1a64} from '../locks/key.js';
import {watchQueue} from '../locks/queue-watch.js';
import {takeWaiterLock, type WaiterLock, waiterLockHeld} from '../locks/waiter-lock.js';
import {processId} from '../process/identity.js';
import type {ServerRef} from '../tmux/server.js';
import {keepCaller, onlyPerCaller, PER_CALLER, perCaller} from './caller.js';
import {inboxEntries, stillOurs, takeBack} from './inbox.js';

/**
 * One waiter per tmux server (issue 44): the detached worker `nudge submit` starts hands its
 * job to the process that already runs the jobs of its server and exits, or becomes that
 * process. Twenty jobs waiting on one server are then one Node process, not twenty.
 *
 * The hand-over, step by step (the waiter's files are under `<state>/waiters/<key>/`):
 *
 * 1. The worker writes its job into the waiter's inbox (`inbox/<job>.json`, atomically).
 * 2. It tries the waiter's lock (proper-lockfile, the pane lock's timings). Taken: it is the
 *    waiter, and serves the inbox, its own job first among them.
 * 3. Not taken: it watches its entry. The waiter claims an entry by renaming it away (only one
 *    rename of a file succeeds), records itself as the job's process, removes the renamed
 *    entry and runs the job; the worker sees its entry gone and exits. If the lock comes free first (the waiter ended, was
 *    killed, or stalled past the lock's staleness), the worker goes back to step 2.
 *
 * So an entry always has a live process answerable for it: the worker that wrote it, until a
 * waiter has taken it. A waiter with nothing left releases its lock and then looks at the
 * inbox once more, so an entry written as it was leaving is never left behind: either its
 * look sees it (and it takes the lock again, or another worker has), or the entry was written
 * after the lock came free, and its worker takes the lock.
 *
 * Jobs share a waiter only when they would run alike: same tmux server, and the same
 * environment but for what says where the caller stood (PER_CALLER), which travels in the
 * entry and is put back into that job's environment. Each job keeps its own log, timeout,
 * record and stop: `nudge cancel` marks the job and sends the waiter SIGUSR2 (never SIGTERM,
 * which stops every job of the waiter, as a shutdown does).
 */

/** What an inbox entry holds: the job, and its caller's PER_CALLER values. */
interface InboxEntry {
  job: string;
  vars: Record<string, string>;
}

/** One job run by the waiter: its id, its environment, and its own stop. */
export interface WaiterJob {
  id: string;
  env: Record<string, string | undefined>;
  signal: AbortSignal;
}

/** What the worker entry gives the waiter. */
export interface WaiterDeps {
  stateDir: string;
  server: ServerRef;
  env: Record<string, string | undefined>;
  pid: number;
  /** The process's stop (SIGTERM, SIGINT): every job stops. */
  signal: AbortSignal;
  /** Run one job to its end (its record written); never throws for the job's own failures. */
  runJob(job: WaiterJob): Promise<void>;
  /** A line of the process's log. */
  log(line: string): void;
  /** Subscribe to "look at your jobs' cancel marks" (SIGUSR2, which `nudge cancel` sends). */
  onCancelMarks(listener: () => void): () => void;
  /** Start the guard that takes this process's jobs over if it is killed; stopped when the
   * waiter ends in order (src/process/waiter-guard.ts). */
  guard(): {stop(): void};
  clock: Clock;
}

/** How the worker's job went: run by this process (it was or became the waiter), or taken by
 * the waiter that runs its server's jobs. */
export type HandOver = 'served' | 'handed-over';

/** How often a worker whose entry waits for the waiter looks at it and at the lock. */
const HANDOVER_POLL_MS = 100;
/** How often, at most, the waiter reads its inbox when no file event came (fs.watch may miss
 * some): it also reads it at each refresh of its lock (every 4 s), in that wake-up; this timer
 * is for a refresh that does not come. Every wake-up is CPU spent on jobs that only wait
 * (issue 44). */
const INBOX_BACKSTOP_MS = 30_000;
/** How long an entry that could not be taken (a write failed) waits before it is tried again. */
const CLAIM_RETRY_MS = 2_000;
/** How often it reads its inbox when the folder cannot be watched at all. */
const INBOX_POLL_MS = 250;

/** The waiter's folder for jobs of `server` run in `env`. */
export function waiterDir(
  stateDir: string,
  server: ServerRef,
  env: Record<string, string | undefined>,
): string {
  return join(stateDir, 'waiters', waiterKey(server, env));
}

/** The key of a waiter: the server (socket and pid) and the environment but PER_CALLER. */
export function waiterKey(server: ServerRef, env: Record<string, string | undefined>): string {
  const skip = new Set<string>(PER_CALLER);
  const lines = Object.keys(env)
    .filter((k) => !skip.has(k) && env[k] !== undefined)
    .sort()
    .map((k) => `${k}=${env[k]}`);
  const socket = fnv1a64(server.socketPath).slice(0, 12);
  return `${socket}-${server.serverPid}-${fnv1a64(lines.join('\0')).slice(0, 12)}`;
}

/**
 * The job worker's side: hand job `jobId` to its server's waiter, or become the waiter and
 * serve it (and every job handed over meanwhile) until none is left.
 */
export async function handOrServe(jobId: string, deps: WaiterDeps): Promise<HandOver> {
  const dir = waiterDir(deps.stateDir, deps.server, deps.env);
  const inbox = join(dir, 'inbox');
  await mkdir(inbox, {recursive: true, mode: DIR_MODE});
  const entry = join(inbox, `${jobId}.json`);
  const body: InboxEntry = {job: jobId, vars: perCaller(deps.env)};
  await writeFileAtomic(entry, JSON.stringify(body), {durable: false});
  const {clock} = deps;
  for (;;) {
    const held = await takeWaiterLock(dir);
    if (held) {
      await serve(dir, held, deps);
      return 'served';
    }
    // Another process is the waiter: wait until it takes our entry, or until its lock is free.
    for (;;) {
      if (!(await stillOurs(inbox, jobId))) return 'handed-over';
      if (deps.signal.aborted) {
        // Stopped before the waiter took it: take the entry back (if we still can) and let
        // the job record its stop here.
        if (await takeBack(entry)) {
          await deps.runJob({id: jobId, env: deps.env, signal: deps.signal});
          return 'served';
        }
        return 'handed-over';
      }
      if (!(await waiterLockHeld(dir))) break;
      await clock.sleep(HANDOVER_POLL_MS);
    }
  }
}

/** Run a claimed job beside the others, in `running` until it ends (then `ended`): stopped
 * on the waiter's stop, or once a person cancels it. */
async function startJob(
  job: InboxEntry,
  deps: WaiterDeps,
  running: Map<string, {stop: AbortController}>,
  ended: () => void,
): Promise<void> {
  const stop = new AbortController();
  const onStop = () => stop.abort();
  deps.signal.addEventListener('abort', onStop, {once: true});
  if (await cancelRequested(deps.stateDir, job.job)) stop.abort();
  void deps
    .runJob({id: job.job, env: {...deps.env, ...job.vars}, signal: stop.signal})
    .catch((error: unknown) =>
      deps.log(`job ${job.job} failed in the waiter: ${describeError(error)}`),
    )
    .finally(() => {
      deps.signal.removeEventListener('abort', onStop);
      running.delete(job.job);
      ended();
    });
  running.set(job.job, {stop});
}

/**
 * Serve the inbox until no job runs and none waits: claim each entry, run its job beside the
 * others, stop a job when `nudge cancel` marks it (and sends SIGUSR2), all of them on the process's
 * stop. Then release the lock, look once more, and go on if someone came meanwhile.
 */
async function serve(dir: string, first: WaiterLock, deps: WaiterDeps): Promise<void> {
  const inbox = join(dir, 'inbox');
  const running = new Map<string, {stop: AbortController}>();
  const onCancel = () => {
    for (const [id, job] of running) {
      void cancelRequested(deps.stateDir, id).then((yes) => {
        if (yes) job.stop.abort();
      });
    }
  };
  const offCancel = deps.onCancelMarks(onCancel);
  const guard = deps.guard();
  let held: WaiterLock | undefined = first;
  const changes = watchQueue(inbox);
  const {clock} = deps;
  /** Entries that could not be taken yet (a write failed), and when to try each again. */
  const later = new Map<string, number>();
  /** Ends the round's wait: a job ended, or the inbox changed. (Not a race over each job's
   * end and the watch's promise: that adds a reaction to each of them every round, ~300
   * bytes apiece kept for as long as the job waits.) */
  let wakeRound: () => void = () => {};
  /** The inbox watch's promise a wake-up hangs on (one per firing, not per round). */
  let heard: Promise<void> | undefined;
  try {
    while (held) {
      const woken = new Promise<void>((resolve) => {
        wakeRound = resolve;
      });
      changes?.reset();
      // A waiter whose lock was taken over (it stalled) takes no new job: the new holder does.
      if (!held.lost.aborted && !deps.signal.aborted) {
        for (const entry of await inboxEntries(inbox)) {
          if ((later.get(entry) ?? 0) > clock.now()) continue;
          const job = await claim(inbox, entry, deps, (id) => running.has(id));
          if (job === 'again') later.set(entry, clock.now() + CLAIM_RETRY_MS);
          if (!job || job === 'again') continue;
          later.delete(entry);
          await startJob(job, deps, running, () => wakeRound());
        }
      }
      if (running.size === 0) {
        const entries = await inboxEntries(inbox);
        if (entries.length > 0 && !held.lost.aborted) {
          // Only entries to try again later: wait for the first of them, not in a busy loop.
          const first = Math.min(...entries.map((e) => later.get(e) ?? 0));
          if (first > clock.now())
            await clock.sleep(first - clock.now(), deps.signal).catch(() => {});
          continue;
        }
        await held.release();
        held = undefined;
        // Someone may have written an entry while we were leaving: its worker takes the lock,
        // or we take it again and serve it.
        if ((await inboxEntries(inbox)).length > 0) held = await takeWaiterLock(dir);
        continue;
      }
      // One timer a round, ended with it (a race's losing sleep would stay armed).
      const round = new AbortController();
      try {
        const watched = changes && !changes.broken;
        if (changes && changes.next !== heard) {
          heard = changes.next;
          void heard.then(() => wakeRound());
        }
        await Promise.race([
          woken,
          ...(watched ? [held.refreshed(round.signal).catch(() => {})] : []),
          clock.sleep(watched ? INBOX_BACKSTOP_MS : INBOX_POLL_MS, round.signal).catch(() => {}),
        ]);
      } finally {
        // (A reason of our own: an abort without one builds a DOMException each round.)
        round.abort(RACE_OVER);
      }
    }
  } finally {
    changes?.close();
    offCancel();
    guard.stop();
  }
}

/** Take an entry (renamed away: only one process's rename succeeds) and record this process
 * as its job's; undefined when another took it first or it is not a job's. One claim per job
 * (issue 61: an entry written again made the waiter type the job's text twice): an entry for
 * a job that runs here, that a waiter took already, that went past `queued`, or that ended
 * is ignored, and the job's log says so. */
async function claim(
  inbox: string,
  name: string,
  deps: WaiterDeps,
  runsHere: (id: string) => boolean,
): Promise<InboxEntry | 'again' | undefined> {
  const from = join(inbox, name);
  const taken = join(inbox, `${name}.${deps.pid}.taken`);
  try {
    await rename(from, taken);
  } catch {
    return undefined;
  }
  try {
    const entry = JSON.parse(await readFile(taken, 'utf8')) as InboxEntry;
    if (`${entry.job}.json` !== name) return undefined;
    const vars = onlyPerCaller(entry.vars);
    const handle = new JobHandle(entry.job, join(deps.stateDir, 'jobs', entry.job));
    const record = await handle.readState();
    const ignored = isTerminal(record.state)
      ? `it ended (${record.state})`
      : runsHere(entry.job) || record.waiter === true || record.state !== 'queued'
        ? `it is running already (${record.state})`
        : undefined;
    if (ignored !== undefined) {
      await handle.appendEvent('entry-ignored', {by: deps.pid, why: ignored});
      deps.log(`inbox entry ${name} ignored: ${ignored}`);
      return undefined;
    }
    await keepCaller(handle, vars);
    const self = processId(deps.pid);
    await handle.updateState({pid: self.pid, pidStart: self.start, waiter: true});
    return {job: entry.job, vars};
  } catch (error) {
    deps.log(`inbox entry ${name} could not be taken: ${describeError(error)}`);
    // A write that failed (the disk full, issue 62) is no reason to drop the job: its worker
    // has gone, trusting the waiter with it. The entry goes back, tried again after a pause.
    // An entry that is not a job's (no JSON, no record) is dropped: it would keep the waiter.
    const code = String((error as NodeJS.ErrnoException).code);
    if (!/^E[A-Z]+$/.test(code) || code === 'ENOENT') return undefined;
    return (await rename(taken, from).then(
      () => true,
      () => false,
    ))
      ? 'again'
      : undefined;
  } finally {
    await rm(taken, {force: true});
  }
}

/** Whether a person asked to cancel the job (`nudge cancel` marks it before it signals). */
async function cancelRequested(stateDir: string, id: string): Promise<boolean> {
  return new JobHandle(id, join(stateDir, 'jobs', id)).cancelRequested();
}
