// The watcher's cycle worker: runs the queued reports of one watcher, then exits. Started
// only by `nudge watch report` (src/commands/watch.ts, through src/process/launch-worker.ts).
// The files of workers/ and src/cli.ts are the only ones that touch `process`.
import {useProfilesOf} from '../src/agents/registry.js';
import {describeError} from '../src/base/errors.js';
import {executeCycles} from '../src/watch/execute.js';
import {stopSignal} from './stop-signal.js';

// The profile files the starting command read (NUDGE_PROFILE_DIRS: the user's and the
// project's; the worker runs in the state dir, with no project folder of its own).
useProfilesOf(process.env);
const name = process.argv[process.argv.indexOf('--watcher') + 1] ?? '';
const stateDir = process.env.NUDGE_HOME ?? '';

// `nudge watch clear` / `pause`: stop the cycle (its wait command goes with the process group).
const signal = stopSignal();

if (!stateDir) {
  process.stderr.write('nudge watch worker: NUDGE_HOME is not set\n');
  process.exitCode = 1;
} else {
  try {
    const ended = await executeCycles(name, {
      stateDir,
      pid: process.pid,
      signal,
      env: process.env,
    });
    process.exitCode = ended === 'not-ours' ? 1 : 0;
  } catch (error) {
    // runCycles records its own failures in the watcher; this is the store failing.
    process.stderr.write(`nudge watch worker: ${describeError(error)}\n`);
    process.exitCode = 1;
  }
}
