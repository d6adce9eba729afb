import {join} from 'node:path';
import {onTestFinished} from 'vitest';
import {
  cleanEnv,
  endServer,
  MAIN_SESSION,
  serverPidOf,
  type TmuxClient,
  tmuxClient,
} from '../harness/private-tmux.js';
import {useTempDir} from './temp-dir.js';
import {waitFor} from './wait-for.js';

/** A private tmux server for one test: its own socket in a temp dir, no config file. It is
 * killed (by its own socket) when the test finishes; the user's server is never touched. */
export {cleanEnv, MAIN_SESSION};

export interface TmuxTestServer extends TmuxClient {
  /** Temp directory holding the socket; use it for the test's other files too. */
  dir: string;
  socket: string;
}

/** Start a private tmux server whose first pane runs `argv` (default: a plain bash). */
export async function startTmuxServer(
  argv: string[] = ['bash', '--norc', '--noprofile'],
): Promise<TmuxTestServer> {
  const dir = useTempDir('nudge-tmux-');
  const socket = join(dir, 'sock');
  // No history files: a bash (or less) killed with the server must not write ~/.bash_history
  // (~/.lesshst) into `dir` while it is being removed (ENOTEMPTY).
  const env = cleanEnv({PS1: '$ ', HOME: dir, HISTFILE: '', LESSHISTFILE: '-'});
  const client = tmuxClient(socket, env);
  await client.tmux(...MAIN_SESSION, ...argv);
  const pid = serverPidOf(socket, env);
  onTestFinished(() => endServer(socket, pid, env));
  return {dir, socket, ...client};
}

/** A client of `inner`, attached from a pane of another private server (a headless
 * terminal): the client's name (`#{client_name}`), and that terminal, whose pane %0 shows what
 * the client draws (the status bar on its last line). */
export async function attachTerminal(
  inner: TmuxTestServer,
): Promise<{client: string; terminal: TmuxTestServer}> {
  const terminal = await startTmuxServer(['tmux', '-S', inner.socket, 'attach', '-t', 'main']);
  const client = await waitFor('a client attached', async () => {
    const out = (await inner.tmux('list-clients', '-F', '#{client_name}')).trim();
    return out === '' ? undefined : out.split('\n')[0];
  });
  return {client, terminal};
}

/** A client of `inner` (attachTerminal), by name. */
export async function attachClient(inner: TmuxTestServer): Promise<string> {
  return (await attachTerminal(inner)).client;
}
