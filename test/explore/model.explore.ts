import {setTimeout as sleep} from 'node:timers/promises';
import {test} from 'vitest';
import {type AgentName, startAgent} from '../helpers/real-agents.js';
import {nudgeBinDir} from '../helpers/run-nudge.js';
import {modelAndServer} from './lib.js';

const agents = (process.env.AGENTS ?? 'claude,gemini,codex').split(',') as AgentName[];
for (const name of agents) {
  test(`explore ${name}`, async () => {
    const {model, server} = await modelAndServer();
    const bin = nudgeBinDir(server.dir);
    const agent = await startAgent(server, name, {
      modelUrl: model.url,
      approvals: (process.env.APPROVALS as 'all') ?? 'default',
      path: [bin],
      env: {NUDGE_HOME: `${server.dir}/nh`},
    });
    model.script({shell: 'echo hi-from-tool'}, {text: 'All done here.'});
    await server.tmux('send-keys', '-t', agent.pane, '-l', 'please run it');
    await sleep(400);
    await server.tmux('send-keys', '-t', agent.pane, 'Enter');
    await sleep(12000);
    console.log(`=== ${name} screen\n${await agent.capture()}`);
    for (const e of model.journal()) {
      console.log(
        `--- ${e.method} ${e.path} side=${e.side} prompts=${JSON.stringify(e.prompts).slice(0, 600)} reply=${JSON.stringify(e.reply)}`,
      );
    }
    await server.tmux('send-keys', '-t', agent.pane, '-l', '!echo bang');
    await sleep(400);
    await server.tmux('send-keys', '-t', agent.pane, 'Enter');
    await sleep(5000);
    console.log(`=== ${name} after !\n${await agent.capture()}`);
    console.log(JSON.stringify(model.prompts()));
  }, 120_000);
}
