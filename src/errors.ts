/** Exit codes, the one table every front end maps outcomes to. */
export const EXIT_CODES = {
  ok: 0,
  failure: 1,
  usage: 2,
  timeout: 124,
} as const;

export type ExitCode = (typeof EXIT_CODES)[keyof typeof EXIT_CODES];

/**
 * An error a user can cause or act on. The message is one plain sentence that says what was
 * wrong and what to do; `code` is stable for scripts and tests; `exitCode` is what the CLI
 * exits with. No stack trace is ever shown for these.
 */
export class NudgeError extends Error {
  override name = 'NudgeError';
  constructor(
    readonly code: string,
    message: string,
    readonly exitCode: ExitCode = EXIT_CODES.failure,
  ) {
    super(message);
  }
}

/** Bad usage or bad input: exit 2. */
export class UsageError extends NudgeError {
  override name = 'UsageError';
  constructor(code: string, message: string) {
    super(code, message, EXIT_CODES.usage);
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
