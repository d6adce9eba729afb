// The `nudge run` worker: runs one run job (its request is the job's request.json), then
// exits. Started only by `nudge run` (src/commands/run.ts, through src/process/launch-worker.ts).
// This file, the other workers and src/cli.ts are the only ones that touch `process`.
import {describeError} from '../src/base/errors.js';
import {executeRunJob} from '../src/runs/execute.js';

const jobId = process.argv[process.argv.indexOf('--job') + 1] ?? '';
const stateDir = process.env.NUDGE_HOME ?? '';

const controller = new AbortController();
// SIGTERM/SIGINT come from `nudge cancel`: stop the run (interrupt, end what runs in its
// pane), report, and end as "cancelled".
process.on('SIGTERM', () => controller.abort());
process.on('SIGINT', () => controller.abort());
// Detached (setsid): a hangup of the caller's terminal must not end the run.
process.on('SIGHUP', () => {});

if (!stateDir) {
  process.stderr.write('nudge run worker: NUDGE_HOME is not set\n');
  process.exitCode = 1;
} else {
  try {
    const result = await executeRunJob(jobId, {
      stateDir,
      pid: process.pid,
      signal: controller.signal,
      env: process.env,
    });
    process.exitCode = result.state === 'done' ? 0 : result.state === 'timeout' ? 124 : 1;
  } catch (error) {
    process.stderr.write(`nudge run worker: ${describeError(error)}\n`);
    process.exitCode = 1;
  }
}
