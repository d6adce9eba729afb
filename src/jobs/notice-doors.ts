import type {Via} from '../agents/doors.js';
import type {Profile} from '../agents/profile.js';
import type {DoorAttempt, Doors, DoorTarget} from '../doors/ladder.js';
import type {Delivery} from '../pane/failures.js';
import type {JobOutcome} from './events.js';
import type {NoticeVia} from './record.js';
import type {JobRecorder} from './recorder.js';

/** What the doors did with a notice: the door that delivered it, if one did, and why each
 * door tried before typing did not (`claude-inbox: …`). */
export interface ThroughDoors {
  delivered?: {door: NoticeVia; delivery: Delivery};
  tried: string[];
}

/**
 * Hand the notice to the profile's doors in order (none with `--via keys`, none for a
 * profile without doors); each attempt is recorded as a `door` event.
 */
export async function throughDoors(
  deps: {doors: Doors; recorder: JobRecorder},
  profile: Profile,
  target: DoorTarget,
  notice: string,
  via: Via | undefined,
  signal: AbortSignal,
): Promise<ThroughDoors> {
  const specs = profile.doors ?? [];
  if ((via ?? 'auto') === 'keys' || specs.length === 0) return {tried: []};
  const attempts: DoorAttempt[] = await deps.doors.deliver(specs, target, notice, signal);
  for (const attempt of attempts)
    await deps.recorder.event('door', {...attempt, pane: target.pane});
  const last = attempts.at(-1);
  const tried = attempts
    .filter((a) => a.result !== 'delivered')
    .map((a) => `${a.door}: ${a.result === 'not-applicable' ? '' : `${a.result}, `}${a.why ?? ''}`);
  return last?.result === 'delivered'
    ? {delivered: {door: last.door, delivery: last.delivery ?? 'submitted'}, tried}
    : {tried};
}

/** The ending of a job whose notice no door took under `--via native`: nothing is typed. */
export function nativeFailure(
  waited: {state: string},
  profile: Profile,
  tried: readonly string[],
): Pick<JobOutcome, 'state' | 'reason'> {
  const why = tried.length ? tried.join('; ') : `${profile.name} has no door`;
  return {
    state: 'failed',
    reason: `The work ended (${waited.state}), but no door took the notice (${why}); nothing was typed (--via native).`,
  };
}
