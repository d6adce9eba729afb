import type {CommandContext} from '../verbs/context.js';
import {
  type CommandFn,
  type HostOptions,
  type HostResult,
  JOB_VERBS,
  type OnHost,
  VERBS,
  type Verb,
} from './verbs.js';

export type {CommandFn} from './verbs.js';

/** Run a command where it was resolved to run: here (`local`, if given, stands in for it:
 * tests), or on `host` over ssh. */
export async function runOn<K extends Verb>(
  host: string | undefined,
  name: K,
  options: HostOptions<K>,
  ctx: CommandContext,
  local?: CommandFn<K>,
): Promise<OnHost<HostResult<K>>> {
  if (host === undefined) return runHere(name, options, ctx, local);
  const {callHost} = await import('./hosts.js');
  return callHost(host, name, options, ctx);
}

/** Run a command on this machine, through the one door of the commands that name a job: the
 * job must be within the caller's reach (for `nudge remote` too, whose caller's bound is in
 * its environment). */
export async function runHere<K extends Verb>(
  name: K,
  options: HostOptions<K>,
  ctx: CommandContext,
  local?: CommandFn<K>,
): Promise<OnHost<HostResult<K>>> {
  // Every command reads the state directory only where a writer would use it (not another
  // user's symlinked NUDGE_HOME); doctor reports instead (its state-dir line).
  if (name !== 'doctor') {
    const {readableStateDir} = await import('../base/paths.js');
    readableStateDir(ctx.env);
  }
  if (JOB_VERBS.has(name)) {
    const {checkJobReach} = await import('../jobs/job-reach.js');
    await checkJobReach(String((options as {job?: unknown}).job ?? ''), ctx);
  }
  const run = (local ?? (await VERBS[name]())) as (
    o: unknown,
    c: CommandContext,
  ) => Promise<OnHost<HostResult<K>>>;
  return run(options, ctx);
}
