import {createInterface} from 'node:readline';
import {execa} from 'execa';

/** How a piped process ended. */
export interface PipedEnd {
  exitCode: number | undefined;
  signal: string | undefined;
  /** What it wrote to stderr (its last 64 KiB). */
  stderr: string;
  /** It could not be started (not found, not executable): why, in one line. */
  startError: string | undefined;
}

/** A process we talk to in lines: its stdin stays open until `end`, its stdout comes as
 * lines, and `ended` settles (never rejects) when it has exited. */
export interface Piped {
  write(line: string): void;
  /** Close its stdin. */
  end(): void;
  lines: AsyncIterable<string>;
  ended: Promise<PipedEnd>;
}

const STDERR_KEPT = 64 * 1024;

/**
 * Start `file` with `args` (an argument array: no shell sees them) with its stdin and stdout
 * as pipes: a conversation (`ssh HOST nudge remote`: a request in, messages out). `signal`
 * stops it (SIGTERM, SIGKILL 2 s later).
 */
export function startPiped(
  file: string,
  args: readonly string[],
  o: {signal: AbortSignal; env?: Record<string, string | undefined> | undefined},
): Piped {
  const child = execa(file, args, {
    stdin: 'pipe',
    stdout: 'pipe',
    stderr: 'pipe',
    buffer: false,
    reject: false,
    cancelSignal: o.signal,
    forceKillAfterDelay: 2_000,
    ...(o.env ? {env: o.env, extendEnv: false} : {}),
  });
  let stderr = '';
  child.stderr?.setEncoding('utf8');
  child.stderr?.on('data', (chunk: string) => {
    stderr = (stderr + chunk).slice(-STDERR_KEPT);
  });
  // A process that exits before reading its stdin must not fail us with EPIPE.
  child.stdin?.on('error', () => {});
  const ended = child.then((r) => {
    const notFound = r.failed && r.exitCode === undefined && !r.signal && !r.isCanceled;
    return {
      exitCode: r.exitCode,
      signal: r.signal,
      stderr,
      startError: notFound ? (r.shortMessage ?? '').split('\n')[0] : undefined,
    };
  });
  const lines = child.stdout
    ? createInterface({input: child.stdout, crlfDelay: Number.POSITIVE_INFINITY})
    : (async function* () {})();
  return {
    write: (line) => {
      child.stdin?.write(`${line}\n`);
    },
    end: () => {
      child.stdin?.end();
    },
    lines,
    ended,
  };
}
