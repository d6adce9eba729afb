import {isErrorCode, NudgeError} from '../base/errors.js';
import {resolveStateDir} from '../base/paths.js';
import {hostOf, paneNamedThere} from '../remote/dest.js';
import {HostLink} from '../remote/link.js';
import type {RemoteMessage} from '../remote/protocol.js';
import {remoteSettings} from '../remote/settings.js';
import type {CommandContext} from './context.js';

/**
 * The commands that run where their pane or job is: on this machine, or with `--host H` (or
 * `$NUDGE_HOST`) on H, where `nudge remote` runs the same function on the same options
 * (src/commands/serve-remote.ts). Each entry loads its command only when called.
 */
export const HOST_COMMANDS = {
  submit: async () => (await import('./submit.js')).submit,
  wait: async () => (await import('./wait.js')).waitForIdle,
  expect: async () => (await import('./expect.js')).expectPattern,
  jobs: async () => (await import('./jobs.js')).listJobs,
  status: async () => (await import('./jobs.js')).showStatus,
  cancel: async () => (await import('./cancel.js')).cancelJob,
  logs: async () => (await import('./logs.js')).showLogs,
  run: async () => (await import('./run.js')).runInPane,
  'watch-start': async () => (await import('./watch.js')).startWatcher,
  'watch-report': async () => (await import('./watch.js')).reportWatcher,
  'watch-pause': async () => (await import('./watch.js')).pauseWatcher,
  'watch-clear': async () => (await import('./watch.js')).clearWatcher,
  'watch-show': async () => (await import('./watch.js')).showWatcher,
  'watch-list': async () => (await import('./watch.js')).listWatchers,
  doctor: async () => (await import('./doctor.js')).runDoctor,
} as const;

export type HostCommand = keyof typeof HOST_COMMANDS;
type CommandFn<K extends HostCommand> = Awaited<ReturnType<(typeof HOST_COMMANDS)[K]>>;
export type HostOptions<K extends HostCommand> = Parameters<CommandFn<K>>[0];
export type HostResult<K extends HostCommand> = Awaited<ReturnType<CommandFn<K>>>;

/** The commands that act on a pane named by the caller: with a host, it must be named. */
const PANE_COMMANDS: ReadonlySet<HostCommand> = new Set([
  'submit',
  'wait',
  'expect',
  'watch-start',
]);

/** Where a result came from: the host it ran on (absent: this machine). */
export type OnHost<R> = R & {host?: string};

/** `--host` as a command's option (the CLI's flag, the MCP tool's argument). */
export interface HostChoice {
  host?: string | undefined;
}

/**
 * Run a command here, or on the host given (`host`, else `$NUDGE_HOST`): the one switch every
 * front end goes through. `local` runs it here (tests pass a stand-in for submit).
 */
export async function onHost<K extends HostCommand>(
  ctx: CommandContext,
  name: K,
  options: HostOptions<K> & HostChoice,
  local?: CommandFn<K>,
): Promise<OnHost<HostResult<K>>> {
  const {host: given, ...rest} = options as HostOptions<K> & HostChoice;
  const host = hostOf(given, ctx.env);
  if (host !== undefined && PANE_COMMANDS.has(name))
    paneNamedThere({host, pane: (rest as {pane?: string}).pane}, ctx.env);
  if (!host) {
    const run = (local ?? (await HOST_COMMANDS[name]())) as (
      o: unknown,
      c: CommandContext,
    ) => Promise<OnHost<HostResult<K>>>;
    return run(rest, ctx);
  }
  return callHost(host, name, rest as HostOptions<K>, ctx);
}

/** The link to a host, with the user's `[remote]` settings. */
export function linkTo(host: string, ctx: CommandContext): HostLink {
  return new HostLink(host, {
    stateDir: resolveStateDir(ctx.env),
    settings: remoteSettings(ctx.env),
    env: ctx.env,
  });
}

/**
 * Run a command on another host and return its typed result, marked with the host. Its
 * error there is the same error here (the same code, so the same exit code), its sentence
 * prefixed with the host. `logs` comes back as lines, read as they arrive.
 */
export async function callHost<K extends HostCommand>(
  host: string,
  name: K,
  options: HostOptions<K>,
  ctx: CommandContext,
): Promise<OnHost<HostResult<K>>> {
  const session = await linkTo(host, ctx).open({command: name, options}, {signal: ctx.signal});
  const messages = session.messages[Symbol.asyncIterator]();
  if (name === 'logs') {
    return {host, lines: linesOf(host, messages, session.close)} as unknown as OnHost<
      HostResult<K>
    >;
  }
  try {
    for (;;) {
      const next = await messages.next();
      if (next.done) break;
      const m = next.value;
      if ('error' in m) throw remoteError(host, m.error);
      if ('result' in m) return withHost(host, name, m.result) as OnHost<HostResult<K>>;
    }
  } finally {
    await session.close();
  }
  throw new NudgeError('host-failed', `nudge on ${host} gave no answer.`);
}

async function* linesOf(
  host: string,
  messages: AsyncIterator<RemoteMessage>,
  close: () => Promise<void>,
): AsyncGenerator<string> {
  try {
    for (;;) {
      const next = await messages.next();
      if (next.done) return;
      const m = next.value;
      if ('line' in m) yield m.line;
      else if ('error' in m) throw remoteError(host, m.error);
      else if ('end' in m) return;
    }
  } finally {
    await close();
  }
}

/** An error told by another host's nudge: its code (so its exit code) and its sentence. */
function remoteError(host: string, e: {code: string; message: string}): NudgeError {
  return new NudgeError(isErrorCode(e.code) ? e.code : 'host-failed', `on ${host}: ${e.message}`);
}

/** Mark a result with its host; the jobs of a list each get it too. */
function withHost(host: string, name: HostCommand, result: unknown): unknown {
  if (typeof result !== 'object' || result === null) return result;
  const marked: Record<string, unknown> = {...(result as Record<string, unknown>), host};
  if (name === 'jobs' && Array.isArray(marked.jobs))
    marked.jobs = (marked.jobs as Record<string, unknown>[]).map((j) => ({...j, host}));
  return marked;
}
