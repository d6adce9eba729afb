import {blockedIn, blockedReason} from '../agents/dialogs.js';
import type {Profile} from '../agents/profile.js';
import {describeError, isAbortError} from '../base/errors.js';
import {describeStall} from '../detect/stall.js';
import type {JobOutcome} from '../jobs/events.js';
import {type JobRequest, textToType} from '../jobs/request.js';
import type {Change} from '../notify/tell.js';
import type {Awaited as AwaitedEnd} from '../pane/await-done.js';
import {
  type Delivery,
  NotDelivered,
  PaneBlocked,
  PaneFailure,
  ServerGone,
} from '../pane/failures.js';
import {leaveLine} from '../pane/half-line.js';
import type {PaneIo} from '../pane/keys.js';
import {FenceLost} from '../tmux/fence.js';
import {PaneInMode} from '../tmux/mode-guard.js';
import {TmuxCommandError} from '../tmux/runner.js';
import {PaneDied} from '../tmux/view.js';
import {stopCommand} from './stop-command.js';

/** Where a job stood when it stopped on an error. */
export interface Stopped {
  /** The state it was in (for messages: "Cancelled while waiting"). */
  phase: string;
  /** The pane lock held was lost (a stall longer than its stale time). */
  leaseLost: boolean;
  /** The job was cancelled (SIGTERM from `nudge cancel`). */
  cancelled: boolean;
  /** Characters typed of the text, and its length (a job typing its text). */
  typed?: number | undefined;
  length?: number | undefined;
  /** A job cancelled while typing: whether what it typed was cleared (false: a program nudge
   * cannot clear; the next line waits for the person, src/pane/half-line.ts). */
  cleared?: boolean | undefined;
  /** A job cancelled while its command ran: how it was stopped (src/job-worker/stop-command.ts). */
  interrupted?: string | undefined;
  /** The pane the job was at, and its server's socket (for messages). */
  pane: string;
  socketPath: string;
}

/** The ending of a job stopped by `error`: lost lock, cancelled, or failed with one sentence. */
export function endingOf(error: unknown, at: Stopped): JobOutcome {
  const {phase} = at;
  // A key refused by tmux because the pane is marked another job's is the same loss.
  if (at.leaseLost || error instanceof FenceLost) {
    return {
      state: 'failed',
      reason: `Stopped while ${phase}: the pane lock was lost (the worker stalled longer than the lock's stale time, e.g. a suspended machine), so another job may own the pane now.`,
      notified: false,
    };
  }
  // `nudge cancel` signals the worker's whole process group, so a tmux call in flight can fail
  // before the abort is seen: once cancelled, any error means "cancelled".
  if (isAbortError(error) || at.cancelled) {
    const progress =
      phase === 'typing' ? ` after typing ${at.typed} of ${at.length} characters` : '';
    const left =
      at.cleared === false
        ? `; they were left in the input line (nudge cannot clear it there), and the pane's next line waits until a person clears or sends it`
        : '';
    return {
      state: 'cancelled',
      reason: `Cancelled while ${phase}${progress}${left}${at.interrupted ? `; ${at.interrupted}` : ''}.`,
      notified: false,
      ...(at.cleared === undefined ? {} : {cleared: at.cleared}),
    };
  }
  // The pane's program exited and remain-on-exit keeps the pane (issue 62): the wait ends at
  // once with its status (`--until exit` passes it on), not at the timeout.
  if (error instanceof PaneDied) {
    const said = `${error.message}.`;
    return error.status === 0
      ? {state: 'done', exitCode: 0, reason: said, notified: false}
      : {state: 'failed', reason: said, notified: false, ...exitOf(error.status)};
  }
  if (error instanceof PaneBlocked) {
    const blocked = blockedIn(error.pane, error.dialog);
    return {state: 'blocked', blocked, reason: blockedReason(blocked), notified: false};
  }
  // The server is gone (killed, a reboot): the work went with it, and every job of it is lost.
  if (
    (error instanceof TmuxCommandError && error.kind === 'no-server') ||
    error instanceof ServerGone
  )
    return {state: 'lost', reason: failureReason(error, at), notified: false};
  const failed: JobOutcome = {state: 'failed', reason: failureReason(error, at), notified: false};
  if (error instanceof NotDelivered) failed.delivery = error.delivery;
  return failed;
}

function failureReason(error: unknown, at: Stopped): string {
  const {phase, pane, socketPath} = at;
  if (error instanceof PaneFailure) return error.message;
  // Copy mode entered again while nudge cleared its own prefix: nothing more is typed.
  if (error instanceof PaneInMode)
    return `The pane ${error.pane} entered copy mode while ${phase} and nudge could not make its line whole again; nothing more was typed and Enter was not pressed.`;
  if (error instanceof TmuxCommandError) {
    switch (error.kind) {
      case 'no-target':
        // The whole text out: it ran, and what it ran may have ended the pane's program
        // (`exit`, `kill -9 $$`) — not a pane closed under the typing.
        return phase === 'typing' && at.length !== undefined && (at.typed ?? 0) >= at.length
          ? `Pane ${pane} is gone: its program ended just after the whole text was typed (the text may have run: a command that ends its shell, such as exit or kill $$, closes the pane).`
          : `Pane ${pane} is gone (closed while ${phase}).`;
      case 'no-server':
        return `The tmux server at ${socketPath} stopped while ${phase}.`;
      case 'no-tmux':
        return 'tmux is no longer on PATH.';
      default:
        return `tmux failed while ${phase}: ${error.message}`;
    }
  }
  return `Internal error while ${phase}: ${describeError(error)}`;
}

/** What a person is told of an ending (`--notify`); nothing for a cancel (a person did it). */
export function changeOfEnding(outcome: JobOutcome): Change | undefined {
  if (outcome.state === 'cancelled') return undefined;
  const b = outcome.blocked;
  return {
    event: outcome.state,
    state: outcome.state,
    ...(outcome.reason ? {reason: outcome.reason} : {}),
    ...(b ? {pane: b.pane, kind: b.kind, question: b.question} : {}),
    ...(b?.resetsAt ? {resetsAt: b.resetsAt} : {}),
  };
}

/** A cancel nobody asked for through nudge (no `nudge cancel`, no `queue drop`): the worker
 * was stopped from outside (a shutdown's SIGTERM, a kill). Said so in the reason. */
export function stoppedFromOutside<O extends {reason?: string | undefined}>(outcome: O): O {
  const why = 'not by nudge cancel: a signal from outside (the machine shutting down, or a kill)';
  return {...outcome, reason: `${(outcome.reason ?? 'Cancelled.').replace(/\.$/, '')}, ${why}.`};
}

/** What `--until exit`'s status makes of a wait that ended: the status, and a non-zero one
 * ends the job failed (the command failed; its notice still goes). Nothing without one. */
export function exitEnding(exitCode: number | undefined): {
  exitCode?: number;
  state?: 'failed';
  reason?: string;
} {
  if (exitCode === undefined) return {};
  if (exitCode === 0) return {exitCode};
  return {exitCode, state: 'failed', reason: `The command exited with status ${exitCode}.`};
}

function exitOf(status: number | undefined): {exitCode?: number} {
  return status === undefined ? {} : {exitCode: status};
}

/** What the wait found, carried to the notice and the ending. */
export type Waited = Omit<JobOutcome, 'notified'> & {waitedMs: number};

/** The event a wait's end is recorded as, by its status. */
const WAIT_EVENTS = {
  done: 'condition-met',
  timeout: 'wait-timeout',
  failed: 'fail-pattern',
} as const;

/** A wait that ended with no dialog: its event and what it found, and the job's ending so far —
 * failed on a fail pattern (`failed`: final), else done or a timeout (a stall it cancelled
 * says so). */
export function waitedOf(done: AwaitedEnd, delivery: Delivery | undefined) {
  const {status, waitedMs, checks, exitCode, match, failed, why: verdict} = done;
  const {followedBy, settledBy} = done;
  const event = WAIT_EVENTS[status === 'blocked' ? 'done' : status];
  const found = {waitedMs, checks, exitCode, match, verdict, followedBy, settledBy};
  if (failed) {
    const reason = `The fail pattern /${failed.pattern}/ matched: ${failed.line.trim()}`;
    const waited: Waited = {state: 'failed', waitedMs, delivery, match, reason};
    return {event, found, failed: true, waited};
  }
  const waited: Waited = {
    state: status === 'done' ? 'done' : 'timeout',
    waitedMs,
    delivery,
    verdict,
    settledBy,
    ...(done.stalled
      ? {reason: `Stalled (${describeStall(done.stalled)}): --on-stall cancel ended the wait.`}
      : {}),
  };
  Object.assign(waited, match === undefined ? {} : {match}, exitEnding(exitCode));
  return {event, found, failed: false, waited};
}

/**
 * A job's ending from the error that stopped it, in `at.phase`: a cancel while typing clears
 * the half-typed line (`cleared`), one while a shell's command runs interrupts it
 * (`interrupted`).
 */
export async function stoppedEnding(
  error: unknown,
  io: PaneIo,
  deps: Parameters<typeof stopCommand>[1],
  at: {
    phase: Stopped['phase'];
    cancelled: boolean;
    profile: Profile | undefined;
    request: JobRequest;
    typed: number;
    running: {panePid: number} | undefined;
    leaseLost: boolean;
    notifyPane: string;
  },
): Promise<JobOutcome> {
  const {phase, cancelled, profile, request, typed} = at;
  const {pane, jobId} = request;
  const stopped = (isAbortError(error) || cancelled) && phase === 'typing' && typed > 0;
  const cleared = stopped && profile ? await leaveLine(io, pane, jobId, profile, typed) : undefined;
  const run = cancelled && phase === 'waiting' ? at.running : undefined;
  const interrupted =
    run && (await stopCommand(io, deps, pane, run.panePid).catch(() => undefined));
  return endingOf(error, {
    phase,
    leaseLost: at.leaseLost,
    cancelled,
    typed,
    length: [...textToType(request)].length,
    cleared,
    interrupted,
    pane: phase === 'notifying' ? at.notifyPane : pane,
    socketPath: request.server.socketPath,
  });
}
