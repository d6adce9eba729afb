import type {Via} from '../agents/doors.js';
import type {Profile} from '../agents/profile.js';
import type {DoorAttempt, Doors, DoorTarget} from '../doors/ladder.js';
import type {JobOutcome} from '../jobs/events.js';
import {heldBack, noticeFor, replyForNotice} from '../jobs/notice.js';
import type {NoticeVia} from '../jobs/record.js';
import type {JobRecorder} from '../jobs/recorder.js';
import {deliverOptionsOf, type JobRequest} from '../jobs/request.js';
import type {Delivery} from '../pane/failures.js';
import {NotDelivered} from '../pane/failures.js';
import type {PaneIo} from '../pane/keys.js';
import {ownLinePace} from '../pane/own-line.js';
import {sendOwnLine} from '../pane/own-line-out.js';
import {preflight} from '../pane/preflight.js';
import {recognize} from '../pane/profile.js';
import type {Waited} from './ending.js';
import type {JobDeps} from './job-deps.js';

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

/**
 * Send a job's notice to its pane: through the agent's doors (src/doors/), else typed — as a
 * comment, or shown as a tmux message, where a shell would run it (src/pane/shell-line.ts).
 * Resolves to the job's ending: the work's, notified, or failed when the notice did not reach
 * the agent (the work is done, but a notice lost makes the job failed, never done).
 */
export async function sendNotice<W extends {state: JobOutcome['state']}>(
  deps: JobDeps,
  io: PaneIo,
  request: JobRequest,
  at: {pane: string; panePid: number; profile: Profile},
  notice: string,
  waited: W,
  signal: AbortSignal,
): Promise<W & Partial<JobOutcome>> {
  const {pane, profile} = at;
  const o = request.options;
  // Said where a door can say it: the notice comes from the pane whose work ended.
  const target = {pane, panePid: at.panePid, jobId: request.jobId, from: request.pane};
  const doors = await throughDoors(deps, profile, target, notice, o.via, signal);
  const tried = doors.tried.length ? {noticeDoors: doors.tried} : {};
  const sent = async (delivery: Delivery, via: NoticeVia) => {
    await deps.recorder.event('notified', {pane, chars: [...notice].length, delivery, via});
    return {...waited, notified: true, noticeDelivery: delivery, noticeVia: via, ...tried};
  };
  if (doors.delivered) return sent(doors.delivered.delivery, doors.delivered.door);
  if ((o.via ?? 'auto') === 'native')
    return {...waited, ...tried, ...nativeFailure(waited, profile, doors.tried)};
  try {
    const options = deliverOptionsOf(request, {enter: true, ...ownLinePace(profile, notice, o)});
    const out = await sendOwnLine(io, pane, notice, profile, options, signal);
    return await sent(out.delivery, out.via);
  } catch (error) {
    if (!(error instanceof NotDelivered)) throw error;
    return {
      ...waited,
      state: 'failed',
      reason: `The work ended (${waited.state}), but the notice did not reach the agent: ${error.message}`,
      noticeDelivery: error.delivery,
      ...tried,
    };
  }
}

/**
 * The notice of a job that waited (`waited`), to `at.pane`: held back while another program
 * holds that pane (heldBack), else sent to the program it runs (sendNotice) — read with the
 * job's own profile (`at.profile`) where it is the job's pane. Its `{reply}` is the job's
 * agent's (`at.replied`), wherever the notice goes.
 */
export async function noticeOfJob(
  deps: JobDeps,
  io: PaneIo,
  request: JobRequest,
  at: {
    pane: string;
    began: {command: string; group: number | undefined} | undefined;
    profile: Profile | undefined;
    /** The profile of the job's own pane, whose agent's reply a `{reply}` carries. */
    replied: Profile | undefined;
  },
  waited: Waited,
  signal: AbortSignal,
): Promise<Waited & Partial<JobOutcome>> {
  const {pane} = at;
  const reply = await replyForNotice(deps, request, at.replied);
  const notice = noticeFor(request, {...waited, reply});
  const info = await preflight(io, pane, request.server.pid);
  const held = await heldBack(deps.foreground, at.began, info);
  if (held) {
    await deps.recorder.event('notice-held', {pane, why: held});
    return {...waited, noticeHeld: held};
  }
  const profile =
    at.profile ?? (await recognize(deps, pane, info, request.options.profile)).profile;
  const to = {pane, panePid: info.panePid, profile};
  return sendNotice(deps, io, request, to, notice, waited, signal);
}
