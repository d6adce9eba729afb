import {ControlClient, UNSERIALIZED} from './control-runner.js';
import type {ControlRunner, ControlRunnerOptions} from './control-types.js';
import {TmuxCommandError} from './runner.js';
import type {ServerSpec} from './server.js';

/**
 * Starting a control client: its session checked, its start serialized per server, resolved
 * once tmux answered its attach.
 */

/** After a failed start, how long the section waits for the client to be gone. */
export const START_FAILED_EXIT_MS = 5_000;

/**
 * Start one `tmux <server flags> -N -C attach-session -E -t <$id> -f ignore-size` client and
 * resolve to a runner over it once tmux has answered the attach; reject with a
 * TmuxCommandError if it cannot attach (no tmux, no server, no such session).
 *
 * Flags, each for a reason: `-N` never starts a server (attach-session would otherwise start
 * one, reading the user's config); `-E` does not apply update-environment, which would
 * otherwise copy our DISPLAY, SSH_AUTH_SOCK, ... into the user's session or clear them there
 * when we lack them (tested); `-t $id` leaves the active window and pane alone;
 * `ignore-size` keeps the client out of window sizing. We never send `refresh-client -C`.
 *
 * The client never outlives this process: when it ends, even by SIGKILL, the client's stdin
 * closes (which ends an idle client) and, once the client has attached, a guard process
 * kills it (which ends one that tmux still has output queued for; see startGuard). Nothing
 * signals the client before it has attached: that can crash tmux 3.3a (#signalClient).
 * It does not keep Node's event loop alive while idle (a pending run() does), so a worker
 * that forgets close() still exits.
 */
export async function createControlRunner(
  spec: ServerSpec,
  opts: ControlRunnerOptions,
): Promise<ControlRunner> {
  if (!/^\$\d+$/.test(opts.sessionId)) {
    throw new TmuxCommandError(
      'other',
      '',
      `a control client attaches by session id ($N), got ${JSON.stringify(opts.sessionId)}`,
    );
  }
  return (opts.mutex ?? UNSERIALIZED).run(async () => {
    const client = new ControlClient(spec, opts);
    try {
      await client.attached;
    } catch (error) {
      // Leave the section only once the client is gone: a client that timed out may still
      // be starting, and must not meet another one's arrival (see `mutex`).
      await client.exitedWithin(START_FAILED_EXIT_MS);
      throw error;
    }
    return client;
  });
}
