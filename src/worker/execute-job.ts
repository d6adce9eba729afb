import {realClock} from '../clock.js';
import {isTerminal, JobHandle} from '../job-store.js';
import {createJobLogger} from '../log.js';
import {paneLockFor} from '../pane-lock.js';
import {layout} from '../paths.js';
import type {JobRequest} from '../request.js';
import {createSpawnRunner} from '../tmux/runner.js';
import {createTmux} from '../tmux/tmux.js';
import {createJobRecorder} from './recorder.js';
import {type JobOutcome, runJob} from './run-job.js';

/**
 * Run a job with the real world wired in: tmux on the job's server socket, the pane lock
 * under the state dir, the job's files and pino log. Used by the detached worker and by
 * `submit --wait`.
 */
export async function executeJob(
  request: JobRequest,
  ctx: {stateDir: string; pid: number; signal: AbortSignal},
): Promise<JobOutcome> {
  const handle = new JobHandle(request.jobId, layout.jobDir(ctx.stateDir, request.jobId));
  const log = createJobLogger(handle.logPath, {job: request.jobId, pane: request.pane});
  await handle.updateState({pid: ctx.pid});
  const tmux = createTmux(
    createSpawnRunner({kind: 'socket-path', path: request.server.socketPath}),
  );
  const lockFor = (pane: string) =>
    paneLockFor(ctx.stateDir, {
      socketPath: request.server.socketPath,
      serverPid: request.server.pid,
      pane,
    });
  const outcome = await runJob(
    {tmux, clock: realClock, lockFor, recorder: createJobRecorder(handle, log), pid: ctx.pid},
    request,
    ctx.signal,
  );
  log.info({event: 'worker-exit', state: outcome.state}, 'worker exiting');
  return outcome;
}

/**
 * Record that a worker could not run its job at all (bad request, crash), so the failure is
 * never silent. Best effort: the job directory may not exist.
 */
export async function recordWorkerFailure(
  stateDir: string,
  jobId: string,
  reason: string,
): Promise<void> {
  const handle = new JobHandle(jobId, layout.jobDir(stateDir, jobId));
  try {
    const record = await handle.readState();
    if (isTerminal(record.state)) return;
    await handle.updateState({state: 'failed', reason, finishedAt: new Date().toISOString()});
    await handle.appendEvent('failed', {state: 'failed', reason});
  } catch {
    // nothing to record into; the message also went to the worker's stderr (its log file)
  }
}
