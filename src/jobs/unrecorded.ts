import {realClock} from '../base/clock.js';
import type {Tmux} from '../tmux/tmux.js';
import type {UntilRecorded} from './recorder.js';
import type {JobRequest} from './request.js';

/**
 * What a job could not write yet (the state folder full, issue 62): told on its pane, in the
 * tmux server's memory, where `nudge status` reads it — the one place that still takes a
 * write. The pane option `@nudge-unrecorded` holds `JOB WHAT` (`ending done`, `state
 * typing`) while the job waits for room, and is unset once it is written.
 */
export const UNRECORDED_OPTION = '@nudge-unrecorded';

/** How a job's recorder waits for room (src/jobs/recorder.ts): on the real clock, until
 * `signal`, marking and unmarking its pane over the job's tmux as it is when it does. A mark
 * that cannot be set is no error. */
export function untilRoom(
  request: Pick<JobRequest, 'pane' | 'jobId'>,
  {signal}: {signal: AbortSignal},
  tmux: () => Pick<Tmux, 'markPane'>,
): UntilRecorded {
  const mark = (value: string | undefined) =>
    void tmux()
      .markPane(request.pane, UNRECORDED_OPTION, value)
      .catch(() => {});
  return {
    clock: realClock,
    signal,
    told: (what) => mark(`${request.jobId} ${what}`),
    recorded: () => mark(undefined),
  };
}

/** What job `job` waits to record, as its pane says (undefined: nothing, or another job's). */
export async function readUnrecorded(
  tmux: Pick<Tmux, 'paneMark'>,
  pane: string,
  job: string,
): Promise<string | undefined> {
  const value = await tmux.paneMark(pane, UNRECORDED_OPTION).catch(() => undefined);
  return value?.startsWith(`${job} `) ? value.slice(job.length + 1) : undefined;
}
