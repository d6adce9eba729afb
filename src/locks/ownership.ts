import * as fs from 'node:fs';
import {rename, rmdir, stat} from 'node:fs/promises';
import {DIR_MODE} from '../base/paths.js';
import {thisProcess} from '../base/this-process.js';

/**
 * Watches proper-lockfile's file operations on one lock (through its `fs` option): the lock
 * directory is created 0700 like the rest of the state dir (proper-lockfile would use the
 * umask), and every successful refresh of its mtime is noted, so the holder knows when the
 * lock was last confirmed its own.
 */
export class LockOwnership {
  /** When the lock's mtime was last set by us (ms since the epoch). */
  confirmedAt = Date.now();
  /** The mtime we last set. */
  #mtimeMs: number | undefined;
  /** Whether proper-lockfile's unlock may remove the lock directory (see release). */
  removeOnRelease = true;
  readonly fs: typeof fs;
  /** Told after each refresh that confirmed the lock ours (with confirmedAt): the holder's
   * other upkeep rides on it (its queue entry touched, its watchdog re-armed) instead of
   * timers of its own, so a held lock wakes the process once per refresh. */
  onConfirmed: (() => void) | undefined;

  constructor(
    private readonly lockPath: string,
    /** How old a confirmation may be and the lock still count as ours (LEASE_SAFE_AGE_MS). */
    private readonly safeAgeMs: number,
  ) {
    const mkdirOwn = (path: fs.PathLike, cb: (err: NodeJS.ErrnoException | null) => void) =>
      fs.mkdir(path, {mode: DIR_MODE}, (err) => cb(err));
    // A refresh is proper-lockfile's stat (is the mtime still ours?) followed by a utimes. The
    // lock is known ours only as of the moment that stat was *issued*: a worker stopped after
    // it (SIGSTOP, a suspended machine) may resume to complete the utimes on another worker's
    // lock, which proper-lockfile takes for success. So the confirmation is dated from the
    // stat's issue, never from the utimes' completion, and a stall anywhere in the refresh
    // leaves it old (assertHeld then refuses the next key).
    //
    // The lock's own stat and utimes are made at once (their callbacks still come later, as
    // proper-lockfile expects): a directory's stat and utimes take microseconds, and through
    // the thread pool each would be another wake-up of the process, three a refresh where
    // one does (a held lock is most of what a quiet wait costs; issue 44).
    let statIssuedAt = Date.now();
    const statNoted = (path: fs.PathLike, ...rest: unknown[]) => {
      if (String(path) !== this.lockPath)
        return (fs.stat as (...a: unknown[]) => void)(path, ...rest);
      statIssuedAt = Date.now();
      const cb = rest.at(-1) as (err: NodeJS.ErrnoException | null, st?: fs.Stats) => void;
      let st: fs.Stats | undefined;
      let err: NodeJS.ErrnoException | null = null;
      try {
        st = fs.statSync(path);
      } catch (e) {
        err = e as NodeJS.ErrnoException;
      }
      queueMicrotask(() => cb(err, st));
    };
    const utimesNoted = (
      path: fs.PathLike,
      atime: fs.TimeLike,
      mtime: fs.TimeLike,
      cb: (err: NodeJS.ErrnoException | null) => void,
    ) => {
      if (String(path) !== this.lockPath) return fs.utimes(path, atime, mtime, cb);
      const issuedAt = Date.now();
      const checkedAt = statIssuedAt;
      let err: NodeJS.ErrnoException | null = null;
      try {
        fs.utimesSync(path, atime, mtime);
      } catch (e) {
        err = e as NodeJS.ErrnoException;
      }
      if (!err) {
        this.confirmedAt = Math.min(checkedAt, issuedAt);
        this.#mtimeMs = mtime instanceof Date ? mtime.getTime() : Number(mtime) * 1000;
        this.onConfirmed?.();
      }
      queueMicrotask(() => cb(err));
    };
    // A fresh object per lock: proper-lockfile caches the mtime precision on it, and a probe
    // (which sets the mtime) is how we learn the first mtime.
    const rmdirUnlessKept = (
      path: fs.PathLike,
      cb: (err: NodeJS.ErrnoException | null) => void,
    ) => {
      if (String(path) === this.lockPath && !this.removeOnRelease) return cb(null);
      fs.rmdir(path, (err) => cb(err));
    };
    this.fs = {
      ...fs,
      mkdir: mkdirOwn,
      stat: statNoted,
      utimes: utimesNoted,
      rmdir: rmdirUnlessKept,
    } as unknown as typeof fs;
  }

  /** Whether the lock directory still carries our latest mtime, fresh enough that nobody can
   * be taking it over as stale right now. */
  async stillOurs(): Promise<boolean> {
    return (
      (await this.#carriesOurs(this.lockPath)) && Date.now() - (this.#mtimeMs ?? 0) < this.safeAgeMs
    );
  }

  /**
   * Release the lock: proper-lockfile's `unlock` (called either way, so that it stops refreshing
   * the lock) removes the directory whoever holds it now, so only when it is surely ours — not
   * `takenOver` (its refresh saw another's mtime, or the holder stalled) and fresh; kept by that
   * look, it may still be ours after a stall, not a takeover (removeIfOurs).
   */
  async release(unlock: () => Promise<void>, takenOver: boolean): Promise<void> {
    this.onConfirmed = undefined;
    this.removeOnRelease = !takenOver && (await this.stillOurs());
    await unlock().catch(() => {});
    if (!this.removeOnRelease) await this.removeIfOurs();
  }

  /**
   * Remove the lock directory if it still carries our latest mtime, however old — a holder that
   * stalled (a loaded machine, SIGSTOP) and was not taken over. A look alone cannot tell: a
   * worker may be taking the stale lock over between it and the removal. So it is moved aside
   * first (one rename: a taker then finds it gone and makes its own) and removed once the
   * moved directory is seen to be ours; if it is not (a takeover came between the look and the
   * move), it is put back. Left behind, such a lock kept the pane's next job waiting until it
   * went stale, and stayed on disk while nobody came (issue 65's load test under CI).
   */
  async removeIfOurs(): Promise<void> {
    if (!(await this.#carriesOurs(this.lockPath))) return;
    const aside = `${this.lockPath}.${thisProcess.pid}.released`;
    try {
      await rename(this.lockPath, aside);
    } catch {
      return;
    }
    if (await this.#carriesOurs(aside)) await rmdir(aside).catch(() => {});
    else await rename(aside, this.lockPath).catch(() => rmdir(aside).catch(() => {}));
  }

  /** Whether the directory at `path` carries the mtime we last set. Within a second:
   * filesystems with second precision round it; a taker's is its own now, seconds later. */
  async #carriesOurs(path: string): Promise<boolean> {
    if (this.#mtimeMs === undefined) return false;
    try {
      return Math.abs((await stat(path)).mtimeMs - this.#mtimeMs) < 1_000;
    } catch {
      return false;
    }
  }
}
