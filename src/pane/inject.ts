import {isAgent} from '../agents/profile.js';
import type {Clock} from '../base/clock.js';
import {formatDuration} from '../base/durations.js';
import {fenceLease} from '../locks/fenced-lease.js';
import {type PaneLock, paneLockFor, whyNoLock} from '../locks/pane-lock.js';
import {systemForeground} from '../process/foreground.js';
import type {ServerRef} from '../tmux/server.js';
import type {Tmux} from '../tmux/tmux.js';
import {deliver} from './deliver.js';
import type {Note} from './events.js';
import {type Delivery, PaneFailure} from './failures.js';
import type {PaneIo} from './keys.js';
import {paneMemory} from './memory.js';
import {type OwnLineWaits, ownLinePace, SHELL_PACE} from './own-line.js';
import {sendOwnLine} from './own-line-out.js';
import {preflight} from './preflight.js';
import {type RecognizeDeps, recognize} from './profile.js';

/** What typing one line into a pane needs. */
export interface InjectDeps extends RecognizeDeps, Omit<PaneIo, 'guard' | 'tmux'> {
  /** The pane's lock (its FIFO queue is shared with jobs). */
  lock: Pick<PaneLock, 'acquire'>;
  pid: number;
}

/** How the line goes. */
export interface InjectOptions {
  /** A queue ticket: sorts by time like job ids (a job id made now). */
  ticket: string;
  serverPid: number;
  /** Press Enter (false: leave the line in the input line). */
  enter: boolean;
  waits: OwnLineWaits;
  /** The line is the person's (a watcher's plan step, its assessor's answer): typed as it is.
   * Else nudge's own (a notice, a continue line): never run by a shell (sendOwnLine). */
  given?: boolean | undefined;
}

/** How long typing one line (with a draft wait) may take once the lock is held. */
const INJECT_BOUND_MS = 2 * 60_000;

/**
 * Type one line of nudge's own into a pane and confirm it arrived, as a job's notice goes:
 * queue for the pane's lock (holding it only while typing), check the pane, recognise its
 * program, leave its input modes, wait for a person's draft, type the line (to an agent as one
 * burst, then the profile's least pause before Enter) and read the screen back. Throws
 * PaneFailure (NotDelivered when the line did not reach the program as a prompt).
 */
export async function injectLine(
  deps: InjectDeps,
  pane: string,
  line: string,
  o: InjectOptions,
  signal: AbortSignal,
): Promise<Delivery> {
  const acquired = await deps.lock.acquire({
    jobId: o.ticket,
    pid: deps.pid,
    timeoutMs: o.waits.lockTimeoutMs,
    signal,
  });
  if (!acquired.ok) {
    const waited = formatDuration(o.waits.lockTimeoutMs);
    throw new PaneFailure(`${whyNoLock(acquired.error, pane, waited)}; nothing was typed.`);
  }
  const lease = await fenceLease(deps.tmux, acquired.value, pane, o.ticket);
  try {
    // Keys land only while the tmux server still marks the pane as ours (src/tmux/fence.ts).
    const io: PaneIo = {
      ...deps,
      tmux: deps.tmux.fenced(() => lease.fence),
      guard: () => lease.assertHeld(),
    };
    // Once the lock is held the line goes out whole: `signal` (a `watch pause` or `clear`)
    // stops only the wait for the lock, so a stop never leaves half a line in the input line.
    // The lease's loss (a stall) still stops it, and a bound keeps a stuck pane from holding it.
    const held = AbortSignal.any([lease.signal, AbortSignal.timeout(INJECT_BOUND_MS)]);
    const info = await preflight(io, pane, o.serverPid);
    const {profile} = await recognize(deps, pane, info, 'auto');
    const {delivery} = await (o.given ? deliver : sendOwnLine)(
      io,
      pane,
      line,
      profile,
      {
        enter: o.enter,
        ...ownLinePace(profile, line, SHELL_PACE),
        clear: !isAgent(profile),
        clearDraft: false,
        draftWaitMs: o.waits.draftWaitMs,
        busyWaitMs: INJECT_BOUND_MS,
        ownText: line,
        owner: o.ticket,
      },
      held,
    );
    return delivery;
  } finally {
    await lease.release();
  }
}

/** How an injector sends one line. */
export type Injector = (
  pane: string,
  line: string,
  enter: boolean,
  signal: AbortSignal,
  /** The person's line, typed as it is (InjectOptions.given). */
  given?: boolean,
) => Promise<Delivery>;

/**
 * injectLine wired to the real world for panes of one server: their locks and memories under
 * the state dir, the foreground from /proc. `ticket()` makes a queue ticket (a job id made
 * now). Used by the watcher's cycle and by `nudge run`'s notices.
 */
export function realInjector(o: {
  stateDir: string;
  server: ServerRef;
  tmux: Tmux;
  clock: Clock;
  pid: number;
  note: Note;
  ticket: () => string;
  waits: OwnLineWaits;
}): Injector {
  return (pane, line, enter, signal, given) =>
    injectLine(
      {
        tmux: o.tmux,
        clock: o.clock,
        note: o.note,
        foreground: systemForeground,
        paneMemory: paneMemory(o.stateDir, o.server),
        lock: paneLockFor(o.stateDir, {...o.server, pane}),
        pid: o.pid,
      },
      pane,
      line,
      {
        ticket: o.ticket(),
        serverPid: o.server.serverPid,
        enter,
        waits: o.waits,
        given,
      },
      signal,
    );
}
