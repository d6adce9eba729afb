import {NudgeError} from '../base/errors.js';
import {resolveStall} from '../detect/stall-options.js';
import {configuredVia, givenIfBusy, type IfBusy, resolveIfBusy} from '../jobs/policies.js';
import type {JobRecord} from '../jobs/record.js';
import type {JobOptions} from '../jobs/request.js';
import {resolveSinks} from '../notify/config.js';
import {type AskerCaller, askerOf} from '../pane/asker.js';
import {askerPane} from '../pane/reach.js';
import type {PaneInfo, Tmux} from '../tmux/tmux.js';
import {resolveJobOptions, type SubmitOptions, validateText} from './options.js';

/**
 * What a submit decides before its job is made: its options once (with config.toml's
 * defaults), and who submitted it. `submitJob` (submit-job.ts) calls these around the checks
 * of its pane (src/pane/submit-target.ts), then puts the job in its place (src/jobs/enqueue.ts).
 */

type Env = Record<string, string | undefined>;

/** The job's options from what was given, with config.toml's defaults (its sinks, its via,
 * its busy policy, its stall watchdog), and the busy policy decided. */
export function submitJobOptions(
  o: SubmitOptions,
  env: Env,
): {options: JobOptions; ifBusy: IfBusy} {
  validateText(o.text);
  const options = resolveJobOptions(o);
  if (o.via === undefined && options.notify) options.via = configuredVia(env) ?? 'auto';
  const ifBusy = resolveIfBusy(givenIfBusy(o), env);
  options.ifBusy = ifBusy;
  if (ifBusy === 'now' && o.stall !== undefined)
    throw new NudgeError(
      'bad-usage',
      '--stall watches the wait for the work to be done, and --if-busy now does not wait; give one of them.',
    );
  // A text handed to the agent's door is not waited on: config.toml's stall is not for it.
  options.stall =
    ifBusy === 'now'
      ? null
      : resolveStall(o, env, 'submit', {intervalMs: options.intervalMs, continues: true});
  options.notifySinks = resolveSinks(o.notify, env);
  return {options, ifBusy};
}

/** The pane the caller runs in and its session, as the job records who submitted it (absent:
 * the person; a pane of another host says so): the pane its process tree proves on the
 * target's server, else the one its environment claims. */
export async function submittedFrom(
  caller: AskerCaller,
  tmux: Tmux,
  target: PaneInfo,
): Promise<JobRecord['submittedFrom']> {
  const asker = await askerOf(caller);
  if (asker.kind === 'remote') return {socketPath: '', pane: asker.from};
  if (asker.kind !== 'local') return undefined;
  return askerPane(asker, target, () => tmux);
}
