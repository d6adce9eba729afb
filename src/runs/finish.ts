import type {Profile} from '../agents/profile.js';
import type {RunReport} from '../jobs/run-report.js';
import type {Ending, RunDeps, RunEvents} from './events.js';
import {integrate} from './integrate.js';
import {outputTail} from './output.js';
import {renderReport, runStatusOf} from './report.js';
import type {RunRequest} from './request.js';

/** Scrollback read for the report's last lines. */
const TAIL_HISTORY_ROWS = 2_000;

/**
 * integrating: in a worktree commit what is left, count the changes and commits, `--pr`;
 * then the report, written to report.md. A git failure goes into the report's reason (and an
 * event), never hides the run's own ending.
 */
export async function reportOf(
  deps: RunDeps,
  request: RunRequest,
  ending: Ending,
  run: {
    startMs: number;
    startRow: number;
    filesAtStart: Map<string, number> | undefined;
    sentinel: RegExp;
    profile: Profile;
    permissionStops: RunReport['permissionStops'];
  },
): Promise<RunReport> {
  const {recorder, clock} = deps;
  const o = request.options;
  await recorder.transition('integrating', {}).catch(() => {});
  const found = await integrate(
    {
      git: deps.git,
      gh: deps.gh,
      note: (event, data) =>
        recorder.event(event, data as RunEvents['committed'] & RunEvents['pr']),
    },
    request,
    run.filesAtStart,
  );
  if (found.error !== undefined) await recorder.event('integrate-failed', {why: found.error});
  const endedMs = clock.now();
  const reason =
    found.error === undefined
      ? ending.reason
      : `${ending.reason ? `${ending.reason} ` : ''}(git: ${found.error})`;
  const report: RunReport = {
    job: request.jobId,
    path: deps.files.report,
    status: runStatusOf(ending.state, ending.timeout),
    state: ending.state,
    reason,
    exitCode: ending.exitCode,
    startedAt: new Date(run.startMs).toISOString(),
    endedAt: new Date(endedMs).toISOString(),
    durationMs: endedMs - run.startMs,
    ...(o.agent ? {agent: o.agent, prompt: request.text} : {command: request.text}),
    pane: request.pane,
    cwd: o.cwd,
    worktree: o.worktree?.path,
    branch: o.worktree?.branch,
    changes: found.changes,
    commits: found.commits,
    pr: found.pr,
    permissionStops: run.permissionStops,
    outputTail: await tailOf(deps, request, run),
    log: deps.files.log,
    events: deps.files.events,
  };
  await deps.writeReport(renderReport(report));
  await recorder.event('reported', {path: report.path});
  return report;
}

/** The last lines of the run's output (empty when the pane is gone). */
async function tailOf(
  deps: RunDeps,
  request: RunRequest,
  run: {startRow: number; sentinel: RegExp; profile: Profile},
): Promise<string[]> {
  try {
    const view = await deps.tmux.view(request.pane, TAIL_HISTORY_ROWS);
    return outputTail(
      view,
      request.options.agent
        ? {agent: run.profile}
        : {startRow: run.startRow, sentinel: run.sentinel},
    );
  } catch {
    return []; // the pane is gone
  }
}
