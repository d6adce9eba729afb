/**
 * Shared by the demo and the benchmark: where the repository is, a private tmux server that
 * only the script itself uses, running the built CLI, and cleanup that also runs on failure
 * and on Ctrl-C. Never touches the user's default tmux server: every tmux call names the
 * private socket with -S, and every process is started with an argument array (no shell).
 */
import {execFileSync} from 'node:child_process';
import {existsSync, mkdtempSync, readFileSync, rmSync} from 'node:fs';
import {tmpdir} from 'node:os';
import {dirname, join} from 'node:path';
import {fileURLToPath} from 'node:url';
import {execa} from 'execa';
import {waitFor} from './wait-for.js';

/** The first session of every private server the tests start: `main`, 120×40, detached. */
export const MAIN_SESSION = ['new-session', '-d', '-s', 'main', '-x', '120', '-y', '40'];

/** The repository root: the nearest folder above this module whose package.json is ours.
 * Works both from test/harness (source) and from dist/test/harness (compiled). */
export function findRepoRoot(from = dirname(fileURLToPath(import.meta.url))): string {
  let dir = from;
  for (;;) {
    const manifest = join(dir, 'package.json');
    if (existsSync(manifest)) {
      const name = (JSON.parse(readFileSync(manifest, 'utf8')) as {name?: unknown}).name;
      if (name === 'tmux-nudge') return dir;
    }
    const parent = dirname(dir);
    if (parent === dir) throw new Error(`no tmux-nudge package.json above ${from}`);
    dir = parent;
  }
}

export const REPO_ROOT = findRepoRoot();
/** The built CLI (npm run demo / bench build first); `NUDGE_DEMO_CLI` names another one (the
 * packaging test runs the demo with the nudge installed from the packed tarball). */
export const CLI = process.env.NUDGE_DEMO_CLI || join(REPO_ROOT, 'dist', 'src', 'cli.js');
export const FIXTURES = join(REPO_ROOT, 'test', 'fixtures');

/** The environment for everything the scripts start: no trace of the caller's tmux or nudge
 * settings, so nothing can reach the user's own server or state. */
export function cleanEnv(extra: Record<string, string> = {}): Record<string, string> {
  const env: Record<string, string> = {};
  for (const [k, v] of Object.entries(process.env)) {
    if (v === undefined || k === 'TMUX' || k === 'TMUX_PANE' || k.startsWith('NUDGE_')) continue;
    env[k] = v;
  }
  return {...env, ...extra};
}

// ---------------------------------------------------------------------------------------------
// Cleanup that runs once, whether the script ends normally, throws, or is interrupted.

type CleanupStep = {label: string; run: () => void};
const cleanupSteps: CleanupStep[] = [];
let signalsHooked = false;

/** Run every registered cleanup step, newest first, each at most once. Synchronous, so it
 * can run from a signal handler and from `process.on('exit')`. */
export function runCleanup(): void {
  while (cleanupSteps.length > 0) {
    const step = cleanupSteps.pop()!;
    try {
      step.run();
    } catch (error) {
      process.stderr.write(`cleanup: ${step.label} failed: ${(error as Error).message}\n`);
    }
  }
}

/** Register a synchronous cleanup step. The first call also hooks SIGINT/SIGTERM/SIGHUP: on
 * one of them the steps run and the process exits 128+signal. */
export function onCleanup(label: string, run: () => void): void {
  cleanupSteps.push({label, run});
  if (signalsHooked) return;
  signalsHooked = true;
  const codes: Record<string, number> = {SIGINT: 130, SIGTERM: 143, SIGHUP: 129};
  for (const [signal, code] of Object.entries(codes)) {
    process.once(signal, () => {
      process.stderr.write(`\n${signal}: cleaning up...\n`);
      runCleanup();
      process.exit(code);
    });
  }
  process.once('exit', runCleanup);
}

const PAUSE = new Int32Array(new SharedArrayBuffer(4));

/** The pid of the tmux server on `socket` (undefined if it cannot be asked). */
export function serverPidOf(socket: string, env: Record<string, string>): number | undefined {
  try {
    const out = execFileSync('tmux', ['-S', socket, 'display-message', '-p', '#{pid}'], {
      env,
      timeout: 15_000,
      encoding: 'utf8',
    });
    const pid = Number.parseInt(out.trim(), 10);
    return Number.isSafeInteger(pid) && pid > 0 ? pid : undefined;
  } catch {
    return undefined;
  }
}

/**
 * End a test's tmux server: `kill-server` by its socket, then, if the process that served that
 * socket still runs (its command line names the socket: never another process that took the
 * pid), by its pid — a server must not outlive its test, whatever kept `kill-server` from
 * reaching it (the full CI found one alive with its folder gone). Says so on stderr when the
 * pid was needed.
 */
export function endServer(socket: string, pid: number | undefined, env: Record<string, string>) {
  try {
    execFileSync('tmux', ['-S', socket, 'kill-server'], {stdio: 'ignore', env, timeout: 15_000});
  } catch {
    // not running any more, or not answering: the pid below
  }
  if (pid === undefined) return;
  // A server told to exit takes a moment to: given up to 5 s before it is ended by its pid.
  const serving = () => {
    try {
      const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
      return (
        !/^\S+ \(.*\) Z/.test(stat) && readFileSync(`/proc/${pid}/cmdline`, 'utf8').includes(socket)
      );
    } catch {
      return false;
    }
  };
  const deadline = Date.now() + 5_000;
  while (serving() && Date.now() < deadline) Atomics.wait(PAUSE, 0, 0, 20);
  if (!serving()) return;
  try {
    process.kill(pid, 'SIGKILL');
    process.stderr.write(`tmux server ${pid} (${socket}) outlived kill-server: ended by its pid\n`);
  } catch {
    // gone meanwhile
  }
}

/** A temp directory removed at cleanup. */
export function makeTempDir(prefix: string): string {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  // Retries: a process ending with the cleanup (a pane's shell) may still write into it.
  onCleanup(`remove ${dir}`, () => rmSync(dir, {recursive: true, force: true, maxRetries: 3}));
  return dir;
}

// ---------------------------------------------------------------------------------------------
// The private tmux server.

export interface PrivateTmux {
  socket: string;
  /** Run `tmux -S <socket> ...args`; resolves to stdout, rejects with tmux's stderr. */
  tmux(...args: string[]): Promise<string>;
  /** Start `argv` in a new detached window; resolves to its pane id (`%N`). */
  newPane(argv: string[], size?: {width: number; height: number}): Promise<string>;
  /** The visible screen of `pane`, trailing blank lines dropped. */
  capture(pane: string): Promise<string>;
  /** Poll until `pane`'s screen matches `pattern`; throws with the last screen on timeout. */
  waitForScreen(pane: string, pattern: RegExp, timeoutMs?: number): Promise<string>;
  /** Kill this server (by its socket). Idempotent. */
  kill(): void;
}

/** Start a private tmux server (socket `dir/sock`, no config file) whose first window runs
 * `argv`; its kill is registered as a cleanup step. Returns the server and that first pane. */
export async function startPrivateTmux(
  dir: string,
  argv: string[],
  size = {width: 100, height: 24},
): Promise<{server: PrivateTmux; pane: string}> {
  const socket = join(dir, 'sock');
  // HISTFILE empty: a bash killed with the server must not write ~/.bash_history into `dir`
  // while the cleanup removes it (ENOTEMPTY).
  const env = cleanEnv({HOME: dir, PS1: '$ ', HISTFILE: '', LESSHISTFILE: '-'});
  let killed = false;
  let pid: number | undefined;
  const kill = () => {
    if (killed) return;
    killed = true;
    endServer(socket, pid, env);
  };
  const tmux = async (...args: string[]) => {
    const r = await execa('tmux', ['-S', socket, '-f', '/dev/null', ...args], {
      env,
      extendEnv: false,
      reject: false,
      stdin: 'ignore',
      timeout: 15_000,
    });
    if (r.failed) throw new Error(`tmux ${args[0] ?? ''} failed: ${r.stderr || r.shortMessage}`);
    return r.stdout;
  };
  onCleanup(`kill tmux server ${socket}`, kill);
  const first = await tmux(
    'new-session',
    '-d',
    '-P',
    '-F',
    '#{pane_id}',
    '-x',
    String(size.width),
    '-y',
    String(size.height),
    ...argv,
  );
  pid = serverPidOf(socket, env);
  const capture = async (pane: string) =>
    (await tmux('capture-pane', '-p', '-t', pane)).replace(/(\n[ \t]*)+$/, '');
  const server: PrivateTmux = {
    socket,
    tmux,
    kill,
    capture,
    async newPane(paneArgv, paneSize = size) {
      const id = (await tmux('new-window', '-d', '-P', '-F', '#{pane_id}', ...paneArgv)).trim();
      await tmux(
        'resize-window',
        '-t',
        id,
        '-x',
        String(paneSize.width),
        '-y',
        String(paneSize.height),
      );
      return id;
    },
    async waitForScreen(pane, pattern, timeoutMs = 15_000) {
      const deadline = Date.now() + timeoutMs;
      let last = '';
      for (;;) {
        last = await capture(pane).catch((e: Error) => `(capture failed: ${e.message})`);
        if (pattern.test(last)) return last;
        if (Date.now() >= deadline) {
          throw new Error(`pane ${pane} did not show ${pattern} within ${timeoutMs} ms:\n${last}`);
        }
        await sleep(50);
      }
    },
  };
  return {server, pane: first.trim()};
}

/** What a test does with a tmux server: commands, new panes, screens. */
export interface TmuxClient {
  /** Run `tmux -S <socket> -f /dev/null ...args`; resolves to stdout, rejects with stderr. */
  tmux(...args: string[]): Promise<string>;
  /** Start `argv` in a new detached window (resized when a size is given); its pane id. */
  newPane(argv: string[], opts?: {width?: number; height?: number}): Promise<string>;
  /** The visible screen of `pane`, as tmux prints it. */
  capture(pane: string): Promise<string>;
  /** Wait until `pane`'s screen matches `pattern`; on timeout the error shows the screen. */
  waitForScreen(pane: string, pattern: RegExp, timeoutMs?: number): Promise<string>;
}

/** A client of the tmux server at `socket`, every command run with `env` alone (no trace of
 * the caller's environment). `where` names the server in timeout messages (` on alpha`). */
export function tmuxClient(socket: string, env: Record<string, string>, where = ''): TmuxClient {
  const tmux = async (...args: string[]) => {
    const r = await execa('tmux', ['-S', socket, '-f', '/dev/null', ...args], {
      env,
      extendEnv: false,
      reject: false,
    });
    if (r.failed) throw new Error(`tmux ${args.join(' ')} failed: ${r.stderr || r.shortMessage}`);
    return r.stdout;
  };
  const capture = (pane: string) => tmux('capture-pane', '-p', '-t', pane);
  return {
    tmux,
    capture,
    async newPane(argv, opts = {}) {
      const id = (await tmux('new-window', '-d', '-P', '-F', '#{pane_id}', ...argv)).trim();
      if (opts.width || opts.height) {
        const [x, y] = [String(opts.width ?? 120), String(opts.height ?? 40)];
        await tmux('resize-window', '-t', id, '-x', x, '-y', y);
      }
      return id;
    },
    async waitForScreen(pane, pattern, timeoutMs = 20_000) {
      let last = '';
      return waitFor(
        `pane ${pane}${where} to show ${pattern}`,
        async () => {
          last = await capture(pane).catch((e: Error) => `(capture failed: ${e.message})`);
          return pattern.test(last) ? last : undefined;
        },
        {timeoutMs, describe: () => last},
      );
    },
  };
}

// ---------------------------------------------------------------------------------------------
// Small helpers.

export const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

export interface CliRun {
  exitCode: number | undefined;
  stdout: string;
  stderr: string;
  /** Wall time from spawn to exit with both output pipes closed, in ms. */
  ms: number;
}

/** Run the built `nudge` CLI with `env` (already clean). */
export async function runCli(
  args: string[],
  env: Record<string, string>,
  timeoutMs = 60_000,
  node = process.execPath,
): Promise<CliRun> {
  const started = performance.now();
  const r = await execa(node, [CLI, ...args], {
    env,
    extendEnv: false,
    reject: false,
    stdin: 'ignore',
    timeout: timeoutMs,
  });
  return {
    exitCode: r.exitCode,
    stdout: r.stdout,
    stderr: r.stderr,
    ms: performance.now() - started,
  };
}

/** The tmux version line (`tmux 3.3a`), or "unknown". */
export function tmuxVersion(): string {
  try {
    return execFileSync('tmux', ['-V'], {encoding: 'utf8'}).trim();
  } catch {
    return 'unknown';
  }
}

/** Fail early with one plain sentence when tmux or the build is missing. */
export function checkPrerequisites(): void {
  if (tmuxVersion() === 'unknown') {
    throw new Error(
      'tmux is not installed or not on PATH; run scripts/setup.sh (or apt-get install tmux).',
    );
  }
  if (!existsSync(CLI)) throw new Error(`${CLI} is missing; run "npm run build" first.`);
}
