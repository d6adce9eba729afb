import type {Logger} from '../base/log.js';
import type {JobHandle, JobRecord, JobState} from './store.js';

/** Where the worker records what it does: the job's state record, its events.jsonl and its
 * pino log, in one call per step. Tests use a fake that keeps events in memory. */
export interface JobRecorder {
  /** Move to `state`: update state.json, append an event, log it. */
  transition(
    state: JobState,
    data?: Record<string, unknown>,
    patch?: Partial<JobRecord>,
  ): Promise<void>;
  /** Append an event that is not a state change (and log it). */
  event(name: string, data?: Record<string, unknown>): Promise<void>;
}

/** The real recorder over a job's files and logger. */
export function createJobRecorder(handle: JobHandle, log: Logger): JobRecorder {
  return {
    async transition(state, data = {}, patch = {}) {
      await handle.updateState({...patch, state});
      await handle.appendEvent(state, {state, ...data});
      log.info({event: state, ...data}, `state ${state}`);
    },
    async event(name, data = {}) {
      await handle.appendEvent(name, data);
      log.info({event: name, ...data}, name);
    },
  };
}
