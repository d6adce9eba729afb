import {runFile} from '../process/spawn.js';
import {type ServerSpec, serverArgs} from './server.js';

/** Why a tmux command failed, as far as callers need to tell cases apart. */
export type TmuxFailureKind =
  | 'no-tmux'
  | 'no-server'
  | 'no-access'
  | 'no-target'
  | 'too-long'
  | 'other';

/** A tmux command that did not succeed; `server`, the server it was sent to (so that a front
 * end can say "no server" in one sentence for every command: src/pane/target.ts). */
export class TmuxCommandError extends Error {
  override name = 'TmuxCommandError';
  constructor(
    readonly kind: TmuxFailureKind,
    readonly stderr: string,
    message: string,
    readonly server?: ServerSpec,
  ) {
    super(message);
  }
}

/** Runs one tmux command line (possibly several commands chained with `;` arguments). The
 * transport seam: the spawn-per-command runner lives here, others can follow. */
export interface TmuxRunner {
  /** Run `tmux <server flags> ...args`; resolves to stdout, rejects with TmuxCommandError. */
  run(args: readonly string[]): Promise<string>;
}

/** How long one tmux command may take before we call the server hung. */
const TMUX_COMMAND_TIMEOUT_MS = 15_000;

/** Classify tmux's stderr (tmux 3.3a wording). */
export function classifyTmuxFailure(stderr: string, code?: string): TmuxFailureKind {
  if (code === 'ENOENT') return 'no-tmux';
  // The socket is there but connecting is refused: another user's server, or a sandbox
  // (Codex's default sandbox denies the connect: "Operation not permitted").
  if (/error connecting to .*\((Operation not permitted|Permission denied)\)/.test(stderr)) {
    return 'no-access';
  }
  // "no current target": a command that names no target found no session at all — the
  // server is shutting down (its last session closed, kill-server), no pane of a job is left.
  if (
    /no server running|error connecting to|server exited unexpectedly|no current target/.test(
      stderr,
    )
  ) {
    return 'no-server';
  }
  if (/can't find (pane|window|session)|no such (pane|window|session)/.test(stderr))
    return 'no-target';
  if (/command too long|failed to send command/.test(stderr)) return 'too-long';
  return 'other';
}

/**
 * The spawn-per-command transport: one `tmux` process per call, argv only (no shell ever
 * sees an argument). About 4-5 ms per call (docs/benchmarks.md).
 *
 * Through the process module's plain runFile (not execa: this runs in the front end).
 */
export function createSpawnRunner(spec: ServerSpec, tmuxBinary = 'tmux'): TmuxRunner {
  const prefix = serverArgs(spec);
  // The environment is inherited. $TMUX cannot redirect us: resolveServerSpec only yields
  // "default" (no flag) when $TMUX is unset, and otherwise we pass -S or -L.
  return {
    async run(args) {
      const r = await runFile(tmuxBinary, [...prefix, ...args], {
        timeoutMs: TMUX_COMMAND_TIMEOUT_MS,
        maxBuffer: 64 * 1024 * 1024,
      });
      if (r.ok) return r.stdout;
      const kind = classifyTmuxFailure(r.stderr, r.code);
      const why =
        kind === 'no-tmux'
          ? `${tmuxBinary} was not found on PATH`
          : r.stderr.trim() ||
            (r.killed ? `timed out after ${TMUX_COMMAND_TIMEOUT_MS} ms` : r.message);
      throw new TmuxCommandError(
        kind,
        r.stderr.trim(),
        `tmux ${args[0] ?? ''} failed: ${why}`,
        spec,
      );
    },
  };
}
