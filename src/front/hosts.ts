/** Another host, reached over ssh: the link (its shared connection) and a command run there. */
import {isErrorCode, NudgeError} from '../base/errors.js';
import {resolveStateDir} from '../base/paths.js';
import {askerOf, wireAskerOf} from '../pane/asker.js';
import {checkHostGrant} from '../pane/reach.js';
import {HostLink} from '../remote/link.js';
import type {RemoteMessage} from '../remote/protocol.js';
import {remoteSettings} from '../remote/settings.js';
import type {CommandContext} from '../verbs/context.js';
import type {HostOptions, HostResult, OnHost, Verb} from './verbs.js';

/**
 * The link to a host, with the user's `[remote]` settings — once the caller may reach it: a
 * nudge that runs in a pane reaches a host only when config.toml's `[submit] hosts` names it,
 * and that is checked here, before ssh starts, so nothing of the request (its text, a pane or
 * a job id) leaves for an ungranted host (exit 2). The host's `nudge remote` checks again.
 */
export async function linkTo(host: string, ctx: CommandContext): Promise<HostLink> {
  const asker = wireAskerOf(await askerOf(ctx), ctx.env, host);
  checkHostGrant(asker, `--host ${host}`);
  return new HostLink(host, {
    stateDir: resolveStateDir(ctx.env),
    settings: remoteSettings(ctx.env),
    env: ctx.env,
    asker,
  });
}

/**
 * Run a command on another host and return its typed result, marked with the host. Its
 * error there is the same error here (the same code, so the same exit code), its sentence
 * prefixed with the host. `logs` comes back as lines, read as they arrive.
 */
export async function callHost<K extends Verb>(
  host: string,
  name: K,
  options: HostOptions<K>,
  ctx: CommandContext,
): Promise<OnHost<HostResult<K>>> {
  const session = await (await linkTo(host, ctx)).open(
    {command: name, options},
    {signal: ctx.signal},
  );
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
function withHost(host: string, name: Verb, result: unknown): unknown {
  if (typeof result !== 'object' || result === null) return result;
  const marked: Record<string, unknown> = {...(result as Record<string, unknown>), host};
  if (name === 'jobs' && Array.isArray(marked.jobs))
    marked.jobs = (marked.jobs as Record<string, unknown>[]).map((j) => ({...j, host}));
  return marked;
}
