import type {TerminalState} from './states.js';

/**
 * A message's receipts (issue 66): one ladder for every send, through a door or typed keys.
 * A job climbs it as its worker records events — `accepted` (recorded, its worker started) →
 * `held` (behind other jobs, a person's draft, a program, a dialog) → `delivered` (a door took
 * it, or the keys were read back at the prompt) → `turn-started` (the agent showed it at work,
 * a shell took the line) → `turn-ended` (the wait's condition held: for an agent, its turn
 * ended and it settled) — and never climbs down. A job that ends short of `turn-ended` ends on
 * one of the other rungs, each with why: `refused` (the program or every door said no),
 * `expired` (its --timeout passed), `undeliverable` (its pane, program or server went away, or
 * a dialog nobody answered), `cancelled` (a person's cancel).
 */
export const LADDER = ['accepted', 'held', 'delivered', 'turn-started', 'turn-ended'] as const;
export type LadderRung = (typeof LADDER)[number];
export const ENDING_RUNGS = ['refused', 'expired', 'undeliverable', 'cancelled'] as const;
export type EndingRung = (typeof ENDING_RUNGS)[number];
export type Rung = LadderRung | EndingRung;
export const RUNGS: readonly Rung[] = [...LADDER, ...ENDING_RUNGS];

/** Where a message stands, as its record keeps it (state.json's `receipt`). */
export interface Receipt {
  rung: Rung;
  why: string;
  /** When it got there (ISO). */
  at: string;
  /** An ending rung: the last rung of the ladder it had reached. */
  reached?: LadderRung;
}

/** The rungs a caller can wait for (`nudge wait --job J --until RUNG`). */
export const WAITABLE_RUNGS = ['delivered', 'turn-started', 'turn-ended'] as const;
export type WaitableRung = (typeof WAITABLE_RUNGS)[number];

export function isEndingRung(rung: string): rung is EndingRung {
  return (ENDING_RUNGS as readonly string[]).includes(rung);
}

/** How far up the ladder `rung` is (an ending rung: past the top). */
export function height(rung: Rung): number {
  const i = (LADDER as readonly string[]).indexOf(rung);
  return i === -1 ? LADDER.length : i;
}

/** The ladder's rung a receipt has reached (an ending rung: the one it reached before). */
export function reachedOf(receipt: Receipt | undefined): LadderRung {
  if (!receipt) return 'accepted';
  return isEndingRung(receipt.rung) ? (receipt.reached ?? 'accepted') : receipt.rung;
}

/** A rung climbed, and why. */
export type Step = {rung: LadderRung; why: string} | undefined;

/** The receipt after `step` from `now`, or undefined when it climbs nothing (a rung is
 * recorded once; an ending rung is final). */
export function climb(now: Receipt | undefined, step: Step, at: string): Receipt | undefined {
  if (!step) return undefined;
  if (now && (isEndingRung(now.rung) || height(step.rung) <= height(now.rung))) return undefined;
  return {rung: step.rung, why: step.why, at};
}

/** What of a job's ending says which ending rung (JobEnding's fields). */
export interface EndingFacts {
  reason?: string | undefined;
  verdict?: string | undefined;
  delivery?: string | undefined;
  refused?: boolean | undefined;
}

/**
 * The receipt a job ends with, from the one it had and its ending — written by the one writer
 * of endings (JobHandle.end), whoever ends the job. Undefined: it stands (done, or a failure
 * found after its turn ended: the turn did end).
 */
export function finalReceipt(
  now: Receipt | undefined,
  state: TerminalState,
  ending: EndingFacts,
  at: string,
): Receipt | undefined {
  if (now && isEndingRung(now.rung)) return undefined;
  const reached = reachedOf(now);
  if (state === 'done' || reached === 'turn-ended') return undefined;
  const reason = ending.reason ?? ending.verdict;
  const end = (rung: EndingRung, why: string): Receipt => ({rung, why, at, reached});
  switch (state) {
    case 'timeout':
      return end(
        'expired',
        height(reached) < height('delivered')
          ? `not delivered before its --timeout${reason ? `: ${reason}` : ''}`
          : `its turn did not end before its --timeout${reason ? `: ${reason}` : ''}`,
      );
    case 'cancelled':
      return end('cancelled', reason ?? 'cancelled');
    default:
      if (ending.delivery === 'not-submitted' || ending.refused)
        return end('refused', reason ?? 'the program did not take it');
      return end('undeliverable', reason ?? `the job ended ${state}`);
  }
}

/** Whether a message is a dead letter: it never got through (refused, undeliverable, or
 * expired before it was delivered), and no resend has taken it on. */
export function isUndelivered(receipt: Receipt | undefined, resentAs?: string): boolean {
  if (!receipt || resentAs) return false;
  if (receipt.rung === 'refused' || receipt.rung === 'undeliverable') return true;
  return receipt.rung === 'expired' && height(reachedOf(receipt)) < height('delivered');
}

/** One line of a receipt: `turn-started (the agent at work) 2.3s ago`-free form for lists. */
export function describeReceipt(r: Receipt): string {
  const after = isEndingRung(r.rung) && r.reached ? ` after ${r.reached}` : '';
  return `${r.rung}${after}: ${r.why}`;
}

/** A message's first receipt: its job recorded. */
export function acceptedAt(at: string): Receipt {
  return {rung: 'accepted', why: 'recorded', at};
}

/** What a `receipt` event of events.jsonl carries (its line has the time). */
export function receiptEvent({at: _at, ...rest}: Receipt): Omit<Receipt, 'at'> {
  return rest;
}
