/**
 * What nudge tells a person about a job, once per change: the event and what it carries. One
 * JSON shape for every sink (a webhook's body, a command's stdin); ntfy, the desktop and tmux
 * get its one-line text.
 */

/** The changes a person is told of. */
export const NOTIFY_EVENTS = [
  'done',
  'failed',
  'timeout',
  'blocked',
  'limit',
  'lost',
  'stalled',
] as const;
export type NotifyEventName = (typeof NOTIFY_EVENTS)[number];

/** One change of a job, as every sink receives it. */
export interface NotifyEvent {
  event: NotifyEventName;
  job: string;
  /** The job's state now (`blocked`, `waiting` while a limit is waited out, …). */
  state: string;
  pane: string;
  /** The remote host the job runs on (reserved: jobs on other machines). */
  host?: string;
  /** Why it ended so, one sentence. */
  reason?: string;
  /** `blocked` and `limit`: what the person is asked, and what kind of answer; `stalled`:
   * `quiet` or `spinning`. */
  question?: string;
  kind?: string;
  /** `limit`: when the limit resets (ISO). */
  resetsAt?: string;
  /** The text the job typed (first 80 characters). */
  preview?: string;
  at: string;
}

/** A title for people: `nudge: job 0mww… blocked`. */
export function titleOf(e: NotifyEvent): string {
  return `nudge: ${e.event === 'limit' ? 'usage limit' : e.event} in ${e.pane}`;
}

/** One line for people: what happened, to what, and what is asked. */
export function lineOf(e: NotifyEvent): string {
  const what = e.preview ? ` "${e.preview}"` : '';
  switch (e.event) {
    case 'blocked':
      return `Job ${e.job}${what} waits for a person in ${e.pane} (${e.kind ?? 'dialog'}): ${e.question ?? ''}`;
    case 'limit':
      return `Job ${e.job}${what} hit a usage limit in ${e.pane}${e.resetsAt ? `; it resets at ${e.resetsAt}` : ''}.`;
    case 'lost':
      return `Job ${e.job}${what}: ${e.reason ?? 'its worker is gone and the job never finished.'}`;
    case 'stalled':
      return `Job ${e.job}${what} stalled in ${e.pane}: ${e.reason ?? e.kind ?? ''}`;
    default:
      return `Job ${e.job}${what} ${e.event}${e.reason ? `: ${e.reason}` : '.'}`;
  }
}
