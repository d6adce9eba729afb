import {describe, it} from 'vitest';
import {AGENT_NAMES, agentAvailable, startAgent} from '../helpers/real-agents.js';
import {startTmuxServer} from '../helpers/tmux-server.js';

describe.each(AGENT_NAMES)('%s', (name) => {
  it.skipIf(!agentAvailable(name))('starts', async () => {
    const server = await startTmuxServer();
    const t0 = Date.now();
    const agent = await startAgent(server, name);
    console.log(name, agent.version, `ready in ${Date.now() - t0} ms`);
    console.log(await agent.capture());
  });
});
