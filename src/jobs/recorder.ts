import type {Logger} from '../base/log.js';
import type {JobEvents, JobOutcome, JobTransitions, RunningState} from './events.js';
import type {JobHandle, JobRecord} from './store.js';

/** Where a job records what it does: its state record, its events.jsonl and its pino log, in
 * one call per step. Tests use a fake that keeps events in memory. */
export interface JobRecorder {
  /** Move to a running state: update state.json, append an event, log it. */
  transition<S extends RunningState>(
    state: S,
    data: JobTransitions[S],
    patch?: Partial<JobRecord>,
  ): Promise<void>;
  /** Append an event that is not a state change (and log it). */
  event<K extends keyof JobEvents>(name: K, data: JobEvents[K]): Promise<void>;
  /** Record the ending (through JobHandle.end, the one writer of terminal states). */
  end(outcome: JobOutcome, patch?: Partial<JobRecord>): Promise<void>;
}

/** The real recorder over a job's files and logger. */
export function createJobRecorder(handle: JobHandle, log: Logger): JobRecorder {
  const info = (fields: Record<string, unknown>, message: string) => log.info(fields, message);
  return {
    async transition(state, data, patch = {}) {
      await handle.updateState({...patch, state});
      await handle.appendEvent(state, {state, ...data});
      info({event: state, ...data}, `state ${state}`);
    },
    async event(name, data) {
      await handle.appendEvent(name, {...data});
      info({event: name, ...data}, name);
    },
    async end({state, ...ending}, patch = {}) {
      if (Object.keys(patch).length > 0) await handle.updateState(patch);
      const {wrote} = await handle.end(state, ending);
      info({event: state, ...ending, recorded: wrote}, `state ${state}`);
    },
  };
}
