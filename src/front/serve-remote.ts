import {createInterface} from 'node:readline';
import {describeError, EXIT_CODES, type ExitCode, isErrorCode, NudgeError} from '../base/errors.js';
import {thisProcess} from '../base/this-process.js';
import {nudgeVersion} from '../base/version.js';
import {REMOTE_ASKER_VAR, remoteAskerOf} from '../pane/reach.js';
import {parseRequest, REMOTE_PROTOCOL, type RemoteMessage} from '../remote/protocol.js';
import type {CommandContext} from '../verbs/context.js';
import {runHere} from './run-on.js';
import {VERBS, type Verb} from './verbs.js';

/**
 * `nudge remote`: the far end of `--host` (src/remote/protocol.ts). Says hello, reads one
 * request from stdin, runs the command here — the same function the CLI runs, with this
 * machine's state, tmux and environment — and writes its answer. The end of stdin means the
 * caller went away: a wait, an expect or a follow stops then. Never runs anything on another
 * host (a request's own `host` is not read).
 */
export async function serveRemote(
  io: {stdin: NodeJS.ReadableStream; stdout: NodeJS.WritableStream},
  ctx: CommandContext,
): Promise<ExitCode> {
  const send = (m: RemoteMessage) => io.stdout.write(`${JSON.stringify(m)}\n`);
  send({
    hello: {
      nudge: nudgeVersion(),
      protocol: REMOTE_PROTOCOL,
      node: thisProcess.nodeVersion,
      platform: thisProcess.platform,
    },
  });
  const gone = new AbortController();
  const lines = createInterface({input: io.stdin, crlfDelay: Number.POSITIVE_INFINITY});
  const first = await new Promise<string | undefined>((resolve) => {
    lines.once('line', resolve);
    lines.once('close', () => resolve(undefined));
  });
  // After the request, the caller only closes its end: that is the signal to stop.
  lines.on('close', () => gone.abort());
  if (first === undefined) return EXIT_CODES.usage;
  const fail = (code: string, message: string): ExitCode => {
    send({error: {code, message}});
    return isErrorCode(code) ? new NudgeError(code, message).exitCode : EXIT_CODES.failure;
  };
  const request = parseRequest(first);
  if (typeof request === 'string') return fail('bad-usage', `nudge remote: ${request}.`);
  if (request.nudge !== nudgeVersion())
    return fail(
      'host-version',
      `this host runs nudge ${nudgeVersion()}, the caller ${request.nudge}: install one version on both.`,
    );
  if (!Object.hasOwn(VERBS, request.command))
    return fail('bad-usage', `nudge remote: no command ${JSON.stringify(request.command)}.`);
  const {host: _ignored, ...options} = request.options as Record<string, unknown>;
  // The caller's bound, applied here as a local door applies a pane's (src/pane/reach.ts).
  const asker = remoteAskerOf(request.asker);
  const {TMUX: _t, TMUX_PANE: _p, [REMOTE_ASKER_VAR]: _a, ...env} = ctx.env;
  const c: CommandContext = {
    ...ctx,
    env: asker.kind === 'person' ? env : {...env, [REMOTE_ASKER_VAR]: JSON.stringify(asker)},
    signal: AbortSignal.any([ctx.signal, gone.signal]),
  };
  try {
    const result: unknown = await runHere(request.command as Verb, options as never, c);
    if (request.command === 'logs') {
      for await (const line of (result as {lines: AsyncIterable<string>}).lines) {
        if (gone.signal.aborted) break;
        send({line});
      }
      send({end: true});
    } else send({result});
    lines.close();
    return EXIT_CODES.ok;
  } catch (error) {
    lines.close();
    if (error instanceof NudgeError) return fail(error.code, error.message);
    return fail('host-failed', `nudge failed: ${describeError(error)}`);
  }
}
