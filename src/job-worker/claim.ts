import {createJobLogger, type Logger} from '../base/log.js';
import {layout} from '../base/paths.js';
import type {JobRecord} from '../jobs/record.js';
import {isTerminal, JobHandle} from '../jobs/store.js';
import {processId} from '../process/identity.js';

/** A job as its worker holds it: its files, its log, and how it stood when claimed. */
export type Claimed =
  | {handle: JobHandle; log: Logger; ended: false}
  /** `nudge cancel` ended the job before its worker started: there is nothing to do. */
  | {handle: JobHandle; log: Logger; ended: true; record: JobRecord};

/**
 * The preamble every worker runs (a submit's, a run's): open the job's files and its pino
 * log, see whether it already ended (cancelled before the worker started, which is logged),
 * and record this process as the job's worker (pid and start time) otherwise.
 */
export async function claimJob(
  stateDir: string,
  job: {jobId: string; pane: string},
  pid: number,
): Promise<Claimed> {
  const handle = new JobHandle(job.jobId, layout.jobDir(stateDir, job.jobId));
  const log = createJobLogger(handle.logPath, {job: job.jobId, pane: job.pane});
  const record = await handle.readState();
  if (isTerminal(record.state)) {
    log.info(
      {event: 'worker-exit', state: record.state},
      'job already ended before the worker started',
    );
    return {handle, log, ended: true, record};
  }
  const self = processId(pid);
  await handle.updateState({pid: self.pid, pidStart: self.start});
  return {handle, log, ended: false};
}
