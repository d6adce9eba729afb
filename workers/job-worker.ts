// The detached worker: runs one job, then exits. Started only by src/launch-worker.ts.
// This file and src/cli.ts are the only ones that touch `process`.
import {describeError} from '../src/errors.js';
import {decodeRequest} from '../src/request.js';
import {executeJob, recordWorkerFailure} from '../src/worker/execute-job.js';

const jobId = process.argv[process.argv.indexOf('--job') + 1] ?? '';
const stateDir = process.env.NUDGE_HOME ?? '';
const decoded = decodeRequest(process.env.NUDGE_REQUEST);
// Children we start (tmux) need not see the request.
delete process.env.NUDGE_REQUEST;

async function fail(reason: string): Promise<void> {
  process.stderr.write(`nudge worker: ${reason}\n`);
  await recordWorkerFailure(stateDir, jobId, `Worker failed: ${reason}.`);
  process.exitCode = 1;
}

const controller = new AbortController();
// SIGTERM/SIGINT come from `nudge cancel`: finish as "cancelled", releasing the lock.
process.on('SIGTERM', () => controller.abort());
process.on('SIGINT', () => controller.abort());
// We have no terminal (setsid), but say so explicitly: a hangup must not end a job.
process.on('SIGHUP', () => {});
process.on(
  'uncaughtException',
  (error) => void fail(`uncaught ${describeError(error)}`).finally(() => process.exit(1)),
);
process.on(
  'unhandledRejection',
  (error) => void fail(`unhandled ${describeError(error)}`).finally(() => process.exit(1)),
);

if (!decoded.ok) await fail(decoded.error);
else if (decoded.value.jobId !== jobId)
  await fail(`the request is for job ${decoded.value.jobId}, not ${jobId}`);
else if (!stateDir) await fail('NUDGE_HOME is not set');
else {
  const outcome = await executeJob(decoded.value, {
    stateDir,
    pid: process.pid,
    signal: controller.signal,
  });
  process.exitCode = outcome.state === 'done' ? 0 : outcome.state === 'timeout' ? 124 : 1;
}
