import type {Clock} from '../base/clock.js';
import {formatDuration} from '../base/durations.js';
import {describeError, EXIT_CODES, NudgeError} from '../base/errors.js';
import {renderNotice} from '../jobs/notice.js';
import {TERMINAL_STATES} from '../jobs/states.js';
import {LOCAL_HOST, splitHostPane} from '../remote/dest.js';
import {
  RELAY_NEXT,
  type RelayRecord,
  type RelaySpec,
  type RelayState,
  relayEnded,
  relayOf,
  writeRelay,
} from './record.js';

/**
 * A notice for a pane on another host than the job's (`--notify-pane HOST:%N`, or `self`
 * from a job on another host). The job's worker does not type it: it records it in its
 * ending (`noticeDue`). A relay started on the submitting machine follows the job (over ssh
 * when the job is elsewhere) and, once it ended with a notice due, hands the notice as a job
 * of its own to the pane named — typed there under that pane's lock, as any job. The job's
 * host never needs a way to the notice's host: the relay reaches both from here, and picks
 * up where it was after the connection drops or this machine sleeps.
 *
 * A relay is a worker kind (src/worker/kinds.ts) with a record of its own
 * (`<state>/relays/<job>.json`) and the state machine below.
 */
/** Where the notice of a job goes: typed by the job itself (`notifyPane`, on its own host),
 * or relayed (`relay`, with the label the job records). */
export interface NoticePlan {
  notifyPane?: string | undefined;
  relay?: {to: RelaySpec['to']; label: string} | undefined;
}

/**
 * Where the notice of a job on `jobHost` (absent: here) goes, for `--notify-pane` as given:
 * `%N` or a target is a pane of the job's host; `HOST:%N` the pane of that host (`local:%N`
 * this machine's); `self`, for a job elsewhere, the caller's own pane here (`own`, as the
 * process tree proved it).
 */
export function planNotice(
  jobHost: string | undefined,
  notifyPane: string | undefined,
  own: string | undefined,
): NoticePlan {
  if (notifyPane === undefined) return {};
  if (notifyPane === 'self' && jobHost !== undefined) {
    if (!own || !/^%\d+$/.test(own))
      throw new NudgeError(
        'no-pane',
        `--notify-pane self names your own pane, but this shell is not in tmux ($TMUX_PANE is unset); name a pane of ${jobHost} (%N) or HOST:%N.`,
      );
    return {relay: {to: {pane: own}, label: `${LOCAL_HOST}:${own}`}};
  }
  const {host, pane} = splitHostPane(notifyPane);
  if (host === undefined) return {notifyPane};
  const to = host === LOCAL_HOST ? undefined : host;
  if (to === jobHost) return {notifyPane: pane};
  return {relay: {to: {host: to, pane}, label: `${to ?? LOCAL_HOST}:${pane}`}};
}

/** A relay whose worker failed outside its loop (bad input, a crash): its record says so,
 * unless it had ended already. Never throws. */
export async function recordRelayFailure(
  stateDir: string,
  job: string,
  reason: string,
  now: number,
): Promise<void> {
  const record = await relayOf(stateDir, job);
  if (!record || relayEnded(record.state)) return;
  await writeRelay(stateDir, {
    ...record,
    state: 'failed',
    error: reason,
    updatedAt: new Date(now).toISOString(),
  }).catch(() => {});
}

/** A followed job, as `nudge status` answers for it (here or on its host). */
export interface FollowedJob {
  id?: string;
  state: string;
  kind?: string;
  waitedMs?: number | undefined;
  exitCode?: number | undefined;
  delivery?: string | undefined;
  noticeDue?: {to: string} | undefined;
}

/** What a relay reaches the two ends with (the worker binds them to `--host`). */
export interface RelayDeps {
  stateDir: string;
  clock: Clock;
  signal: AbortSignal;
  /** `nudge status JOB` on `host` (absent: here). */
  status(job: string, host: string | undefined): Promise<FollowedJob>;
  /** `nudge submit` of `text` into `pane` on `host` (absent: here), as job `jobId`. */
  submit(o: {host: string | undefined; pane: string; text: string; jobId: string}): Promise<{
    job: string;
  }>;
  log(line: string): void;
}

/** Between looks at a job that has not ended; after the first minutes, longer. */
const FOLLOW_MS = [2_000, 5_000] as const;
const FOLLOW_SLOWER_AFTER_MS = 120_000;
/** Failures in a row back off to this, and give up after this long without a success. */
const MAX_BACKOFF_MS = 60_000;
const GIVE_UP_MS = 24 * 3600_000;

/** One step tried until it works: a host that does not answer is waited out (a growing
 * pause, up to a day); a user error (no such job, no such pane) ends it at once. */
async function untilItWorks<T>(
  what: string,
  step: () => Promise<T>,
  deps: Pick<RelayDeps, 'clock' | 'signal' | 'log'>,
): Promise<T | NudgeError> {
  let backoff: number = FOLLOW_MS[0];
  const since = deps.clock.now();
  for (;;) {
    try {
      return await step();
    } catch (error) {
      if (error instanceof NudgeError && error.exitCode === EXIT_CODES.usage) return error;
      if (deps.signal.aborted) throw error;
      if (deps.clock.now() - since > GIVE_UP_MS)
        return new NudgeError('host-failed', `gave up ${what}: ${describeError(error)}`);
      deps.log(`${what}: ${describeError(error)}; again in ${backoff / 1000} s`);
      await deps.clock.sleep(backoff, deps.signal);
      backoff = Math.min(MAX_BACKOFF_MS, backoff * 2);
    }
  }
}

/** A job has ended when it is in a terminal state, or lost (its worker died). */
const ENDED: ReadonlySet<string> = new Set([...TERMINAL_STATES, 'lost']);

/**
 * Look at a job (on `from`, or here) until it has ended: its status then. Every 2 s (5 s after
 * the first two minutes; `intervalMs` to change it); a host that does not answer is waited
 * out.
 */
export async function followJob<S extends FollowedJob>(
  job: string,
  from: string | undefined,
  deps: Pick<RelayDeps, 'clock' | 'signal' | 'log'> & {
    status(job: string, host: string | undefined): Promise<S>;
  },
  intervalMs: readonly [number, number] = FOLLOW_MS,
): Promise<S | NudgeError> {
  const started = deps.clock.now();
  for (;;) {
    const status = await untilItWorks('reading the job', () => deps.status(job, from), deps);
    if (status instanceof NudgeError || ENDED.has(status.state)) return status;
    const waited = deps.clock.now() - started;
    await deps.clock.sleep(intervalMs[waited < FOLLOW_SLOWER_AFTER_MS ? 0 : 1], deps.signal);
  }
}

/**
 * The relay (its worker): follow the job until it has ended, then type its notice, if one is
 * due, into the pane named — again until that host answers. Each state is recorded as it is
 * entered, and logged.
 */
export async function runRelay(spec: RelaySpec, deps: RelayDeps): Promise<RelayRecord> {
  let state: RelayState = 'following';
  const enter = async (
    next: RelayState,
    more: Pick<RelayRecord, 'delivery' | 'error'> = {},
  ): Promise<RelayRecord> => {
    if (!RELAY_NEXT[state].includes(next))
      throw new Error(`a relay does not go from ${state} to ${next}`);
    state = next;
    const record: RelayRecord = {
      ...spec,
      ...more,
      state,
      updatedAt: new Date(deps.clock.wall()).toISOString(),
    };
    await writeRelay(deps.stateDir, record);
    deps.log(
      `relay ${state}${more.delivery ? ` as job ${more.delivery}` : ''}${more.error ? `: ${more.error}` : ''}`,
    );
    return record;
  };
  deps.log(`following job ${spec.job}${spec.from ? ` on ${spec.from}` : ''}`);
  const ended = await followJob(spec.job, spec.from, deps);
  if (ended instanceof NudgeError) return enter('failed', {error: ended.message});
  const due = ended.kind === 'submit' ? ended.noticeDue : undefined;
  if (!due) return enter('no-notice', {error: `the job ended ${ended.state}`});
  await enter('delivering');
  deps.log(`job ${spec.job} ended ${ended.state}; typing its notice into ${due.to}`);
  const text = relayedNotice(spec, ended);
  const delivered = await untilItWorks(
    'typing the notice',
    // Sent again after a dropped connection, it is the same job: the notice arrives once.
    () => deps.submit({host: spec.to.host, pane: spec.to.pane, text, jobId: deliveryId(spec.job)}),
    deps,
  );
  if (delivered instanceof NudgeError) return enter('failed', {error: delivered.message});
  return enter('delivered', {delivery: delivered.job});
}

/**
 * The notice a relay types: the template given here, filled with what can be checked of the
 * job's ending (its state, exit status, duration, delivery word); the other host's rendered
 * text, its matched line and its reasons are never typed (`{match}` and `{reason}` say where
 * to read them).
 */
export function relayedNotice(
  spec: Pick<RelaySpec, 'job' | 'from' | 'notice'>,
  ended: {
    state: string;
    waitedMs?: number | undefined;
    exitCode?: number | undefined;
    delivery?: string | undefined;
  },
): string {
  const status = ended.state === 'timeout' ? 'timeout' : 'done';
  const waited = Number.isFinite(ended.waitedMs) ? Math.max(0, ended.waitedMs ?? 0) : 0;
  const see = `nudge status ${spec.from ? `${spec.from}:` : ''}${spec.job}`;
  return renderNotice(spec.notice?.template, status, {
    status,
    elapsed: formatDuration(waited),
    job: spec.job,
    until: /^[a-z]+$/.test(spec.notice?.until ?? '') ? (spec.notice?.until ?? '') : 'stable',
    exit: Number.isSafeInteger(ended.exitCode) ? String(ended.exitCode) : '',
    match: `(${see})`,
    delivery: /^[a-z-]{1,24}$/.test(ended.delivery ?? '') ? (ended.delivery ?? '') : 'unconfirmed',
    reason: /^[a-z]{1,12}$/.test(ended.state) ? ended.state : `(${see})`,
    // Another host's agent's words are not typed here: where to read them.
    reply: `(${see})`,
  });
}

/** The id of the job that types a relayed notice: made from the followed job's, so a delivery
 * sent twice is one job (the time part kept, the random part turned). */
export function deliveryId(job: string): string {
  const [time, suffix = ''] = job.split('-');
  const turned = [...suffix]
    .map((c) => (Number.parseInt(c, 36) + 18) % 36)
    .map((n) => n.toString(36));
  return `${time}-${turned.join('')}`;
}
