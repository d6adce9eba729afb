import {mkdir, readFile, rm, stat, writeFile} from 'node:fs/promises';
import {join} from 'node:path';
import {type Clock, realClock} from '../base/clock.js';
import {DIR_MODE, FILE_MODE, layout} from '../base/paths.js';
import {isPidAlive} from '../process/identity.js';
import type {ServerRef} from '../tmux/server.js';
import {paneKey} from './key.js';

/**
 * One tmux server's "control clients come and go one at a time" mutex, across workers.
 *
 * Why: tmux 3.3a sends some notifications (`%client-session-changed` when a client attaches,
 * `%client-detached` when one leaves, `%pane-mode-changed`, `%paste-buffer-changed`, ...)
 * to every control client, including one that is still introducing itself to the server and
 * has no control state yet, and crashes on it (control-notify.c; newer tmux checks
 * `control_state != NULL`). The whole server goes, with every session. Reproduced here: 20 to
 * 100 control clients attaching and leaving at once brought a 3.3a server down in most runs;
 * so did the benchmark's 50 concurrent jobs, once in three runs. Our workers therefore start
 * (until attached) and stop (until gone) their control clients one at a time per server, and
 * run the commands that make tmux broadcast under the same mutex. What other programs do at
 * that moment (a terminal client detaching while our client starts) we cannot order.
 *
 * The mutex is a directory created atomically under the state dir's locks/, holding the
 * owner's pid; a holder that died (or never wrote its pid) is detected and cleared.
 */
export interface ControlMutex {
  /** Run `section` holding the mutex; fails (without running it) after `waitMs`. */
  run<T>(section: () => Promise<T>): Promise<T>;
}

/** How long a worker waits for its turn before giving up (the caller then spawns instead). */
const WAIT_MS = 15_000;
/** Polling between tries: the sections last milliseconds, so start short, then back off
 * (fifty workers starting at once would otherwise spend their CPU asking). */
const POLL_FIRST_MS = 5;
const POLL_MAX_MS = 50;
/** A mutex directory without an owner file this old is a leftover of a crashed creator. */
// Generous: under load (a hundred workers starting on two cores) the creator can take
// seconds between its mkdir and writing its pid.
const OWNERLESS_STALE_MS = 10_000;
/** No section holds it this long (an attach times out after 10 s); older means stuck. */
const HELD_STALE_MS = 30_000;

/** The mutex could not be taken in time. */
export class ControlMutexTimeout extends Error {
  override name = 'ControlMutexTimeout';
}

/** Where the control mutex of one tmux server lives (keyed like pane locks). */
export function controlMutexPath(stateDir: string, server: ServerRef): string {
  return join(layout.locksDir(stateDir), `${paneKey({...server, pane: 'control'})}.control`);
}

/** The control mutex of one tmux server (its socket path and pid, like pane locks). */
export function controlMutexFor(
  stateDir: string,
  server: ServerRef,
  deps: {pid: number; clock?: Clock; waitMs?: number},
): ControlMutex {
  const dir = controlMutexPath(stateDir, server);
  const ownerFile = join(dir, 'owner');
  const clock = deps.clock ?? realClock;
  const waitMs = deps.waitMs ?? WAIT_MS;

  /** Whether the current holder is gone (dead pid, no owner file for long, held too long). */
  const isStale = async (): Promise<boolean> => {
    let st: Awaited<ReturnType<typeof stat>>;
    let text: string | undefined;
    try {
      [text, st] = await Promise.all([
        readFile(ownerFile, 'utf8').catch(() => undefined),
        stat(dir),
      ]);
    } catch {
      return false; // gone: the next mkdir will tell
    }
    const age = clock.wall() - st.mtimeMs;
    // No owner file yet, or one read between its creation and the write of the pid (empty):
    // the creator is between its two steps. Only time tells whether it died there. (Taking
    // an empty file for a dead owner let two workers hold the mutex at once, and brought a
    // tmux 3.3a server down under load.)
    const pid = text === undefined ? Number.NaN : Number.parseInt(text, 10);
    if (!Number.isSafeInteger(pid)) return age > OWNERLESS_STALE_MS;
    if (pid === deps.pid) return false;
    return !isPidAlive(pid) || age > HELD_STALE_MS;
  };

  const acquire = async (): Promise<void> => {
    const deadline = clock.now() + waitMs;
    let pollMs = POLL_FIRST_MS;
    await mkdir(layout.locksDir(stateDir), {recursive: true, mode: DIR_MODE});
    for (;;) {
      try {
        await mkdir(dir, {mode: DIR_MODE});
        await writeFile(ownerFile, String(deps.pid), {mode: FILE_MODE});
        return;
      } catch (error) {
        const code = (error as NodeJS.ErrnoException).code;
        // ENOENT: another worker judged our fresh directory stale and removed it before we
        // wrote our pid: we do not hold it; try again.
        if (code !== 'EEXIST' && code !== 'ENOENT') throw error;
      }
      if (await isStale()) {
        await rm(dir, {recursive: true, force: true});
        continue;
      }
      if (clock.now() >= deadline) {
        throw new ControlMutexTimeout(
          `another worker held the control-client mutex ${dir} for ${waitMs} ms`,
        );
      }
      // Jittered, so waiters that started together do not keep colliding.
      await clock.sleep(pollMs * (0.5 + Math.random()));
      pollMs = Math.min(POLL_MAX_MS, pollMs * 2);
    }
  };

  return {
    async run(section) {
      await acquire();
      try {
        return await section();
      } finally {
        await rm(dir, {recursive: true, force: true});
      }
    },
  };
}
