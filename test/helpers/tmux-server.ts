import {join} from 'node:path';
import {execa} from 'execa';
import {onTestFinished} from 'vitest';
import {useTempDir} from './temp-dir.js';
import {waitFor} from './wait-for.js';

/** A private tmux server for one test: its own socket in a temp dir, no config file. It is
 * killed (by its own socket) when the test finishes; the user's server is never touched. */
export interface TmuxTestServer {
  /** Temp directory holding the socket; use it for the test's other files too. */
  dir: string;
  socket: string;
  /** Run a tmux command on this server; resolves to stdout. */
  tmux(...args: string[]): Promise<string>;
  /** Start `argv` in a new window; resolves to its pane id (`%N`). */
  newPane(argv: string[], opts?: {width?: number; height?: number}): Promise<string>;
  /** The visible screen of `pane`. */
  capture(pane: string): Promise<string>;
  /** Wait until `pane`'s screen matches `pattern`; on timeout the error shows the screen. */
  waitForScreen(pane: string, pattern: RegExp, timeoutMs?: number): Promise<string>;
}

/** An environment without any trace of the developer's tmux or nudge settings. */
export function cleanEnv(extra: Record<string, string> = {}): Record<string, string> {
  const env: Record<string, string> = {};
  for (const [k, v] of Object.entries(process.env)) {
    if (v === undefined || k === 'TMUX' || k === 'TMUX_PANE' || k.startsWith('NUDGE_')) continue;
    env[k] = v;
  }
  return {...env, ...extra};
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
  const tmux = async (...args: string[]) => {
    const r = await execa('tmux', ['-S', socket, '-f', '/dev/null', ...args], {
      env,
      extendEnv: false,
      reject: false,
    });
    if (r.failed) throw new Error(`tmux ${args.join(' ')} failed: ${r.stderr || r.shortMessage}`);
    return r.stdout;
  };
  await tmux('new-session', '-d', '-s', 'main', '-x', '120', '-y', '40', ...argv);
  onTestFinished(async () => {
    await execa('tmux', ['-S', socket, 'kill-server'], {reject: false, env, extendEnv: false});
  });
  const capture = (pane: string) => tmux('capture-pane', '-p', '-t', pane);
  return {
    dir,
    socket,
    tmux,
    capture,
    async newPane(paneArgv, opts = {}) {
      const id = await tmux('new-window', '-d', '-P', '-F', '#{pane_id}', ...paneArgv);
      if (opts.width || opts.height) {
        await tmux(
          'resize-window',
          '-t',
          id,
          '-x',
          String(opts.width ?? 120),
          '-y',
          String(opts.height ?? 40),
        );
      }
      return id.trim();
    },
    async waitForScreen(pane, pattern, timeoutMs = 20_000) {
      let last = '';
      return waitFor(
        `pane ${pane} to show ${pattern}`,
        async () => {
          last = await capture(pane).catch((e: Error) => `(capture failed: ${e.message})`);
          return pattern.test(last) ? last : undefined;
        },
        {timeoutMs, describe: () => last},
      );
    },
  };
}
