/** The worker's states, in order (a `nudge run` job: queued, starting, running, stopping,
 * integrating, notifying); the last five are terminal (`blocked`: the agent waits for a
 * person — a dialog or a usage limit — and nothing was typed into it). */
export const JOB_STATES = [
  'queued',
  'locked',
  'typing',
  'waiting',
  'starting',
  'running',
  'stopping',
  'integrating',
  'notifying',
  'done',
  'timeout',
  'failed',
  'cancelled',
  'blocked',
] as const;
export type JobState = (typeof JOB_STATES)[number];
export type TerminalState = 'done' | 'timeout' | 'failed' | 'cancelled' | 'blocked';

/** Whether a job in `state` has ended. */
export function isTerminal(state: JobState): state is TerminalState {
  return (
    state === 'done' ||
    state === 'timeout' ||
    state === 'failed' ||
    state === 'cancelled' ||
    state === 'blocked'
  );
}
