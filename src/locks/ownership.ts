import * as fs from 'node:fs';
import {stat} from 'node:fs/promises';
import {DIR_MODE} from '../base/paths.js';

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
    if (this.#mtimeMs === undefined) return false;
    try {
      const st = await stat(this.lockPath);
      // Within a second: filesystems with second precision round the mtime we set.
      return (
        Math.abs(st.mtimeMs - this.#mtimeMs) < 1_000 && Date.now() - this.#mtimeMs < this.safeAgeMs
      );
    } catch {
      return false;
    }
  }
}
