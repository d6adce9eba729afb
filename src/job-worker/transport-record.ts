import {describeError} from '../base/errors.js';
import type {Logger} from '../base/log.js';
import type {JobRecorder} from '../jobs/recorder.js';
import type {JobHandle} from '../jobs/store.js';
import type {Transport} from '../tmux/transport.js';

/** The transport a job's worker reaches tmux by, in the job's record: which one, and its loss. */

/** The transport a job got, in its record and as an event (a failure only logged: the job
 * goes on). */
export async function recordTransport(
  opened: Transport,
  described: string,
  {handle, recorder, log}: {handle: JobHandle; recorder: JobRecorder; log: Logger},
): Promise<void> {
  try {
    await handle.updateState({transport: described});
    await recorder.event('transport', {
      kind: opened.kind,
      ...(opened.control ? {session: opened.control.sessionId} : {}),
      ...(opened.fallbackReason ? {reason: opened.fallbackReason} : {}),
    });
  } catch (error) {
    log.warn({error: describeError(error)}, 'could not record the transport');
  }
}

/** The record's one-line `transport`: `control ($3)` or `spawn (why)`. */
export function describeTransport(t: Transport): string {
  if (t.kind === 'control') return `control (${t.control?.sessionId ?? '?'})`;
  return `spawn (${t.fallbackReason ?? 'no reason given'})`;
}

/** Call `onLost` if the control client ends before we close it. */
export function watchForLoss(t: Transport, onLost: (detail: string) => void): void {
  void t.control?.closed.then((closed) => {
    if (closed.reason !== 'closed') onLost(closed.detail);
  });
}
