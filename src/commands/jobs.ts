import {formatDuration} from '../base/durations.js';
import {EXIT_CODES, type ExitCode} from '../base/errors.js';
import {resolveStateDir} from '../base/paths.js';
import {
  type JobEvent,
  type JobHandle,
  type JobRecord,
  JobStore,
  shownState,
} from '../jobs/store.js';
import type {CommandContext} from './context.js';

/** `nudge jobs`: every job, oldest first. */
export async function listJobs(
  o: {json?: boolean | undefined},
  ctx: CommandContext,
): Promise<ExitCode> {
  const store = new JobStore(resolveStateDir(ctx.env));
  const now = Date.now();
  const records = await store.list();
  if (o.json) {
    ctx.stdout(JSON.stringify(records.map((r) => believable(r, shownState(r, now)))));
    return EXIT_CODES.ok;
  }
  if (records.length === 0) {
    ctx.stdout(`No jobs in ${store.jobsDir}.`);
    return EXIT_CODES.ok;
  }
  const rows = records.map((r) => [
    r.id,
    shownState(r, now),
    r.pane,
    formatDuration(now - Date.parse(r.createdAt)),
    r.preview,
  ]);
  const header = ['JOB', 'STATE', 'PANE', 'AGE', 'TEXT'];
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((row) => row[i]!.length)));
  for (const row of [header, ...rows]) {
    ctx.stdout(
      row.map((cell, i) => (i === row.length - 1 ? cell : cell.padEnd(widths[i]!))).join('  '),
    );
  }
  return EXIT_CODES.ok;
}

/**
 * A record as `--json` prints it: `state` is the state a user should believe (`lost` for a job
 * whose worker died before it ended); the state the record holds stays as `recordedState`,
 * and `shown` (the earlier name) is kept for scripts that read it.
 */
function believable<T extends JobRecord>(
  record: T,
  shown: ReturnType<typeof shownState>,
): Omit<T, 'state'> & {
  state: ReturnType<typeof shownState>;
  recordedState: JobRecord['state'];
  shown: ReturnType<typeof shownState>;
} {
  return {...record, state: shown, recordedState: record.state, shown};
}

/** A job's record plus its events, as `status --json` prints it. */
export interface JobStatus extends JobRecord {
  shown: ReturnType<typeof shownState>;
  events: JobEvent[];
  logPath: string;
}

/** Read one job's status. */
export async function readStatus(handle: JobHandle): Promise<JobStatus> {
  const record = await handle.readState();
  return {
    ...record,
    shown: shownState(record, Date.now()),
    events: await handle.readEvents(),
    logPath: handle.logPath,
  };
}

/** `nudge status JOB`: one job with its events. */
export async function showStatus(
  o: {job: string; json?: boolean | undefined},
  ctx: CommandContext,
): Promise<ExitCode> {
  const handle = await new JobStore(resolveStateDir(ctx.env)).open(o.job);
  const s = await readStatus(handle);
  if (o.json) {
    ctx.stdout(JSON.stringify(believable(s, s.shown)));
    return EXIT_CODES.ok;
  }
  const lostNote =
    s.shown === 'lost' ? ` (its process ${s.pid ?? '?'} is gone; it never finished)` : '';
  ctx.stdout(`job     ${s.id}`);
  ctx.stdout(`state   ${s.shown}${lostNote}`);
  if (s.reason) ctx.stdout(`reason  ${s.reason}`);
  ctx.stdout(
    `pane    ${s.pane}${s.paneTarget !== s.pane ? ` (${s.paneTarget})` : ''} on ${s.socketPath}`,
  );
  ctx.stdout(`text    ${s.preview}`);
  if (s.profile)
    ctx.stdout(`profile ${s.profile}${s.profileReason ? ` (${s.profileReason})` : ''}`);
  if (s.transport) ctx.stdout(`via     ${s.transport}`);
  if (s.delivery) ctx.stdout(`delivery ${s.delivery}`);
  if (s.waitedMs !== undefined) ctx.stdout(`waited  ${formatDuration(s.waitedMs)}`);
  if (s.exitCode !== undefined) ctx.stdout(`exit    ${s.exitCode}`);
  if (s.match !== undefined) ctx.stdout(`match   ${s.match}`);
  if (s.notified !== undefined) {
    ctx.stdout(
      `notice  ${s.notified ? `sent${s.noticeDelivery ? ` (${s.noticeDelivery})` : ''}` : 'not sent'}`,
    );
  }
  ctx.stdout(`log     ${s.logPath}`);
  ctx.stdout('events');
  const start = Date.parse(s.createdAt);
  for (const e of s.events) {
    const {t, event, ...rest} = e;
    delete rest.state;
    const extra = Object.keys(rest).length ? ` ${JSON.stringify(rest)}` : '';
    ctx.stdout(`  +${formatDuration(Date.parse(t) - start).padEnd(7)} ${event}${extra}`);
  }
  return EXIT_CODES.ok;
}
