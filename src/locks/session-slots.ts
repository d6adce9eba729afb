import {mkdir} from 'node:fs/promises';
import {join} from 'node:path';
import {realClock} from '../base/clock.js';
import {DIR_MODE} from '../base/paths.js';
import {thisProcess} from '../base/this-process.js';

/** A slot's lock not refreshed for this long belongs to a process that died: taken over. */
const SLOT_STALE_MS = 10_000;
const SLOT_UPDATE_MS = 2_500;
/** How often a caller that found every slot taken looks again (the first wait is shorter:
 * most sessions last tens of milliseconds). */
const FIRST_RETRY_MS = 15;
const MAX_RETRY_MS = 250;

/** A held slot: give it back when the session ends. */
export interface Slot {
  readonly index: number;
  release(): Promise<void>;
}

/** Every slot stayed taken until the deadline. */
export class SlotsBusy extends Error {
  constructor(readonly count: number) {
    super(`all ${count} slots stayed taken`);
    this.name = 'SlotsBusy';
  }
}

/**
 * A counting semaphore shared by every process of this user: `count` lock files
 * (`<dir>/<key>.slot<i>`, proper-lockfile, so a holder killed with -9 frees its slot within
 * seconds). `take` holds one slot until `release`; with all taken it looks again with a
 * growing pause, until `deadlineMs` passes (SlotsBusy) or `signal` fires.
 */
export async function takeSlot(
  dir: string,
  key: string,
  count: number,
  o: {deadlineMs: number; signal: AbortSignal; now?: () => number},
): Promise<Slot> {
  const now = o.now ?? realClock.now;
  await mkdir(dir, {recursive: true, mode: DIR_MODE});
  const {default: lockfile} = await import('proper-lockfile');
  // Start at a slot that depends on the process, so callers spread over the slots instead of
  // all trying slot 0 first.
  const first = thisProcess.pid % count;
  let pause = FIRST_RETRY_MS;
  for (;;) {
    o.signal.throwIfAborted();
    for (let n = 0; n < count; n++) {
      const index = (first + n) % count;
      const target = join(dir, `${key}.slot${index}`);
      try {
        const release = await lockfile.lock(target, {
          stale: SLOT_STALE_MS,
          update: SLOT_UPDATE_MS,
          realpath: false,
          lockfilePath: `${target}.lock`,
          retries: 0,
          // A slot taken over after a stall counts twice for a moment; nothing else breaks.
          onCompromised: () => {},
        });
        return {index, release: () => release().catch(() => {})};
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code !== 'ELOCKED') throw error;
      }
    }
    if (now() >= o.deadlineMs) throw new SlotsBusy(count);
    await new Promise((resolve) => setTimeout(resolve, pause + Math.random() * pause));
    pause = Math.min(MAX_RETRY_MS, pause * 2);
  }
}

/** Run `fn` holding the lock `<dir>/<name>.lock` (one process of this user at a time; a
 * holder that died frees it within seconds): what one connection's setup needs. */
export async function withLock<T>(dir: string, name: string, fn: () => Promise<T>): Promise<T> {
  await mkdir(dir, {recursive: true, mode: DIR_MODE});
  const {default: lockfile} = await import('proper-lockfile');
  const release = await lockfile.lock(join(dir, name), {
    stale: SLOT_STALE_MS,
    update: SLOT_UPDATE_MS,
    realpath: false,
    lockfilePath: join(dir, `${name}.lock`),
    retries: {retries: 1200, minTimeout: 25, maxTimeout: 100},
    onCompromised: () => {},
  });
  try {
    return await fn();
  } finally {
    await release().catch(() => {});
  }
}
