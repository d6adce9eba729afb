import type {CommandContext} from '../commands/context.js';
import {
  type CommandFn,
  HOST_COMMANDS,
  type HostCommand,
  type HostOptions,
  type HostResult,
  type OnHost,
} from './commands.js';

export type {CommandFn} from './commands.js';

/** Run a command where it was resolved to run: here (`local`, if given, stands in for it:
 * tests), or on `host` over ssh. */
export async function runOn<K extends HostCommand>(
  host: string | undefined,
  name: K,
  options: HostOptions<K>,
  ctx: CommandContext,
  local?: CommandFn<K>,
): Promise<OnHost<HostResult<K>>> {
  if (host === undefined) {
    const run = (local ?? (await HOST_COMMANDS[name]())) as (
      o: unknown,
      c: CommandContext,
    ) => Promise<OnHost<HostResult<K>>>;
    return run(options, ctx);
  }
  const {callHost} = await import('./hosts.js');
  return callHost(host, name, options, ctx);
}
