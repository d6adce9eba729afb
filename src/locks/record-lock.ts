/**
 * Run `fn` holding `<target>.lock`: a short lock for a read-modify-write of one record that
 * several processes change (a watcher's record: the front end, its cycle worker, `watch
 * stop`). Waits up to ~30 s for another holder; a holder that died leaves a lock that goes
 * stale after `staleMs`. proper-lockfile is loaded here, only by the commands that need it.
 */
export async function withRecordLock<T>(
  target: string,
  staleMs: number,
  fn: () => Promise<T>,
): Promise<T> {
  const {default: lockfile} = await import('proper-lockfile');
  const release = await lockfile.lock(target, {
    realpath: false,
    lockfilePath: `${target}.lock`,
    stale: staleMs,
    retries: {retries: 300, minTimeout: 10, maxTimeout: 100, factor: 1.5},
  });
  try {
    return await fn();
  } finally {
    await release().catch(() => {});
  }
}
