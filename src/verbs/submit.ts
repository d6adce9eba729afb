import type {SubmitOptions} from '../job-options/table.js';
import {ownPaneOrRefuse} from '../pane/target.js';
import {type SubmitResult, submitJob} from '../submit/submit-job.js';
import {resolveServerSpec} from '../tmux/server.js';
import type {CommandContext} from './context.js';

export type {SubmitOptions} from '../job-options/table.js';
export type {SubmitResult} from '../submit/submit-job.js';

/**
 * `nudge submit`: the job decided, its pane resolved and checked, the job recorded and handed
 * to a detached worker, or run here with --wait (src/submit/submit-job.ts, which `nudge ask`
 * shares).
 */
export function submit(given: SubmitOptions, ctx: CommandContext): Promise<SubmitResult> {
  return submitJob(given, ctx);
}

/** For `--notify-pane self` on a job of another host: this machine's pane nudge runs in,
 * proven (src/pane/own-pane.ts); a claimed pane it cannot prove is refused. */
export async function ownPaneHere(
  host: string | undefined,
  notifyPane: string | undefined,
  ctx: CommandContext,
): Promise<string | undefined> {
  if (host === undefined || notifyPane !== 'self') return undefined;
  const spec = resolveServerSpec({}, ctx.env);
  const lead = '--notify-pane self names the pane nudge runs in';
  return ownPaneOrRefuse(ctx.tmux(spec), spec, ctx, lead, 'name it as local:%N');
}
