// The detached worker: runs one job, then exits. Started only by src/process/launch-worker.ts.
// The files of workers/ and src/cli.ts are the only ones that touch `process`.
import {readFileSync} from 'node:fs';
import {useProfilesOf} from '../src/agents/registry.js';
import {describeError, exitCodeOfState} from '../src/base/errors.js';
import {executeJob, recordWorkerFailure, type WorkerUsage} from '../src/jobs/execute.js';
import {decodeRequest} from '../src/jobs/request.js';
import {notifyPreviewOf} from '../src/notify/config.js';
import {statFields} from '../src/process/proc-stat.js';
import {parseTransportChoice} from '../src/tmux/transport.js';
import {stopSignal} from './stop-signal.js';

// The profile files the starting command read (NUDGE_PROFILE_DIRS: the user's and the
// project's; the worker runs in the state dir, with no project folder of its own).
useProfilesOf(process.env);
const jobId = process.argv[process.argv.indexOf('--job') + 1] ?? '';
const stateDir = process.env.NUDGE_HOME ?? '';
const decoded = decodeRequest(process.env.NUDGE_REQUEST);
// Children we start (tmux) need not see the request.
delete process.env.NUDGE_REQUEST;
// NUDGE_TRANSPORT=spawn|control|auto picks how tmux is reached (tests run both).
const transport = parseTransportChoice(process.env.NUDGE_TRANSPORT);

/** CPU and peak memory of this process, and CPU of its exited children (the tmux control
 * client) where /proc tells it (Linux: cutime + cstime, in clock ticks of 10 ms). */
function usage(): WorkerUsage {
  const own = process.resourceUsage();
  let childrenCpuMs: number | undefined;
  try {
    // cutime and cstime: fields 16 and 17.
    const fields = statFields(readFileSync('/proc/self/stat', 'utf8'));
    childrenCpuMs = (Number(fields[13]) + Number(fields[14])) * 10;
  } catch {
    // not Linux
  }
  return {
    cpuMs: Math.round((own.userCPUTime + own.systemCPUTime) / 1000),
    childrenCpuMs,
    maxRssKb: own.maxRSS,
  };
}

async function fail(reason: string): Promise<void> {
  process.stderr.write(`nudge worker: ${reason}\n`);
  await recordWorkerFailure(stateDir, jobId, `Worker failed: ${reason}.`);
  process.exitCode = 1;
}

// `nudge cancel`: finish as "cancelled", releasing the lock.
const signal = stopSignal();
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
else if (!transport.ok) await fail(transport.error);
else {
  const outcome = await executeJob(decoded.value, {
    // The config file is read only for a job that tells anyone.
    notifyPreview: decoded.value.options.notifySinks.length > 0 && notifyPreviewOf(process.env),
    stateDir,
    pid: process.pid,
    signal,
    transport: transport.value,
    usage,
  });
  // blocked is 3 here as in the CLI: the one table (src/base/errors.ts).
  process.exitCode = exitCodeOfState(outcome.state);
}
