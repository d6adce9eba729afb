import {execa} from 'execa';
import {realClock} from '../base/clock.js';
import {isNonPosixShellName} from '../base/shell.js';

/**
 * Running other people's commands — the watcher's `--bash-wait` and `--assess-cmd`, later
 * `nudge run` and doctor checks — captured and bounded. execa here (and not on the front
 * end's path, where importing it costs more than the whole budget: docs/benchmarks.md)
 * because these need what it does well: a timeout that ends the child, cancellation by
 * AbortSignal, stdout and stderr interleaved in one `all` stream, a size bound, and a result
 * rather than an exception (`reject: false`).
 */

/** How to run one command. */
export interface RunCommandOptions {
  /** Written to the command's stdin, which is then closed ('' or undefined: nothing). */
  input?: string | undefined;
  /** A file whose bytes are the command's stdin (instead of `input`). */
  inputFile?: string | undefined;
  /** Killed (SIGTERM, then SIGKILL after 2 s) after this long. */
  timeoutMs: number;
  /** Output beyond this many bytes is dropped (the command is stopped). */
  maxBytes: number;
  /** Stop the command (SIGTERM) when this fires. */
  signal: AbortSignal;
  env?: Record<string, string | undefined> | undefined;
  /** Variables set on top of this process's environment (when `env` is not given). */
  addEnv?: Record<string, string> | undefined;
  cwd?: string | undefined;
}

/** How a command run to its end went. Never thrown: every end is a value. */
export interface CommandRun {
  /** The exit status, when it exited (undefined when killed by a signal or never started). */
  exitCode: number | undefined;
  /** The signal that ended it, if one did. */
  signal: string | undefined;
  timedOut: boolean;
  cancelled: boolean;
  /** The command could not be started (not found, not executable): why, in one line. */
  startError: string | undefined;
  /** stdout (and with `merged`, stderr interleaved), as text. */
  output: string;
  /** stderr on its own (empty when `merged`). */
  stderr: string;
  /** The output was cut at `maxBytes`. */
  truncated: boolean;
  durationMs: number;
}

/**
 * Run `file` with `args` (an argument array: no shell sees them) to its end. `merged`: stdout
 * and stderr as one stream in the order written (a `--bash-wait` transcript); otherwise
 * stdout is the answer and stderr kept apart (an assessor's JSON).
 */
export async function runCommand(
  file: string,
  args: readonly string[],
  o: RunCommandOptions & {merged: boolean},
): Promise<CommandRun> {
  const started = realClock.now();
  // Merged output is a transcript: a long build may print far more than is kept, and must not
  // be stopped for it, so only its last `maxBytes` are kept. An answer (not merged) over
  // `maxBytes` is wrong anyway: the command is stopped.
  const subprocess = execa(file, args, {
    ...(o.inputFile ? {inputFile: o.inputFile} : {input: o.input ?? ''}),
    timeout: o.timeoutMs,
    cancelSignal: o.signal,
    reject: false,
    stripFinalNewline: false,
    forceKillAfterDelay: 2_000,
    ...(o.merged ? {all: true, buffer: false} : {maxBuffer: o.maxBytes}),
    ...(o.env ? {env: o.env, extendEnv: false} : o.addEnv ? {env: o.addEnv} : {}),
    ...(o.cwd ? {cwd: o.cwd} : {}),
  });
  const tail = o.merged ? keepTail(subprocess.all, o.maxBytes) : undefined;
  const r = await subprocess;
  const text = (v: unknown) => (typeof v === 'string' ? v : '');
  const notFound = r.failed && r.exitCode === undefined && !r.signal && !r.timedOut;
  const kept = tail?.text() ?? '';
  return {
    exitCode: r.exitCode,
    signal: r.signal,
    timedOut: r.timedOut,
    cancelled: r.isCanceled,
    startError:
      notFound && !r.isCanceled && !r.isMaxBuffer ? firstLine(r.shortMessage ?? '') : undefined,
    output: o.merged ? kept : text(r.stdout),
    stderr: o.merged ? '' : text(r.stderr),
    truncated: o.merged ? (tail?.dropped() ?? false) : r.isMaxBuffer,
    durationMs: realClock.now() - started,
  };
}

/** Keep the last `maxBytes` of a stream. */
function keepTail(
  stream: NodeJS.ReadableStream | null | undefined,
  maxBytes: number,
): {text: () => string; dropped: () => boolean} {
  let chunks: Buffer[] = [];
  let size = 0;
  let dropped = false;
  stream?.on('data', (chunk: Buffer | string) => {
    const b = typeof chunk === 'string' ? Buffer.from(chunk) : chunk;
    chunks.push(b);
    size += b.length;
    if (size > 2 * maxBytes) {
      const all = Buffer.concat(chunks);
      chunks = [all.subarray(all.length - maxBytes)];
      size = maxBytes;
      dropped = true;
    }
  });
  return {
    text: () => {
      const all = Buffer.concat(chunks);
      if (all.length > maxBytes) dropped = true;
      // Cut at a character boundary: drop continuation bytes at the start.
      let cut = all.subarray(Math.max(0, all.length - maxBytes));
      while (cut.length > 0 && ((cut[0] ?? 0) & 0xc0) === 0x80) cut = cut.subarray(1);
      return cut.toString('utf8');
    },
    dropped: () => dropped,
  };
}

function firstLine(s: string): string {
  return s.split('\n')[0] ?? s;
}

/**
 * The user's login shell, which runs `--bash-wait` and the assessor command (`$SHELL -lc`):
 * its profile sets PATH as the user's terminal has it (Homebrew's folders first on macOS,
 * where `bash -l` would read /etc/profile's path_helper order under Apple's bash 3.2).
 * `$SHELL` when it is an absolute path and not a shell known to read another syntax, else
 * bash: the scripts nudge hands it
 * (`-lc 'exec "$0" "$@"'`, a `--bash-wait` line) are POSIX, which a fish, nu or tcsh user's own
 * shell would read otherwise (issue 46).
 */
export function loginShell(env: Record<string, string | undefined>): string {
  const shell = env.SHELL;
  return shell?.startsWith('/') && !isNonPosixShellName(shell) ? shell : 'bash';
}

/** The argv that runs `argv` itself (no shell reads its words) under the user's login shell:
 * `$SHELL -lc 'exec "$0" "$@"' FILE ARGS…`. */
export function underLoginShell(
  env: Record<string, string | undefined>,
  argv: readonly string[],
): [string, string[]] {
  return [loginShell(env), ['-lc', 'exec "$0" "$@"', ...argv]];
}
