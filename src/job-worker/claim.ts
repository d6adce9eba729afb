import {createJobLogger, type Logger} from '../base/log.js';
import {layout} from '../base/paths.js';
import type {TellingEvents} from '../jobs/events.js';
import {tellingLostOnce} from '../jobs/lost.js';
import type {JobRecord} from '../jobs/record.js';
import type {Recorder} from '../jobs/recorder.js';
import {isTerminal} from '../jobs/states.js';
import {JobHandle} from '../jobs/store.js';
import {previewText} from '../jobs/stored-request.js';
import {notifyPreviewOf} from '../notify/config.js';
import type {NotifyDeps} from '../notify/send.js';
import {type Tell, teller} from '../notify/tell.js';
import {processId} from '../process/identity.js';

/** A job as its worker holds it: its files, its log, and how it stood when claimed. */
export type Claimed =
  | {handle: JobHandle; log: Logger; ended: false; record: JobRecord}
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
  const claimed = await handle.updateState({pid: self.pid, pidStart: self.start});
  return {handle, log, ended: false, record: claimed};
}

/**
 * How a worker's job tells a person of its changes (its `--notify` sinks), each telling
 * recorded among its events; a lost server told once, whoever finds it first. The config file
 * is read only for a job that tells anyone.
 */
export function jobTeller(
  handle: JobHandle,
  job: {jobId: string; pane: string; text: string; sinks: readonly string[]},
  w: {deps: NotifyDeps; recorder: Pick<Recorder<never, TellingEvents, never>, 'event'>},
): Tell {
  return tellingLostOnce(
    handle.dir,
    teller({
      sinks: job.sinks,
      job: {id: job.jobId, pane: job.pane, preview: previewText(job.text)},
      previewOut: job.sinks.length > 0 && notifyPreviewOf(w.deps.env),
      deps: w.deps,
      record: (about, told) =>
        told.ok
          ? w.recorder.event('notify-sent', {about, sink: told.sink, tries: told.tries})
          : w.recorder.event('notify-failed', {about, sink: told.sink, error: told.error}),
    }),
  );
}
