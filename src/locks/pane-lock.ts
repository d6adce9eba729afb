import {utimesSync} from 'node:fs';
import {mkdir, readdir, readFile, rm, stat, utimes} from 'node:fs/promises';
import {dirname, join} from 'node:path';
import {type Clock, realClock} from '../base/clock.js';
import {stateWriteError, writeFileAtomic} from '../base/fs.js';
import {DIR_MODE, layout} from '../base/paths.js';
import {err, ok, type Result} from '../base/result.js';
import {isPidAlive} from '../process/identity.js';
import type {PaneRef} from '../tmux/server.js';
import {paneKey} from './key.js';

export {
  LEASE_SAFE_AGE_MS,
  LeaseReleased,
  LOCK_STALE_MS,
  LOCK_UPDATE_MS,
  type PaneLease,
} from './lease.js';

import {type PaneLease, takeLease} from './lease.js';
import {inQueueOrder, type QueueEntry} from './pane-queue.js';
import {type QueueWatch, watchQueue} from './queue-watch.js';
import {withRecordLock} from './record-lock.js';

/** The queue's timings, in ms. */
const QUEUE = {
  /** How often a waiting worker looks at the queue when it cannot watch the queue directory
   * for changes (fs.watch failed, e.g. out of inotify instances). */
  pollMs: 150,
  /** How often a waiting worker that watches the queue directory looks anyway: what changes
   * without a file event (a holder that died, a lock gone stale, --lock-timeout) is seen within
   * this. */
  backstopMs: 1_000,
  /** How often a queued worker touches its queue entry to show it is alive (a holder's entry
   * is touched by each refresh of its lock). */
  heartbeatMs: 4_000,
  /** An entry not touched for this long belongs to a dead worker (guards against pid reuse). */
  entryStaleMs: 15_000,
  /** An entry whose worker never started (front end died between enqueue and spawn). */
  unclaimedStaleMs: 60_000,
  /** The queue's own short lock (a worker taking the head, a person's change to the queue): a
   * holder that died leaves it stale after this. */
  lockStaleMs: 5_000,
} as const;

/** What a worker waiting for its pane's lock says about itself. */
export interface AcquireOptions {
  jobId: string;
  pid: number;
  timeoutMs: number;
  signal: AbortSignal;
  onWaiting?: (ahead: string[]) => void;
}

/** Why the lock was not taken: the wait ran out, or the person dropped the job from the queue
 * (`nudge queue drop`). */
export type LockWaitTimeout =
  | {
      reason: 'lock-timeout';
      /** The job at the head of the queue when we gave up. */
      holder: string | undefined;
    }
  | {reason: 'dropped'};

/** Why the lock was not taken, as the first words of a sentence ("… ; nothing was typed."). */
export function whyNoLock(why: LockWaitTimeout, pane: string, waitedFor: string): string {
  if (why.reason === 'dropped') return `Dropped from pane ${pane}'s queue by "nudge queue drop"`;
  const holder = why.holder ? ` (job ${why.holder} holds it)` : '';
  return `Waited ${waitedFor} for pane ${pane}'s lock${holder}`;
}

/** A queued job's place kept alive while its worker waits for something else first (an idle
 * pane): its entry is refreshed until `stop`. */
export interface QueueHold {
  stop(): void;
}

/** The FIFO queue and the lock of one pane, under `<state>/locks`. */
export class PaneLock {
  readonly queueDir: string;
  readonly lockTarget: string;
  readonly lockPath: string;

  constructor(
    readonly locksDir: string,
    readonly key: string,
    private readonly clock: Clock,
  ) {
    this.queueDir = join(locksDir, `${key}.queue`);
    this.lockTarget = join(locksDir, key);
    this.lockPath = join(locksDir, `${key}.lock`);
  }

  /** Take a place in the queue (the front end does this before the worker exists, so the
   * queue order is the submission order). */
  async enqueue(jobId: string, pid?: number): Promise<void> {
    const entry: QueueEntry = {jobId, createdAt: new Date(this.clock.wall()).toISOString()};
    try {
      await mkdir(this.queueDir, {recursive: true, mode: DIR_MODE});
      if (pid === undefined) {
        await writeFileAtomic(this.entryPath(jobId), JSON.stringify(entry));
        return;
      }
      // The worker claims its entry: what the person changed of it (its place, a drop) stays.
      await this.withQueue(async (entries) => {
        const had = entries.find((e) => e.jobId === jobId);
        await this.writeEntry({...entry, ...had, pid});
      });
    } catch (error) {
      throw stateWriteError(dirname(this.locksDir), error);
    }
  }

  /** Keep `jobId`'s place (its entry claimed and refreshed) while its worker waits for
   * something before the lock (`--when-idle`): an entry left untouched would go stale. */
  async hold(jobId: string, pid: number): Promise<QueueHold> {
    await this.enqueue(jobId, pid);
    const heartbeat = setInterval(() => void this.touch(jobId), QUEUE.heartbeatMs);
    heartbeat.unref();
    return {stop: () => clearInterval(heartbeat)};
  }

  /**
   * Run `fn` on the queue's live entries (in queue order, dropped ones too) holding the
   * queue's own lock: a worker taking the head and a person's change to the queue (`nudge
   * queue move|drop|edit`) are each atomic against the other.
   */
  async withQueue<T>(fn: (entries: QueueEntry[]) => Promise<T>): Promise<T> {
    await mkdir(this.queueDir, {recursive: true, mode: DIR_MODE});
    return withRecordLock(this.queueDir, QUEUE.lockStaleMs, async () =>
      fn(inQueueOrder(await this.entries())),
    );
  }

  /** Write one entry as given (under withQueue). */
  async writeEntry(entry: QueueEntry): Promise<void> {
    await writeFileAtomic(this.entryPath(entry.jobId), JSON.stringify(entry));
  }

  /** Leave the queue (after finishing, or when a job is cancelled). */
  async dequeue(jobId: string): Promise<void> {
    await rm(this.entryPath(jobId), {force: true});
  }

  /** The live entries' job ids in queue order (the one typing first, then the waiting ones as
   * submitted or as the person moved them); dead ones are removed. */
  async liveEntries(): Promise<string[]> {
    return inQueueOrder((await this.entries()).filter((e) => !e.dropped)).map((e) => e.jobId);
  }

  /** The live entries (dropped ones too), unordered; dead ones are removed. */
  async entries(): Promise<QueueEntry[]> {
    let names: string[];
    try {
      names = await readdir(this.queueDir);
    } catch {
      return [];
    }
    const live: QueueEntry[] = [];
    for (const name of names.filter((n) => n.endsWith('.json')).sort()) {
      const path = join(this.queueDir, name);
      try {
        const [text, st] = await Promise.all([readFile(path, 'utf8'), stat(path)]);
        const entry = JSON.parse(text) as QueueEntry;
        const age = this.clock.wall() - st.mtimeMs;
        const alive =
          entry.pid === undefined
            ? age < QUEUE.unclaimedStaleMs
            : isPidAlive(entry.pid) && age < QUEUE.entryStaleMs;
        if (alive) live.push(entry);
        else await rm(path, {force: true});
      } catch {
        // an entry being written or removed right now: look again next round
      }
    }
    return live;
  }

  /**
   * Wait for our turn (FIFO by job id), then take the lock. proper-lockfile gives waiters no
   * order, so only the head of the queue ever tries it. Rejects with an AbortError when
   * `signal` fires; resolves to an error value when `timeoutMs` passes.
   */
  async acquire(opts: AcquireOptions): Promise<Result<PaneLease, LockWaitTimeout>> {
    const {jobId, pid} = opts;
    const started = this.clock.now();
    await this.enqueue(jobId, pid);
    const changes = watchQueue(this.queueDir);
    let taken = false;
    try {
      const result = await this.#waitForTurn(opts, started, changes);
      taken = result.ok;
      return result;
    } finally {
      changes?.close();
      // Stopped while queued (a cancel's SIGTERM, a failed look): leave the queue now. An
      // entry left behind held the pane's next job until it went stale (a cancel racing a
      // job's start, under load: test/faults/cancel-race.test.ts).
      if (!taken) await this.dequeue(jobId).catch(() => {});
    }
  }

  async #waitForTurn(
    opts: AcquireOptions,
    started: number,
    changes: QueueWatch | undefined,
  ): Promise<Result<PaneLease, LockWaitTimeout>> {
    const {jobId, pid, signal} = opts;
    let lastHeartbeat = this.clock.now();
    let reportedAhead: string | undefined;
    for (;;) {
      // Changes from here on wake the wait below; the look that follows sees any before.
      changes?.reset();
      signal.throwIfAborted();
      const entries = await this.entries();
      const own = entries.find((e) => e.jobId === jobId);
      if (!own) {
        // Our entry was lost (e.g. removed by hand): take our place again.
        await this.enqueue(jobId, pid);
        continue;
      }
      if (own.dropped) return err({reason: 'dropped'});
      const live = inQueueOrder(entries.filter((e) => !e.dropped)).map((e) => e.jobId);
      const ahead = live.slice(0, live.indexOf(jobId));
      if (ahead.length === 0) {
        const taken = await this.#takeHead(jobId);
        if (taken === 'dropped') return err({reason: 'dropped'});
        if (taken) return ok(taken);
      }
      // Report the wait once per change of the job ahead, not on every poll.
      const head = ahead[0] ?? 'a stale lock';
      if (head !== reportedAhead) {
        reportedAhead = head;
        opts.onWaiting?.(ahead);
      }
      if (this.clock.now() - started >= opts.timeoutMs) {
        await this.dequeue(jobId);
        return err({reason: 'lock-timeout', holder: ahead[0]});
      }
      if (this.clock.now() - lastHeartbeat >= QUEUE.heartbeatMs) {
        await this.touch(jobId);
        lastHeartbeat = this.clock.now();
      }
      if (!changes || changes.broken) {
        await this.clock.sleep(QUEUE.pollMs, signal);
        continue;
      }
      // Until an entry comes or goes (the job ahead leaving is one), or the backstop, or
      // the next heartbeat is due.
      const stop = new AbortController();
      const cancel = () => stop.abort(signal.reason);
      signal.addEventListener('abort', cancel, {once: true});
      try {
        const wait = Math.min(
          QUEUE.backstopMs,
          lastHeartbeat + QUEUE.heartbeatMs - this.clock.now(),
        );
        await Promise.race([this.clock.sleep(wait, stop.signal), changes.next]);
      } finally {
        signal.removeEventListener('abort', cancel);
        stop.abort();
      }
      signal.throwIfAborted();
    }
  }

  /** Take the lock if `jobId` is still the head, its entry marked `taken` — under the queue's
   * lock, so a person's move, edit or drop comes wholly before it or is refused after it. */
  async #takeHead(jobId: string): Promise<PaneLease | 'dropped' | undefined> {
    return this.withQueue(async (entries) => {
      const own = entries.find((e) => e.jobId === jobId);
      if (own?.dropped) return 'dropped';
      if (!own || entries.find((e) => !e.dropped)?.jobId !== jobId) return undefined;
      const lease = await this.tryLock(jobId);
      if (lease) await this.writeEntry({...own, taken: true});
      return lease;
    });
  }

  private async tryLock(jobId: string): Promise<PaneLease | undefined> {
    await mkdir(this.locksDir, {recursive: true, mode: DIR_MODE});
    return takeLease({
      jobId,
      lockTarget: this.lockTarget,
      lockPath: this.lockPath,
      // Each refresh confirms the lock ours: the queue entry is touched with it, so waiters
      // see a live head and the holder has no heartbeat timer of its own.
      onConfirmed: () => this.touchNow(jobId),
      onRelease: () => this.dequeue(jobId),
    });
  }

  private async touch(jobId: string): Promise<void> {
    const now = new Date(this.clock.wall());
    await utimes(this.entryPath(jobId), now, now).catch(() => {});
  }

  /** touch, at once: called inside the lock's refresh, where a second trip through the
   * thread pool would be a second wake-up of the process. */
  private touchNow(jobId: string): void {
    const now = new Date(this.clock.wall());
    try {
      utimesSync(this.entryPath(jobId), now, now);
    } catch {
      // gone (dequeued by hand): the next look puts it back
    }
  }

  private entryPath(jobId: string): string {
    return join(this.queueDir, `${jobId}.json`);
  }
}

/** The pane lock of a job's pane, as every process (front end, worker, cancel) computes it. */
export function paneLockFor(stateDir: string, job: PaneRef): PaneLock {
  return new PaneLock(layout.locksDir(stateDir), paneKey(job), realClock);
}
