import {blockedIn, blockedReason, findDialog} from '../agents/dialogs.js';
import type {JobOutcome} from '../jobs/events.js';
import type {JobRequest} from '../jobs/request.js';
import {recognize} from '../pane/profile.js';
import type {JobDeps} from './job-deps.js';
import {throughDoors} from './notice-doors.js';

/**
 * `--if-busy now`: the job's text handed at once to the agent's own door (Claude Code's inbox,
 * Codex's app-server, opencode's server, Pi's extension: src/doors/), which queues it behind
 * the agent's running turn itself — no pane lock is taken and no key is sent, so the jobs at
 * work on the pane are not disturbed. The job ends when the agent shows the text taken:
 * `done` with delivery `queued` (behind its turn) or `submitted` (given to the model). A pane
 * at a dialog gets nothing (`blocked`); where no door takes it, `failed` with each door's
 * reason — it is never typed instead.
 */
export async function deliverNow(
  deps: Pick<
    JobDeps,
    'recorder' | 'pid' | 'tmux' | 'foreground' | 'paneMemory' | 'clock' | 'doors'
  >,
  request: JobRequest,
  signal: AbortSignal,
): Promise<JobOutcome> {
  const {pane, jobId} = request;
  await deps.recorder.event('worker-started', {pid: deps.pid});
  const info = await deps.tmux.describePane(pane);
  if (!info || info.dead)
    return {state: 'failed', notified: false, reason: `Pane ${pane} is gone; nothing was sent.`};
  const {profile} = await recognize(deps, pane, info, request.options.profile);
  const dialog = findDialog(profile, await deps.tmux.view(pane, 0), deps.clock.wall());
  if (dialog) {
    const blocked = blockedIn(pane, dialog);
    return {state: 'blocked', notified: false, blocked, reason: blockedReason(blocked)};
  }
  const target = {pane, panePid: info.panePid, jobId, purpose: 'text' as const, from: undefined};
  const through = await throughDoors(deps, profile, target, request.text, 'native', signal);
  if (through.delivered)
    return {state: 'done', notified: false, delivery: through.delivered.delivery};
  const why = through.tried.length ? through.tried.join('; ') : `${profile.name} has no door`;
  return {
    state: 'failed',
    notified: false,
    reason: `No door took the text (${why}); nothing was typed (--if-busy now).`,
  };
}
