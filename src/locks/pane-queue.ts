/**
 * A pane's queue as data: its entries, their order, and the person's changes to it (`nudge
 * queue move`). Pure: src/locks/pane-lock.ts reads and writes the files.
 *
 * The order is the submission order (a job id starts with its creation time in base 36)
 * unless the person moved a job: then its entry carries a `rank` between its new neighbours'.
 * The job that holds the pane (`taken`) comes first whatever its rank; a dropped job is no
 * longer in the queue for anyone but its own worker, which ends without typing.
 */
import {jobIdTime} from '../base/paths.js';
export interface QueueEntry {
  jobId: string;
  /** The worker's pid, once it runs (the front end writes the entry before it exists). */
  pid?: number;
  createdAt: string;
  /** Where the person put it (`nudge queue move`); absent: where its id puts it. */
  rank?: number;
  /** Its worker took the pane's lock: it types now, and can no longer be moved, edited or
   * dropped. */
  taken?: true;
  /** `nudge queue drop` took it out: its worker ends `cancelled` without typing. */
  dropped?: true;
}

/** Where a job's entry sorts by default: the creation time its id begins with. */
export function rankOf(entry: Pick<QueueEntry, 'jobId' | 'rank'>): number {
  if (entry.rank !== undefined) return entry.rank;
  const time = jobIdTime(entry.jobId);
  return Number.isFinite(time) ? time : 0;
}

/** The entries in queue order: the one typing first, then by rank, then by id. */
export function inQueueOrder<E extends QueueEntry>(entries: readonly E[]): E[] {
  return [...entries].sort(
    (a, b) =>
      Number(b.taken === true) - Number(a.taken === true) ||
      rankOf(a) - rankOf(b) ||
      (a.jobId < b.jobId ? -1 : a.jobId > b.jobId ? 1 : 0),
  );
}

/** Where `nudge queue move` puts a job. */
export type QueuePlace = {first: true} | {before: string} | {after: string};

/** Why a move cannot be made, in one sentence. */
export type MoveRefusal = string;

/**
 * The ranks that put `jobId` at `place` among the waiting entries (those not taken or
 * dropped): usually its own alone (between its new neighbours'), every waiting entry's when
 * two neighbours share a rank; or why it cannot go there (the job or its anchor is not
 * waiting, or the anchor is the job itself).
 */
export function ranksFor(
  entries: readonly QueueEntry[],
  jobId: string,
  place: QueuePlace,
): {ok: true; ranks: Map<string, number>} | {ok: false; why: MoveRefusal} {
  const waiting = inQueueOrder(entries.filter((e) => !e.taken && !e.dropped));
  const moving = entries.find((e) => e.jobId === jobId);
  if (!moving || moving.dropped) return {ok: false, why: `Job ${jobId} is not in the queue.`};
  if (moving.taken)
    return {ok: false, why: `Job ${jobId} has taken the pane already; it can no longer move.`};
  const others = waiting.filter((e) => e.jobId !== jobId);
  let at = 0;
  if (!('first' in place)) {
    const anchorId = 'before' in place ? place.before : place.after;
    if (anchorId === jobId) return {ok: false, why: `Job ${jobId} cannot move next to itself.`};
    const found = others.findIndex((e) => e.jobId === anchorId);
    if (found < 0) {
      const typing = entries.some((e) => e.jobId === anchorId && e.taken);
      return {
        ok: false,
        why: typing
          ? `Job ${anchorId} has taken the pane already; place ${jobId} with --first instead.`
          : `Job ${anchorId} is not waiting in this pane's queue.`,
      };
    }
    at = 'before' in place ? found : found + 1;
  }
  const before = others[at - 1];
  const after = others[at];
  const low = before ? rankOf(before) : after ? rankOf(after) - 2 : rankOf(moving) - 1;
  const high = after ? rankOf(after) : low + 2;
  const mid = (low + high) / 2;
  if (low < mid && mid < high) return {ok: true, ranks: new Map([[jobId, mid]])};
  // Two neighbours share a rank (made in the same millisecond): number them all anew, in the
  // new order, within the span they had.
  const order = [...others.slice(0, at), moving, ...others.slice(at)];
  const base = Math.min(...order.map(rankOf));
  return {ok: true, ranks: new Map(order.map((e, i) => [e.jobId, base + i / order.length]))};
}
