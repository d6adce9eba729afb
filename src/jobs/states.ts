/**
 * The two machines a job record holds, each a union of its own: a submit's job (queued,
 * locked, typing, waiting, notifying) and a `nudge run` (queued, starting, running, stopping,
 * integrating, notifying). Both end in one of the same six states, listed once here
 * (`blocked`: the agent waits for a person — a dialog or a usage limit — and the job could
 * not go on: the dialog was up before its text went in, so nothing was typed, or nobody
 * answered it within 30 minutes (a job that meets a dialog after typing is `blocked` only in
 * its record's mark while it is up, and goes on once it is answered); `lost`: its tmux server is gone, killed or rebooted, so the work was lost
 * with it — `nudge recover` brings back what can be). Everything that asks "has it ended?" asks this list.
 */
export const TERMINAL_STATES = [
  'done',
  'timeout',
  'failed',
  'cancelled',
  'blocked',
  'lost',
] as const;
export type TerminalState = (typeof TERMINAL_STATES)[number];

/** A submit's job before it ends, in order (each a transition of src/jobs/events.ts). */
export const SUBMIT_STATES = ['queued', 'locked', 'typing', 'waiting', 'notifying'] as const;
export type SubmitState = (typeof SUBMIT_STATES)[number] | TerminalState;

/** A run before it ends, in order. */
export const RUN_STATES = [
  'queued',
  'starting',
  'running',
  'stopping',
  'integrating',
  'notifying',
] as const;
export type RunState = (typeof RUN_STATES)[number] | TerminalState;

/** Whether two unions hold the same members (a compile-time check: `true` or `false`). */
export type SameMembers<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;

/** Any state a job record may hold (the record says which machine by its kind). */
export type JobState = SubmitState | RunState;
export const JOB_STATES: readonly JobState[] = [
  ...new Set<JobState>([...SUBMIT_STATES, ...RUN_STATES, ...TERMINAL_STATES]),
];

/** Whether a job in `state` has ended. */
export function isTerminal(state: string): state is TerminalState {
  return (TERMINAL_STATES as readonly string[]).includes(state);
}
