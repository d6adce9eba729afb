import {type Blocked, blockedReason} from '../agents/dialogs.js';
import {type Clock, sleepOrWake} from '../base/clock.js';
import {NudgeError} from '../base/errors.js';
import {watchQueue} from '../locks/queue-watch.js';
import type {JobOutcome} from './events.js';
import {type ShownState, shownReceipt} from './liveness.js';
import {believedRecord} from './lost.js';
import {height, type LadderRung, type Receipt, reachedOf} from './receipts.js';
import type {JobEnding, JobRecord} from './record.js';
import {isTerminal, type TerminalState} from './states.js';
import type {JobHandle} from './store.js';

/**
 * A job followed to its end from outside its worker (`submit --wait`, `ask`), and its outcome
 * read from its ended record — here, or from another host's status.
 */

/** How long between looks at a followed job's record when no write of it wakes the look. */
const FOLLOW_BACKSTOP_MS = 1_000;

/**
 * Follow the job its worker runs until it has ended (or is blocked on a dialog), woken by each write of its record (a
 * rename in its folder), looked at every second besides; a worker that died ends it `failed`,
 * as far as the caller is concerned. Interrupted (Ctrl-C, SIGTERM), only the waiting stops, in
 * one sentence.
 */
export function followToEnd(
  handle: JobHandle,
  ctx: {signal: AbortSignal; clock: Clock},
): Promise<JobOutcome> {
  return follow(handle, ctx, Number.POSITIVE_INFINITY, ({record, shown}) => {
    if (isTerminal(shown)) return outcomeOfRecord(record, shown);
    // A dialog up after its text went in: the caller hears `blocked` now (exit 3), and the
    // job goes on once the person answers it.
    return record.blocked ? blockedGoingOn(record.blocked, handle.id) : undefined;
  });
}

/**
 * Look at a job's record until `look` answers or `timeoutMs` passes (then it is asked once
 * more, `late`), woken by each write of the record (a rename in its folder), every second
 * besides. Interrupted (Ctrl-C, SIGTERM), only the waiting stops, in one sentence.
 */
async function follow<T>(
  handle: JobHandle,
  ctx: {signal: AbortSignal; clock: Clock},
  timeoutMs: number,
  look: (at: {record: JobRecord; shown: ShownState; nowMs: number}, late: boolean) => T | undefined,
): Promise<T> {
  const deadline = ctx.clock.now() + timeoutMs;
  const watch = watchQueue(handle.dir);
  try {
    for (;;) {
      const nowMs = ctx.clock.wall();
      const {record, shown} = await believedRecord(handle, nowMs);
      const left = deadline - ctx.clock.now();
      const answer = look({record, shown, nowMs}, left <= 0);
      if (answer !== undefined) return answer;
      // Aborted, the sleep rejects and ends the race.
      const wake = watch && !watch.broken ? () => watch.next : undefined;
      const backstop = Math.min(FOLLOW_BACKSTOP_MS, Math.max(0, left));
      await sleepOrWake(ctx.clock, backstop, ctx.signal, wake).catch(() => {});
      watch?.reset();
      if (ctx.signal.aborted)
        throw new NudgeError(
          'interrupted',
          `Stopped waiting; job ${handle.id} goes on (nudge status ${handle.id}).`,
        );
    }
  } finally {
    watch?.close();
  }
}

/** The outcome --wait returns of a job blocked on a dialog that goes on once it is answered. */
function blockedGoingOn(blocked: Blocked, id: string): JobOutcome {
  const then = `job ${id} goes on once it is answered (nudge status ${id})`;
  return {state: 'blocked', blocked, reason: blockedReason(blocked, then), notified: false};
}

/** What of an ended record --wait returns, here or from another host (`by` is the record's
 * own). */
const OUTCOME_FIELDS = [
  'reason',
  'waitedMs',
  'exitCode',
  'match',
  'delivery',
  'noticeDelivery',
  'noticeVia',
  'noticeDoors',
  'verdict',
  'settledBy',
  'noticeHeld',
  'blocked',
  'noticeDue',
  'cleared',
] as const satisfies ReadonlyArray<keyof JobEnding>;

/** A job's outcome, as --wait returns it, from its ended record (or its status, read on
 * another host): a job that was lost failed, as far as the caller is concerned. */
export function outcomeOfRecord(
  ended: JobEnding & {pid?: number | undefined},
  state: TerminalState,
): JobOutcome {
  if (state === 'lost')
    return {
      state: 'failed',
      notified: false,
      reason: `its worker (pid ${ended.pid ?? '?'}) is gone; it never finished`,
    };
  const kept = Object.fromEntries(
    OUTCOME_FIELDS.flatMap((k) => (ended[k] === undefined ? [] : [[k, ended[k]]])),
  );
  return {...kept, state, notified: ended.notified ?? false};
}

/** How a wait for a rung of a job's receipts ended. */
export interface RungFollowed {
  /** `reached`: the message got there (or past it); `ended`: the job ended short of it;
   * `timeout`: neither before the deadline. */
  status: 'reached' | 'ended' | 'timeout';
  receipt: Receipt | undefined;
  state: ShownState;
}

/**
 * Follow a job until its message reaches `rung` of its receipts, it ends short of it, or
 * `timeoutMs` passes — woken by each write of its record, looked at every second besides.
 * Interrupted (Ctrl-C, SIGTERM), only the waiting stops, in one sentence.
 */
export function followToRung(
  handle: JobHandle,
  rung: LadderRung,
  timeoutMs: number,
  ctx: {signal: AbortSignal; clock: Clock},
): Promise<RungFollowed> {
  return follow(handle, ctx, timeoutMs, ({record, shown, nowMs}, late) => {
    const receipt = shownReceipt(record, shown, nowMs);
    const at = {receipt, state: shown};
    if (height(reachedOf(receipt)) >= height(rung)) return {status: 'reached' as const, ...at};
    if (isTerminal(shown)) return {status: 'ended' as const, ...at};
    return late ? {status: 'timeout' as const, ...at} : undefined;
  });
}
