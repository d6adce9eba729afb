// The relay worker: follows one job (on another host, or here) until it ends, then types its
// notice into a pane of another host (src/commands/relay.ts), and exits. Started only by
// startRelay. The files of workers/ and src/cli.ts are the only ones that touch `process`.
import {useProfilesOf} from '../src/agents/registry.js';
import {describeError} from '../src/base/errors.js';
import {nodeContext} from '../src/commands/node-context.js';
import {type RelaySpec, runRelay} from '../src/commands/relay.js';
import {stopSignal} from './stop-signal.js';

useProfilesOf(process.env);
const signal = stopSignal();
const log = (line: string) => process.stdout.write(`${new Date().toISOString()} ${line}\n`);

let spec: RelaySpec | undefined;
try {
  spec = JSON.parse(process.env.NUDGE_RELAY ?? '') as RelaySpec;
} catch {
  log('nudge relay worker: NUDGE_RELAY is not a relay');
}
delete process.env.NUDGE_RELAY;
if (!spec || !process.env.NUDGE_HOME) {
  process.exitCode = 1;
} else {
  const ctx = nodeContext(
    {
      env: process.env,
      cwd: process.cwd(),
      pid: process.pid,
      uid: process.getuid?.() ?? 0,
      signal,
      readStdin: async () => '',
      readStdinBytes: async () => new Uint8Array(),
      node: process.execPath,
    },
    new URL('../src/', import.meta.url),
  );
  try {
    const record = await runRelay(spec, ctx, log);
    process.exitCode = record.state === 'failed' ? 1 : 0;
  } catch (error) {
    log(`nudge relay worker: ${describeError(error)}`);
    process.exitCode = 1;
  }
}
