import {execa} from 'execa';
import {type ServerSpec, serverArgs} from './server.js';

/** Why a tmux command failed, as far as callers need to tell cases apart. */
export type TmuxFailureKind = 'no-tmux' | 'no-server' | 'no-target' | 'too-long' | 'other';

/** A tmux command that did not succeed. */
export class TmuxCommandError extends Error {
  override name = 'TmuxCommandError';
  constructor(
    readonly kind: TmuxFailureKind,
    readonly stderr: string,
    message: string,
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
  if (/no server running|error connecting to|server exited unexpectedly/.test(stderr)) {
    return 'no-server';
  }
  if (/can't find (pane|window|session)|no such (pane|window|session)/.test(stderr))
    return 'no-target';
  if (/command too long|failed to send command/.test(stderr)) return 'too-long';
  return 'other';
}

/**
 * The spawn-per-command transport: one `tmux` process per call, argv only (no shell ever
 * sees an argument). About 4-5 ms per call (research/tmux-facts.md §2).
 */
export function createSpawnRunner(spec: ServerSpec, tmuxBinary = 'tmux'): TmuxRunner {
  const prefix = serverArgs(spec);
  // With an explicit server flag, $TMUX is irrelevant; without one, a stale $TMUX must not
  // redirect us, since resolveServerSpec already read it.
  const env = {TMUX: undefined};
  return {
    async run(args) {
      const result = await execa(tmuxBinary, [...prefix, ...args], {
        reject: false,
        timeout: TMUX_COMMAND_TIMEOUT_MS,
        stdin: 'ignore',
        env,
        extendEnv: true,
        stripFinalNewline: false,
      });
      if (!result.failed) return result.stdout;
      const stderr = result.stderr.trim();
      const kind = classifyTmuxFailure(stderr, result.code);
      const why =
        kind === 'no-tmux' ? `${tmuxBinary} was not found on PATH` : stderr || result.shortMessage;
      throw new TmuxCommandError(kind, stderr, `tmux ${args[0] ?? ''} failed: ${why}`);
    },
  };
}
