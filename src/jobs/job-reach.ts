import {resolveStateDir} from '../base/paths.js';
import {type AskerCaller, askerOf} from '../pane/asker.js';
import {checkReachOf, type Reached, reachable} from '../pane/reach.js';
import type {ServerSpec} from '../tmux/server.js';
import type {Tmux} from '../tmux/tmux.js';
import type {JobRecord} from './record.js';
import {JobStore} from './store.js';

/** What the job doors read: who asks (proven from the process tree, src/pane/asker.ts) and
 * the servers of the jobs' panes. */
export interface ReachContext extends AskerCaller {
  tmux: (spec: ServerSpec) => Tmux;
}

/** The pane a job types into, as the reach check judges it. */
export function reachedOf(record: Pick<JobRecord, 'socketPath' | 'serverPid' | 'pane'>): Reached {
  return {socketPath: record.socketPath, serverPid: record.serverPid, pane: record.pane};
}

/**
 * The door of every command that names a job (status, logs, cancel, queue move|drop|edit, the
 * text `queue edit` opens): the job's pane must be within the caller's reach
 * (src/pane/reach.ts), else exit 2 naming the job, its pane and why. A job that does not exist
 * is left to the command (its own sentence).
 */
export async function checkJobReach(job: string, ctx: ReachContext): Promise<void> {
  const asker = await askerOf(ctx);
  if (asker.kind === 'person') return;
  const handle = await new JobStore(resolveStateDir(ctx.env)).open(job).catch(() => undefined);
  if (!handle) return;
  const record = await handle.readState();
  await checkReachOf(
    asker,
    reachedOf(record),
    ctx.tmux,
    `Job ${record.id} (pane ${record.pane}) is out of reach`,
  );
}

/** Of `records`, the jobs the caller may reach (`nudge jobs`, `nudge queue`). */
export async function jobsInReach<R extends Pick<JobRecord, 'socketPath' | 'serverPid' | 'pane'>>(
  records: readonly R[],
  ctx: ReachContext,
): Promise<R[]> {
  return reachable(await askerOf(ctx), records, reachedOf, ctx.tmux);
}
