import {EXIT_CODES, type ExitCode} from '../base/errors.js';
import type {RecoverResult} from '../verbs/recover.js';
import type {Output} from './render.js';

/**
 * `nudge recover`: the plan (with --dry-run) or what was done — each run, job and schedule on
 * a line of its own, what comes back first, then what cannot and why. Exit 0 when everything
 * that was to come back did; 1 when something planned failed.
 */
export function renderRecover(r: RecoverResult, json: boolean, out: Output): ExitCode {
  const failed = [...r.runs, ...r.jobs].some((x) => x.why?.startsWith('it could not be'));
  if (json) {
    out.stdout(JSON.stringify(r));
    return failed ? EXIT_CODES.failure : EXIT_CODES.ok;
  }
  const line = out.stdout;
  for (const id of r.endedLost) line(`lost      job ${id}: its tmux server is gone`);
  if (r.servers.length === 0) {
    line('Nothing to recover: every tmux server nudge last worked with is running.');
    return EXIT_CODES.ok;
  }
  for (const s of r.servers) line(`server    ${s.socketPath} (pid ${s.serverPid}) is gone`);
  for (const run of r.runs) {
    const what = `run ${run.job} (${run.agent ?? 'a command'} in ${run.cwd}${run.session ? `, session ${run.session}` : ''})`;
    if (run.action === 'resume')
      line(
        r.dryRun
          ? `resume    ${what}: a new session and pane, the agent resumed`
          : `resumed   ${what}: run ${run.newJob} in pane ${run.newPane}`,
      );
    else line(`left      ${what}: ${run.why}`);
  }
  for (const j of r.jobs) {
    const what = `job ${j.job} "${j.preview}" (for ${j.pane})`;
    if (j.action === 'retarget')
      line(
        r.dryRun
          ? `retarget  ${what}: to run ${j.run}'s new pane`
          : `retargeted ${what}: job ${j.newJob} in pane ${j.newPane}`,
      );
    else line(`left      ${what}: ${j.why}`);
  }
  for (const s of r.schedules) {
    if (s.action === 'remark')
      line(
        r.dryRun
          ? `remark    schedule ${s.name}: on run ${s.run}'s new pane`
          : `remarked  schedule ${s.name}: pane ${s.newPane}`,
      );
    else line(`left      schedule ${s.name}: ${s.why}`);
  }
  if (r.dryRun) line('(--dry-run: nothing was changed; nudge recover does the above)');
  return failed ? EXIT_CODES.failure : EXIT_CODES.ok;
}
