// The `nudge run` worker: runs one run job (its request is the job's request.json), then
// exits. Started only by `nudge run` (src/commands/run.ts, through src/process/launch-worker.ts).
// The files of workers/ and src/cli.ts are the only ones that touch `process`.
import {useProfilesOf} from '../src/agents/registry.js';
import {describeError, exitCodeOfState} from '../src/base/errors.js';
import {executeRunJob} from '../src/runs/execute.js';
import {stopSignal} from './stop-signal.js';

// The profile files the starting command read (NUDGE_PROFILE_DIRS: the user's and the
// project's; the worker runs in the state dir, with no project folder of its own).
useProfilesOf(process.env);
const jobId = process.argv[process.argv.indexOf('--job') + 1] ?? '';
const stateDir = process.env.NUDGE_HOME ?? '';

// `nudge cancel`: stop the run (interrupt, end what runs in its pane), report, end as
// "cancelled".
const signal = stopSignal();

if (!stateDir) {
  process.stderr.write('nudge run worker: NUDGE_HOME is not set\n');
  process.exitCode = 1;
} else {
  try {
    const result = await executeRunJob(jobId, {
      stateDir,
      pid: process.pid,
      signal,
      env: process.env,
    });
    process.exitCode = exitCodeOfState(result.state);
  } catch (error) {
    process.stderr.write(`nudge run worker: ${describeError(error)}\n`);
    process.exitCode = 1;
  }
}
