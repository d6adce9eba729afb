import {onTestFinished} from 'vitest';
import {type SshWorld, startSshHosts as start} from '../harness/ssh-hosts.js';
import {stopWorkers} from './nudge-home.js';
import {useTempDir} from './temp-dir.js';

export {SSHD, type SshHost, type SshWorld} from '../harness/ssh-hosts.js';

/** Hosts for one test (test/harness/ssh-hosts.ts), ended when it finishes: the connections,
 * relays and workers it left, then the hosts. */
export async function startSshHosts(
  names: readonly string[],
  o: Parameters<typeof start>[2] = {},
): Promise<SshWorld> {
  const world = await start(useTempDir('nudge-ssh-'), names, o);
  onTestFinished(async () => {
    await stopWorkers(world.localHome);
    for (const h of world.hosts) await stopWorkers(h.state);
    await world.close();
  });
  return world;
}
