import type {ChildProcess} from 'node:child_process';
import {startPipeGuard} from '../process/waiter-guard.js';
import type {ControlBlock} from './control-parser.js';
import type {ControlClosed} from './control-types.js';
import {classifyTmuxFailure, TmuxCommandError} from './runner.js';
import {type ServerSpec, serverArgs} from './server.js';

// The control client's replies read as the spawn runner's would be, and the guard that ends
// the client when its owner dies: the parts of control-runner.ts that hold no state.

/**
 * The control client's arguments: `tmux <server flags> -N -C attach-session -E -t <$id>
 * -f ignore-size[,pause-after=N]` (control-runner.ts says why each flag).
 */
export function controlClientArgs(
  spec: ServerSpec,
  sessionId: string,
  pauseAfterSeconds: number | undefined,
): string[] {
  const flags = ['ignore-size'];
  if (pauseAfterSeconds !== undefined) {
    flags.push(`pause-after=${Math.max(1, Math.round(pauseAfterSeconds))}`);
  }
  return [
    ...serverArgs(spec),
    '-N',
    '-C',
    'attach-session',
    '-E',
    '-t',
    sessionId,
    '-f',
    flags.join(','),
  ];
}

/** Whether a child process (and its pipes) keeps Node's event loop alive. */
export function keepAlive(child: ChildProcess, on: boolean): void {
  for (const handle of [child, child.stdout, child.stderr, child.stdin]) {
    const h = handle as {ref?: () => void; unref?: () => void} | null;
    if (on) h?.ref?.();
    else h?.unref?.();
  }
}

/** Resolves true once `promise` has settled, false after `ms`. */
export async function settlesWithin(promise: Promise<unknown>, ms: number): Promise<boolean> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<boolean>((resolve) => {
    timer = setTimeout(resolve, ms, false);
  });
  try {
    return await Promise.race([promise.then(() => true), timeout]);
  } finally {
    clearTimeout(timer);
  }
}

/**
 * Why the client ended on `%exit [reason]`: plain `%exit`, the session was killed or the
 * client detached; "server exited unexpectedly", the server died. Either way nothing more can
 * run there (no-server). Other reasons ("too far behind") mean the server lives on.
 */
export function closedByExit(reason: string): [ControlClosed, TmuxCommandError['kind']] {
  const detail = reason
    ? `tmux ended the control client: ${reason}`
    : 'tmux ended the control client (its session or server is gone, or it was detached)';
  const gone = reason === '' || classifyTmuxFailure(reason) === 'no-server';
  return [{reason: 'exit', detail}, gone ? 'no-server' : 'other'];
}

/** Classify the client's stderr, or use `fallback` when it says nothing recognisable. */
export function classifyOr(
  stderr: string,
  fallback: TmuxCommandError['kind'],
): TmuxCommandError['kind'] {
  const kind = classifyTmuxFailure(stderr);
  return kind === 'other' ? fallback : kind;
}

/** What the spawn runner would have printed: each command's output lines, each ending in
 * a newline (no output, no newline). */
export function stdoutOf(blocks: readonly ControlBlock[]): string {
  let out = '';
  for (const block of blocks) for (const line of block.lines) out += `${line}\n`;
  return out;
}

/** The failure the spawn runner would have reported for the same stderr text. */
export function errorOf(label: string, block: ControlBlock): TmuxCommandError {
  const text = block.lines.join('\n').trim();
  return new TmuxCommandError(
    classifyTmuxFailure(text),
    text,
    `tmux ${label} failed: ${text || 'error without a message'}`,
  );
}

/** After the client process exits, how long we keep reading stdout for replies already
 * written before failing what is pending. */
const EXIT_DRAIN_MS = 200;

/**
 * Resolves once the tmux client `child` has ended, after telling `on`: `failed` when it could
 * not start (tmux not on PATH), `ended` with how it exited. 'close' comes once the process has
 * exited and its pipes are read to the end, so replies already written are parsed before
 * anything pending is failed; the server holds our stdout too, so should it keep it open,
 * EXIT_DRAIN_MS after 'exit' is the end.
 */
export function whenClientEnds(
  child: ChildProcess,
  tmuxBinary: string,
  on: {failed(detail: string, kind: TmuxCommandError['kind']): void; ended(how: string): void},
): Promise<void> {
  return new Promise((resolve) => {
    child.on('error', (error: NodeJS.ErrnoException) => {
      const kind = classifyTmuxFailure('', error.code);
      on.failed(kind === 'no-tmux' ? `${tmuxBinary} was not found on PATH` : error.message, kind);
      resolve();
    });
    let drain: NodeJS.Timeout | undefined;
    const ended = (code: number | null, signal: NodeJS.Signals | null) => {
      clearTimeout(drain);
      on.ended(signal ? `was killed by ${signal}` : `exited with code ${code}`);
      resolve();
    };
    child.on('close', ended);
    child.on('exit', (code, signal) => {
      drain = setTimeout(ended, EXIT_DRAIN_MS, code, signal);
    });
  });
}

/** The guard's whole program: wait for EOF on stdin (our end closes however we die), then
 * kill the tmux client. Only a pid is passed, as "$1"; no text of ours reaches the shell. */
const GUARD_SCRIPT = 'read ignored; kill -KILL "$1" 2>/dev/null';

/**
 * Start a tiny `sh` that kills the tmux client `clientPid` when this process dies without
 * closing it.
 *
 * Why: stdin EOF is not enough. tmux 3.3a only lets a control client go once everything it
 * queued for it has been written (server_client_check_exit waits for control_all_done). If
 * we die while pane output is queued for us, nobody can read it, so the client never exits:
 * it stays attached, and when it is the only client on the server tmux stops reading the
 * busy pane (server_client_check_pane_buffer), freezing the program in it; kill-server then
 * hangs too, and nothing in tmux times this out. Tested: after SIGKILL of a worker, a `seq`
 * in the pane stopped and the client stayed. Killing the client process ends it all (the
 * server drops a client whose process is gone).
 *
 * The guard is killed as soon as the client exits, so it never signals a reused pid in
 * practice. If /bin/sh cannot start, we run without a guard.
 */
export function startGuard(clientPid: number): ChildProcess | undefined {
  return startPipeGuard(GUARD_SCRIPT, ['nudge-control-guard', String(clientPid)]);
}

/** A reply timer that fires this much after it was due was held up by this process's own
 * stop (SIGSTOP, a machine asleep), not by tmux. */
export const LATE_TIMER_MS = 1_000;

/** Why the control client died, with what it said on stderr. */
export function diedDetail(stderr: string, how: string): string {
  const said = stderr.trim();
  return said ? `the tmux control client ${how}: ${said}` : `the tmux control client ${how}`;
}

/** The error a call gets once the client is over. */
export function closedError(
  closed: ControlClosed | undefined,
  kind: TmuxCommandError['kind'],
  stderr: string,
  label: string,
): TmuxCommandError {
  const detail = closed?.detail ?? 'the control client was closed';
  return new TmuxCommandError(kind, stderr.trim(), `tmux ${label} failed: ${detail}`);
}

/** The control client's bounds. */
export const START_TIMEOUT_MS = 10_000;
/** Same bound as the spawn runner's per-command timeout. */
export const REPLY_TIMEOUT_MS = 15_000;
/** How many times a closing client waits out a busy mutex before leaving unserialized. */
export const CLOSE_MUTEX_TRIES = 4;
/** After stdin EOF, how long the client gets to exit before SIGTERM, then SIGKILL. */
export const CLOSE_GRACE_MS = 2_000;
/** Keep the client's last stderr for error messages. */
export const STDERR_KEEP_CHARS = 4_096;
