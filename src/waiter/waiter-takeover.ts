import {describeError} from '../base/errors.js';
import {ifBusyMeans} from '../job-options/policies.js';
import {isJobProcessAlive} from '../jobs/liveness.js';
import {type LostDeps, tellLost} from '../jobs/lost.js';
import {isTerminal} from '../jobs/states.js';
import {type JobHandle, JobStore} from '../jobs/store.js';
import {callerOf} from './caller.js';

/**
 * What becomes of a killed waiter's jobs (src/waiter/waiter.ts): its guard
 * (src/process/waiter-guard.ts) starts the takeover worker as soon as the waiter's process is
 * gone, and that worker:
 *
 * - starts a job worker again for each job still `queued` (it never took its pane's lock, so
 *   nothing of it was typed): the job runs as if just submitted, in its caller's environment
 *   (the entry's PER_CALLER values, kept in the job's folder when the waiter took it); a job
 *   handed to an agent's door (`--if-busy now`) is never started again, since its text may
 *   already be there;
 * - ends every other job of the waiter (it had the pane: it typed, or was about to) `lost`,
 *   with the reason, and tells its sinks once.
 */

/** What the takeover needs: the state folder, its environment, how to start a job's worker
 * (detached; its pid and start time), and how to tell a lost job's sinks. */
export interface TakeoverDeps {
  stateDir: string;
  env: Record<string, string | undefined>;
  launch(
    handle: JobHandle,
    env: Record<string, string | undefined>,
  ): Promise<{pid: number; start?: string | undefined}>;
  lost: LostDeps;
  log(line: string): void;
}

/** What the takeover did, by job id. */
export interface Takeover {
  restarted: string[];
  lost: string[];
}

/** Take over the jobs of the waiter that ran as process `deadPid`. */
export async function takeOver(deadPid: number, deps: TakeoverDeps): Promise<Takeover> {
  const store = new JobStore(deps.stateDir);
  const done: Takeover = {restarted: [], lost: []};
  for (const record of await store.list()) {
    if (isTerminal(record.state) || record.waiter !== true || record.pid !== deadPid) continue;
    // Its pid alive with its start time: not the waiter that died.
    if (isJobProcessAlive(record)) continue;
    const handle = await store.open(record.id);
    try {
      if (record.state === 'queued' && !(await handedToDoor(handle))) {
        const worker = await deps.launch(handle, {...deps.env, ...(await callerOf(handle))});
        // The new worker is the job's process until a waiter takes it: never shown lost.
        await handle.updateState({pid: worker.pid, pidStart: worker.start, waiter: false});
        done.restarted.push(record.id);
        continue;
      }
      const reason = `Its waiter (process ${deadPid}) was killed while the job was ${record.state}; the job never finished.`;
      const ended = await handle.end('lost', {reason, notified: false, by: 'nudge'});
      if (!ended.wrote) continue;
      done.lost.push(record.id);
      await tellLost(handle, ended.record, deps.lost, reason);
    } catch (error) {
      deps.log(`job ${record.id} could not be taken over: ${describeError(error)}`);
    }
  }
  return done;
}

/** Whether the job's text goes to an agent's door (`--if-busy now`), typed or not. */
async function handedToDoor(handle: JobHandle): Promise<boolean> {
  const request = await handle.readRequest();
  return !request.ok || ifBusyMeans(request.value.options.ifBusy).door;
}
