import {setTimeout as sleep} from 'node:timers/promises';
import {test} from 'vitest';
import {startAgent} from '../helpers/real-agents.js';
import {nudgeBinDir} from '../helpers/run-nudge.js';
import {modelAndServer} from './lib.js';

test('codex default approvals running nudge', async () => {
  const {model, server} = await modelAndServer();
  const bin = nudgeBinDir(server.dir);
  const agent = await startAgent(server, 'codex', {
    modelUrl: model.url,
    approvals: 'default',
    path: [bin],
    env: {NUDGE_HOME: `${server.dir}/nh`},
  });
  model.script({shell: `tmux -S ${server.socket} display -p hi 2>&1 | tail -c 150`}, {text: 'ok'});
  await server.tmux('send-keys', '-t', agent.pane, '-l', 'go');
  await sleep(400);
  await server.tmux('send-keys', '-t', agent.pane, 'Enter');
  await sleep(10000);
  console.log(await agent.capture());
  for (const e of model.journal()) console.log(e.path, JSON.stringify(e.body).slice(0, 200));
}, 120_000);
