import {formatDuration} from '../base/durations.js';
import {err, ok, type Result} from '../base/result.js';
import {type FencedLease, fenceLease} from '../locks/fenced-lease.js';
import type {PaneLock} from '../locks/pane-lock.js';
import type {Tmux} from '../tmux/tmux.js';
import type {JobRecorder} from './recorder.js';
import type {JobRequest} from './request.js';

/**
 * Queue for `pane`'s lock and take it for a job, the pane fenced in the tmux server as the
 * job's (src/tmux/fence.ts): its place in the queue is recorded (`waiting-for-lock`); after
 * `--lock-timeout`, the one sentence of its failed ending.
 */
export async function takePaneLock(
  deps: {
    lockFor: (pane: string) => Pick<PaneLock, 'acquire'>;
    tmux: Pick<Tmux, 'takeFence' | 'dropFence'>;
    pid: number;
    recorder: JobRecorder;
  },
  request: Pick<JobRequest, 'jobId' | 'options'>,
  pane: string,
  signal: AbortSignal,
): Promise<Result<FencedLease, string>> {
  const timeoutMs = request.options.lockTimeoutMs;
  const acquired = await deps.lockFor(pane).acquire({
    jobId: request.jobId,
    pid: deps.pid,
    timeoutMs,
    signal,
    onWaiting: (ahead) =>
      void deps.recorder.event('waiting-for-lock', {
        pane,
        ahead: ahead.length,
        head: ahead[0] ?? null,
      }),
  });
  if (acquired.ok) return ok(await fenceLease(deps.tmux, acquired.value, pane, request.jobId));
  const holder = acquired.error.holder ? ` (job ${acquired.error.holder} holds it)` : '';
  return err(
    `Waited ${formatDuration(timeoutMs)} for pane ${pane}'s lock${holder}; raise --lock-timeout or cancel the job ahead.`,
  );
}
