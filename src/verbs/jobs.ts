import {readFile} from 'node:fs/promises';
import {join} from 'node:path';
import {HISTORY_MAX_MS, parseDuration} from '../base/durations.js';
import {NudgeError} from '../base/errors.js';
import type {OptionsOf} from '../base/option-table.js';
import {resolveStateDir} from '../base/paths.js';
import type {JobEvent} from '../jobs/events.js';
import {jobsInReach} from '../jobs/job-reach.js';
import {type ShownState, shownReceipt, shownState} from '../jobs/liveness.js';
import {believedRecord, endJobsOfGoneServers, tellLost} from '../jobs/lost.js';
import {isUndelivered} from '../jobs/receipts.js';
import type {JobRecord, RunRecord, SubmitRecord} from '../jobs/record.js';
import {isTerminal, JOB_STATES} from '../jobs/states.js';
import {type JobHandle, JobStore, RECOVERED} from '../jobs/store.js';
import {readUnrecorded} from '../jobs/unrecorded.js';
import {resolveServerSpec, socketFile} from '../tmux/server.js';
import type {CommandContext} from './context.js';
import type {JOBS_OPTIONS} from './options/setup.js';

/**
 * A record as a user should read it: `state` is the state to believe (`lost` for a job whose
 * worker died before it ended); the state the record holds stays as `recordedState`, and
 * `shown` (the earlier name) is kept for scripts that read it.
 */
export type ShownJob = Believed<SubmitRecord> | Believed<RunRecord>;

type Believed<R extends JobRecord> = Omit<R, 'state'> & {
  state: ShownState;
  recordedState: JobRecord['state'];
  shown: ShownState;
};

function believable(record: JobRecord, nowMs: number): ShownJob {
  const shown = shownState(record, nowMs);
  const believed = shownReceipt(record, shown, nowMs);
  const receipt = believed ? {receipt: believed} : {};
  return {...record, ...receipt, state: shown, recordedState: record.state, shown} as ShownJob;
}

/** What `nudge jobs` lists: every job, oldest first. */
export interface JobList {
  jobsDir: string;
  /** When the list was taken (ages are counted from it). */
  nowMs: number;
  jobs: ShownJob[];
}

/** `nudge jobs`: the jobs the caller may reach (a nudge inside a pane: its session's). */
export async function listJobs(o: JobsOptions, ctx: CommandContext): Promise<JobList> {
  const keep = jobFilter(o, ctx);
  const store = new JobStore(resolveStateDir(ctx.env));
  // Jobs of a tmux server that is gone end lost now (and their people are told); the list is
  // read again only then.
  const records = await store.list();
  const ended = await endJobsOfGoneServers(store, ctx, records);
  const nowMs = ctx.clock.wall();
  // Only the jobs on panes within the caller's reach (src/pane/reach.ts).
  const jobs: ShownJob[] = [];
  const all = ended.length > 0 ? await store.list() : records;
  for (const listed of await jobsInReach(all, ctx)) {
    // A job that looks lost is read again (src/jobs/lost.ts, believedRecord).
    const {record} = await believedRecord(store.handleOf(listed.id), nowMs, listed).catch(() => ({
      record: listed,
    }));
    jobs.push(believable(record, nowMs));
  }
  for (const job of jobs)
    if (job.state === 'lost')
      await tellLost(store.handleOf(job.id), job as unknown as JobRecord, ctx);
  return {jobsDir: store.jobsDir, nowMs, jobs: jobs.filter((j) => keep(j, nowMs))};
}

export type JobsOptions = Partial<Omit<OptionsOf<typeof JOBS_OPTIONS>, 'host'>>;

/** The shown states `--state` takes. */
const SHOWN_STATES: readonly string[] = [...JOB_STATES, 'lost'];

/** Which jobs `o` lists: of one server (-L/-S), in given states, of a pane, submitted since. */
function jobFilter(o: JobsOptions, ctx: CommandContext) {
  const states = (o.state ?? []).flatMap((s) => s.split(',')).filter(Boolean);
  const unknown = states.find((s) => !SHOWN_STATES.includes(s));
  if (unknown !== undefined)
    throw new NudgeError(
      'bad-usage',
      `--state takes ${SHOWN_STATES.join(', ')} (got ${JSON.stringify(unknown)}); see nudge jobs --help.`,
    );
  const sinceMs =
    o.since === undefined ? undefined : parseDuration(o.since, '--since', HISTORY_MAX_MS);
  const server =
    o.socketName !== undefined || o.socketPath !== undefined
      ? socketFile(resolveServerSpec(o, ctx.env), ctx.env, ctx.uid)
      : undefined;
  return (j: ShownJob, nowMs: number) =>
    (states.length === 0 || states.includes(j.state)) &&
    (o.pane === undefined || j.pane === o.pane) &&
    (server === undefined || j.socketPath === server) &&
    (sinceMs === undefined || Date.parse(j.createdAt) >= nowMs - sinceMs) &&
    (!o.undelivered || (j.kind === 'submit' && isUndelivered(j.receipt, j.resentAs)));
}

/** A job's record plus its events, as `nudge status` shows it; `recoveredAs`: the job that
 * brought it back after its tmux server went away (`nudge recover`). */
export type JobStatus = ShownJob & {
  events: JobEvent[];
  logPath: string;
  recoveredAs?: string;
  /** What its process waits for room to record (`ending done`, `state typing`): the state
   * folder is full (src/jobs/unrecorded.ts). */
  unrecorded?: string;
};

/** Read one job's status. */
export async function readStatus(handle: JobHandle, nowMs: number): Promise<JobStatus> {
  const {record} = await believedRecord(handle, nowMs);
  const recoveredAs = await readFile(join(handle.dir, RECOVERED), 'utf8').then(
    (t) => t.trim(),
    () => undefined,
  );
  return {
    ...believable(record, nowMs),
    events: await handle.readEvents(),
    logPath: handle.logPath,
    ...(recoveredAs ? {recoveredAs} : {}),
  };
}

/** `nudge status JOB`: one job with its events. */
export async function showStatus(o: {job: string}, ctx: CommandContext): Promise<JobStatus> {
  const store = new JobStore(resolveStateDir(ctx.env));
  const handle = await store.open(o.job);
  await endJobsOfGoneServers(store, ctx, [await handle.readState()]);
  const status = await readStatus(handle, ctx.clock.wall());
  if (status.state === 'lost') await tellLost(handle, await handle.readState(), ctx);
  if (isTerminal(status.state)) return status;
  // Running: it may have done more than the full disk let it write (its pane says).
  const tmux = ctx.tmux({kind: 'socket-path', path: status.socketPath});
  const unrecorded = await readUnrecorded(tmux, status.pane, status.id);
  return unrecorded ? {...status, unrecorded} : status;
}
