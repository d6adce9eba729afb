import {basename, dirname} from 'node:path';
import {formatDuration} from '../base/durations.js';
import {EXIT_CODES, type ExitCode, exitCodeOfState} from '../base/errors.js';
import type {OnHost} from '../front/dispatch.js';
import type {CancelResult} from '../jobs/cancel.js';
import type {JobOutcome} from '../jobs/events.js';
import {isUndelivered} from '../jobs/receipts.js';
import {describeStalled, stateWords, workingShown} from '../jobs/stalled.js';
import {LOCAL_HOST} from '../remote/dest.js';
import type {ExpectAnswer, ExpectResult} from '../verbs/expect.js';
import type {HookResult} from '../verbs/hook.js';
import type {JobList} from '../verbs/jobs.js';
import type {LogLines} from '../verbs/logs.js';
import type {JobsPruned} from '../verbs/prune.js';
import type {RunCommandResult} from '../verbs/run.js';
import type {SubmitResult} from '../verbs/submit.js';
import type {
  WatchClearResult,
  WatcherView,
  WatchListResult,
  WatchPauseResult,
  WatchReportResult,
  WatchStartResult,
} from '../watch/types.js';
import {printTable} from './text.js';

/**
 * The one place a command's typed result becomes what the CLI prints and the code it exits
 * with. (The MCP server returns the same results as they are.)
 */
export interface Output {
  stdout: (line: string) => void;
  stderr: (line: string) => void;
  /** The columns a line may take: the terminal's; into a pipe `$COLUMNS`, else 80. */
  width: number;
}

/** The exit code of a job's ending: done 0, blocked 3, timeout 124, else 1 (the one table
 * the workers use too). */
export function exitCodeOfOutcome(state: JobOutcome['state']): ExitCode {
  return exitCodeOfState(state);
}

/** A job as the user names it again: `HOST:ID` for a job on another host. */
function jobName(job: string, host: string | undefined): string {
  return host ? `${host}:${job}` : job;
}

/** The exit code of `submit --wait`: the command's own status under `--until exit` (0–255 as
 * it gave it) once it ran, else the job's ending's (exitCodeOfOutcome). */
export function exitCodeOfJob(o: {state: JobOutcome['state']; exitCode?: number | undefined}) {
  const ran = o.exitCode !== undefined && (o.state === 'done' || o.state === 'failed');
  return ran && o.exitCode !== 0 ? (o.exitCode as number) : exitCodeOfOutcome(o.state);
}

export function renderSubmit(r: OnHost<SubmitResult>, json: boolean, out: Output): number {
  const at = r.host ? {host: r.host} : {};
  if (r.note) out.stderr(`nudge: ${r.note}`);
  if (r.sentBefore !== undefined)
    out.stderr(
      `nudge: message ${r.sentBefore} was sent before as job ${r.job}; nothing was typed again (nudge status ${r.job}).`,
    );
  const again = r.sentBefore === undefined ? {} : {sentBefore: r.sentBefore};
  if (r.kind === 'queued') {
    const {job, pane, pid, log} = r;
    const state = r.state ?? 'queued';
    out.stdout(
      json ? JSON.stringify({job, state, pane, pid, log, ...again, ...at}) : jobName(job, r.host),
    );
    return EXIT_CODES.ok;
  }
  const o = r.outcome;
  if (json) {
    out.stdout(JSON.stringify({job: r.job, pane: r.pane, ...again, ...at, ...o}));
  } else {
    const waited = o.waitedMs !== undefined ? ` after ${formatDuration(o.waitedMs)}` : '';
    const why = o.reason ? `: ${o.reason}` : '';
    const exit = o.exitCode !== undefined ? `, exit ${o.exitCode}` : '';
    out.stdout(
      `${jobName(r.job, r.host)} ${o.state}${waited}${exit}${o.notified ? ', notice sent' : ''}${why}`,
    );
  }
  return exitCodeOfJob(o);
}

export function renderRun(r: OnHost<RunCommandResult>, json: boolean, out: Output): ExitCode {
  const where = {
    ...(r.host ? {host: r.host} : {}),
    job: r.job,
    pane: r.pane,
    place: r.place,
    cwd: r.cwd,
    ...(r.worktree ? {worktree: r.worktree.path, branch: r.worktree.branch} : {}),
    log: r.log,
    report: r.report,
  };
  if (r.kind === 'started') {
    out.stdout(
      json ? JSON.stringify({...where, state: 'queued', pid: r.pid}) : jobName(r.job, r.host),
    );
    return EXIT_CODES.ok;
  }
  const {result} = r;
  if (json) {
    out.stdout(JSON.stringify({...where, ...result}));
  } else {
    const report = result.report;
    const exit = result.exitCode !== undefined ? `, exit ${result.exitCode}` : '';
    const after = report ? ` after ${formatDuration(report.durationMs)}` : '';
    const why = result.reason ? `: ${result.reason}` : '';
    out.stdout(`${r.job} ${result.state}${after}${exit}${why}`);
    if (report) out.stdout(`report: ${report.path}`);
  }
  return exitCodeOfOutcome(result.state);
}

/** Seconds for people: `2.4s` under ten seconds, whole seconds above. */
export function seconds(ms: number): string {
  return ms < 10_000 ? `${(ms / 1000).toFixed(1)}s` : `${Math.round(ms / 1000)}s`;
}

export function renderExpect(r: ExpectResult, json: boolean, out: Output): ExitCode {
  for (const note of r.notes ?? []) out.stderr(`nudge: ${note}`);
  if (r.warning) out.stderr(`nudge: ${r.warning}`);
  if (json) out.stdout(JSON.stringify(r.answer));
  else {
    out.stdout(expectLine(r.answer));
    // --action return_output: what the pane printed, as it printed it.
    if (r.answer.output) out.stdout(r.answer.output);
  }
  // Matched as a job's done: 0; blocked 3, timeout 124, anything else 1.
  return exitCodeOfState(r.answer.status === 'matched' ? 'done' : r.answer.status);
}

/** A pane where the agent waits for a person, as a line (`wait`, `expect`). */
export function blockedLine(b: NonNullable<ExpectAnswer['blocked']>): string {
  return `Blocked: ${b.pane} waits for a person (${b.kind}): ${b.question}${b.resets ? ` (resets ${b.resets})` : ''}`;
}

/** `nudge expect`'s answer as a line, as `wait` says its verdict. */
function expectLine(a: ExpectAnswer): string {
  const after = `after ${seconds(a.duration_ms)}`;
  if (a.blocked) return blockedLine(a.blocked);
  if (a.status === 'matched') return `Matched ${after}: ${a.line ?? a.match ?? ''}`;
  if (a.status === 'timeout') return `Timeout: /${a.pattern}/ did not show ${after}`;
  if (a.reason) return `Failed ${after}: ${a.reason}`;
  return `Failed ${after}: /${a.fail_pattern ?? ''}/ showed first: ${a.line ?? ''}`;
}

/** A server as `-L` names it where its socket is in tmux's own folder (tmux-UID), else its
 * socket's path (as `-S` names it). */
const serverName = (socket: string) =>
  /\/tmux-\d+$/.test(dirname(socket)) ? basename(socket) : socket || '-';

export function renderJobs(
  r: OnHost<JobList> & {unreachable?: {host: string; error: string}[]},
  json: boolean,
  out: Output,
): ExitCode {
  // A host that did not answer is said on stderr; the others are still listed.
  for (const u of r.unreachable ?? []) out.stderr(`nudge: no jobs from ${u.host}: ${u.error}`);
  const failed = (r.unreachable ?? []).length > 0 ? EXIT_CODES.failure : EXIT_CODES.ok;
  if (json) {
    out.stdout(JSON.stringify(r.jobs));
    return failed;
  }
  if (r.jobs.length === 0) {
    out.stdout(r.host ? `No jobs on ${r.host}.` : `No jobs in ${r.jobsDir}.`);
    return failed;
  }
  const jobs = r.jobs as OnHost<JobList['jobs'][number]>[];
  const hosts = jobs.some((j) => j.host !== undefined);
  // Several servers' %2 look alike: a SERVER column (the socket's name) when there are two.
  const servers = new Set(jobs.map((j) => j.socketPath)).size > 1;
  const rows = jobs.map((j) => [
    ...(hosts ? [j.host ?? LOCAL_HOST] : []),
    ...(servers ? [serverName(j.socketPath)] : []),
    j.id,
    stateWords(j) === 'blocked'
      ? 'blocked'
      : j.stalled
        ? `${j.state}, ${describeStalled(j.stalled, r.nowMs)}`
        : 'waitingForYou' in j && j.waitingForYou
          ? `${j.state}, waiting for you`
          : j.working
            ? `${j.state}, ${workingShown(j.working)}`
            : j.kind === 'submit' && isUndelivered(j.receipt, j.resentAs) && j.receipt
              ? `${stateWords(j)}, ${j.receipt.rung}`
              : stateWords(j),
    j.pane,
    formatDuration(r.nowMs - Date.parse(j.createdAt)),
    j.preview,
  ]);
  const header = [...(hosts ? ['HOST'] : []), ...(servers ? ['SERVER'] : [])];
  printTable([...header, 'JOB', 'STATE', 'PANE', 'AGE', 'TEXT'], rows, out);
  return failed;
}

export function renderPruned(r: JobsPruned, json: boolean, out: Output): ExitCode {
  if (json) out.stdout(JSON.stringify(r));
  else {
    const n = r.removed.length;
    const jobs = `${n} ended job${n === 1 ? '' : 's'}`;
    const day = 86_400_000;
    const age =
      r.olderThanMs >= day && r.olderThanMs % day === 0
        ? `${r.olderThanMs / day}d`
        : formatDuration(r.olderThanMs);
    out.stdout(
      `${r.dryRun ? 'Would remove' : 'Removed'} ${jobs} older than ${age}; kept ${r.kept} younger and ${r.live} not ended.`,
    );
    for (const id of r.removed) out.stdout(`  ${id}`);
  }
  return EXIT_CODES.ok;
}

export function renderCancel(r: OnHost<CancelResult>, json: boolean, out: Output): ExitCode {
  const job = jobName(r.job, r.host);
  if (json) {
    const at = r.host ? {host: r.host} : {};
    const cleared = r.cleared === undefined ? {} : {cleared: r.cleared};
    const refused = r.notSignalled === undefined ? {} : {not_signalled: r.notSignalled};
    out.stdout(
      JSON.stringify({job: r.job, result: r.result, state: r.state, ...cleared, ...refused, ...at}),
    );
  } else if (r.result === 'cancelled') {
    out.stdout(
      r.notSignalled
        ? `Cancelled job ${job}; ${r.notSignalled}.`
        : r.cleared === false
          ? `Cancelled job ${job}; what it had typed was left in the input line (nudge cannot clear it in that program): clear or send it; the pane's next job waits until you do.`
          : `Cancelled job ${job}.`,
    );
  } else {
    out.stdout(
      r.endedBefore
        ? `Job ${job} already ended (${r.state}); nothing to cancel.`
        : `Job ${job} ended (${r.state}) before it could be cancelled.`,
    );
  }
  return EXIT_CODES.ok;
}

export async function renderLogs(r: LogLines, out: Output): Promise<ExitCode> {
  for await (const line of r.lines) out.stdout(line);
  return EXIT_CODES.ok;
}

export function renderHook(r: HookResult, out: Output): ExitCode {
  if (r.warning) out.stderr(`nudge hook: ${r.warning}`);
  return EXIT_CODES.ok;
}

export function renderWatchStart(r: WatchStartResult, json: boolean, out: Output): ExitCode {
  out.stdout(json ? JSON.stringify(r) : r.result);
  return EXIT_CODES.ok;
}

export function renderWatchReport(r: WatchReportResult, json: boolean, out: Output): ExitCode {
  out.stdout(json ? JSON.stringify(r) : r.result);
  return EXIT_CODES.ok;
}

export function renderWatchPause(r: WatchPauseResult, json: boolean, out: Output): ExitCode {
  if (json) {
    out.stdout(JSON.stringify(r));
    return EXIT_CODES.ok;
  }
  out.stdout('paused');
  if (r.error) out.stderr(`nudge: no next step suggested: ${r.error}`);
  else out.stdout(`next step: ${r.suggestion ?? '(none: the assessor says the plan is done)'}`);
  return EXIT_CODES.ok;
}

export function renderWatchClear(r: WatchClearResult, json: boolean, out: Output): ExitCode {
  out.stdout(
    json ? JSON.stringify(r) : `cleared${r.stoppedCycle ? ' (a running cycle was stopped)' : ''}`,
  );
  return EXIT_CODES.ok;
}

export function renderWatchShow(w: WatcherView, json: boolean, out: Output): ExitCode {
  if (json) {
    out.stdout(JSON.stringify(w));
    return EXIT_CODES.ok;
  }
  const line = out.stdout;
  line(`watcher  ${w.name}`);
  line(`state    ${w.state}${w.cycle ? ` (cycle ${w.cycle} running)` : ''}`);
  if (w.pausedReason) line(`reason   ${w.pausedReason}`);
  if (w.stalled) line(`stall    ${describeStalled(w.stalled, Date.now())}`);
  if (w.lostCycle) line(`lost     ${w.lostCycle}`);
  line(
    `pane     ${w.pane}${w.paneTarget !== w.pane ? ` (${w.paneTarget})` : ''} on ${w.socketPath}`,
  );
  line(`assessor ${w.assessor}`);
  if (w.pending) line(`queued   ${w.pending} report(s)`);
  const max = w.options.maxInjections;
  if (w.injections > 0 || max != null)
    line(
      `typed    ${w.injections} line(s)${max != null ? ` of at most ${max} (--max-injections)` : ''}`,
    );
  line('plan');
  for (const l of w.plan.split('\n')) line(`  ${l}`);
  line('transcript');
  const start = Date.parse(w.createdAt);
  for (const e of w.transcript) {
    const first = `  +${formatDuration(Date.parse(e.t) - start).padEnd(7)} ${e.role.padEnd(11)} `;
    const [head, ...rest] = e.text.split('\n');
    line(`${first}${head ?? ''}`);
    for (const l of rest) line(`${' '.repeat(first.length)}${l}`);
  }
  return EXIT_CODES.ok;
}

export function renderWatchList(r: WatchListResult, json: boolean, out: Output): ExitCode {
  if (json) {
    out.stdout(JSON.stringify(r.watchers));
    return EXIT_CODES.ok;
  }
  if (r.watchers.length === 0) {
    out.stdout('No watchers.');
    return EXIT_CODES.ok;
  }
  const rows = r.watchers.map((w) => [w.name, w.state, w.pane, w.plan.split('\n')[0] ?? '']);
  printTable(['WATCHER', 'STATE', 'PANE', 'PLAN'], rows, out);
  return EXIT_CODES.ok;
}
