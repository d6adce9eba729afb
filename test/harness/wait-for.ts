import {setTimeout as sleep} from 'node:timers/promises';

/**
 * Poll `probe` until it returns something other than undefined, or fail after `timeoutMs`
 * with a message that shows what was last seen (`describe`). The Error is built up front so
 * its stack points at the test, not at this helper. With `signal`, it gives up (rejects) once
 * that aborts: a wait started for a test ends with it.
 */
export async function waitFor<T>(
  what: string,
  probe: () => Promise<T | undefined>,
  opts: {
    timeoutMs?: number;
    intervalMs?: number;
    describe?: () => Promise<string> | string;
    signal?: AbortSignal;
  } = {},
): Promise<T> {
  const failure = new Error(`Timed out waiting for ${what}`);
  const deadline = Date.now() + (opts.timeoutMs ?? 30_000);
  for (;;) {
    opts.signal?.throwIfAborted();
    const value = await probe();
    if (value !== undefined) return value;
    if (Date.now() >= deadline) {
      const seen = opts.describe ? await opts.describe() : '';
      failure.message += seen ? `; last seen:\n${seen}` : '';
      throw failure;
    }
    await sleep(opts.intervalMs ?? 50);
  }
}
