/** Exit codes, the one table every front end maps outcomes to. */
export const EXIT_CODES = {
  ok: 0,
  failure: 1,
  usage: 2,
  /** The agent waits for a person: a dialog or a usage limit (`blocked`). */
  blocked: 3,
  /** The pane is busy and the caller asked not to wait (`--if-busy refuse`): nothing was
   * done; try again later. sysexits.h's EX_TEMPFAIL, apart from the world's failures (1). */
  busy: 75,
  timeout: 124,
} as const;

export type ExitCode = (typeof EXIT_CODES)[keyof typeof EXIT_CODES];

/**
 * Every error a user can cause or act on, by its stable code, with the exit code it maps to.
 * This table is the only place an error becomes an exit code: the CLI exits with it, the MCP
 * server reports the code.
 */
const EXIT_OF = {
  // bad usage or input (2): nothing was done
  'bad-usage': EXIT_CODES.usage,
  'bad-duration': EXIT_CODES.usage,
  'bad-number': EXIT_CODES.usage,
  'bad-regex': EXIT_CODES.usage,
  'bad-until': EXIT_CODES.usage,
  'bad-notice': EXIT_CODES.usage,
  'bad-profile': EXIT_CODES.usage,
  'bad-pane': EXIT_CODES.usage,
  'bad-job': EXIT_CODES.usage,
  'no-pane': EXIT_CODES.usage,
  // A pane named by an inherited $TMUX_PANE, or self, that the process tree does not prove.
  'unproven-pane': EXIT_CODES.usage,
  'no-such-pane': EXIT_CODES.usage,
  // A pane or a job beyond the caller's reach (src/pane/reach.ts): another session or server.
  'out-of-reach': EXIT_CODES.usage,
  'no-such-job': EXIT_CODES.usage,
  'ambiguous-job': EXIT_CODES.usage,
  'no-such-watcher': EXIT_CODES.usage,
  'ambiguous-watcher': EXIT_CODES.usage,
  'bad-assessor': EXIT_CODES.usage,
  'empty-text': EXIT_CODES.usage,
  'untypable-text': EXIT_CODES.usage,
  'text-too-long': EXIT_CODES.usage,
  'bad-cwd': EXIT_CODES.usage,
  'not-a-repo': EXIT_CODES.usage,
  'bad-branch': EXIT_CODES.usage,
  'bad-config': EXIT_CODES.usage,
  'bad-host': EXIT_CODES.usage,
  // the world is not as it must be (1)
  'no-tmux': EXIT_CODES.failure,
  'no-server': EXIT_CODES.failure,
  'no-access': EXIT_CODES.failure,
  'pane-gone': EXIT_CODES.failure,
  /** `--if-busy refuse` on a busy pane: not a failure of the world, a try for later (75). */
  'pane-busy': EXIT_CODES.busy,
  /** `--if-busy now` for a program without a door of its own. */
  'no-door': EXIT_CODES.failure,
  /** Two panes that sent each other more messages than the loop cap allows (issue 66). */
  loop: EXIT_CODES.failure,
  /** `nudge ask` of a program that keeps no record nudge can read its reply from. */
  'no-record': EXIT_CODES.failure,
  /** `nudge next` with no tmux client to move. */
  'no-client': EXIT_CODES.failure,
  /** `nudge queue move|drop|edit` on a job no longer waiting (it took the pane, or ended). */
  'not-queued': EXIT_CODES.failure,
  'state-dir': EXIT_CODES.failure,
  'spawn-failed': EXIT_CODES.failure,
  'provision-failed': EXIT_CODES.failure,
  'config-write': EXIT_CODES.failure,
  'scheduler-failed': EXIT_CODES.failure,
  'no-such-schedule': EXIT_CODES.failure,
  interrupted: EXIT_CODES.failure,
  // another host (--host): ssh could not get there, or what answered there is not this nudge
  'host-unreachable': EXIT_CODES.failure,
  'host-refused': EXIT_CODES.failure,
  'host-key': EXIT_CODES.failure,
  'host-no-nudge': EXIT_CODES.failure,
  'host-version': EXIT_CODES.failure,
  'host-busy': EXIT_CODES.failure,
  'host-failed': EXIT_CODES.failure,
} as const satisfies Record<string, ExitCode>;

/** The stable codes of NudgeError, for scripts, tests and MCP tool errors. */
export type ErrorCode = keyof typeof EXIT_OF;

/**
 * An error a user can cause or act on. The message is one plain sentence that says what was
 * wrong and what to do; `code` is stable; `exitCode` follows from it. No stack trace is ever
 * shown for these.
 */
export class NudgeError extends Error {
  override name = 'NudgeError';
  readonly exitCode: ExitCode;
  constructor(
    readonly code: ErrorCode,
    message: string,
  ) {
    super(message);
    this.exitCode = EXIT_OF[code];
  }
}

/** Whether `err` is an abort (AbortSignal fired) rather than a real failure. */
export function isAbortError(err: unknown): boolean {
  return err instanceof Error && (err.name === 'AbortError' || err.name === 'TimeoutError');
}

/** A short, single-line description of any thrown value, for logs and job records. */
export function describeError(err: unknown): string {
  if (err instanceof Error) return err.message.split('\n')[0] ?? err.name;
  return String(err);
}

/** Whether `code` is one of the stable codes (an error told by another host's nudge). */
export function isErrorCode(code: string): code is ErrorCode {
  return Object.hasOwn(EXIT_OF, code);
}

/** A file system error's code in words, for a sentence: `the disk is full`. */
export function fsReason(code: string): string {
  return FS_REASONS[code] ?? code;
}

const FS_REASONS: Record<string, string> = {
  ENOSPC: 'the disk is full',
  EDQUOT: 'the disk quota is used up',
  EROFS: 'the file system is read-only',
  EACCES: 'permission denied',
  EPERM: 'permission denied',
  ENOENT: 'a folder on its path does not exist',
  ENOTDIR: 'a file is in the way on its path',
};

/** Whether `error` is a file system that has no room, or takes no writes, now (a write that
 * may work once room comes back). */
export function isNoRoom(error: unknown): boolean {
  const code = (error as NodeJS.ErrnoException | undefined)?.code;
  return code === 'ENOSPC' || code === 'EDQUOT' || code === 'EROFS';
}

/**
 * A file system error no command turned into a sentence (`EROFS: read-only file system, open
 * '…/inbox/….tmp'`): one sentence naming the folder and what to do (exit 1), or undefined
 * for anything else.
 */
export function fileSystemSentence(error: unknown): NudgeError | undefined {
  const e = error as NodeJS.ErrnoException | undefined;
  const code = e?.code;
  if (typeof e?.path !== 'string' || code === undefined || FS_REASONS[code] === undefined)
    return undefined;
  const folder = e.path.replace(/\/[^/]*$/, '') || '/';
  return new NudgeError(
    'state-dir',
    `nudge could not write in ${folder}: ${fsReason(code)}; ${fsRemedy(code)} (or set NUDGE_HOME to another folder), then try again.`,
  );
}

/** What a person does about a file system error's code, for a sentence: `free some space`. */
export function fsRemedy(code: string): string {
  if (code === 'EROFS') return 'make it writable';
  return code === 'ENOSPC' || code === 'EDQUOT'
    ? 'free some space'
    : 'check its owner and permissions';
}

/** The exit code of a job's or a run's ending, the same for the CLI and its worker: done 0,
 * blocked 3, timeout 124, anything else 1. */
export function exitCodeOfState(state: string): ExitCode {
  switch (state) {
    case 'done':
      return EXIT_CODES.ok;
    case 'blocked':
      return EXIT_CODES.blocked;
    case 'timeout':
      return EXIT_CODES.timeout;
    default:
      return EXIT_CODES.failure;
  }
}
