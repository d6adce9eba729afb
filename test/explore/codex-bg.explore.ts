import {setTimeout as sleep} from 'node:timers/promises';
import {test} from 'vitest';
import {startModelServer} from '../helpers/model-server.js';
import {startAgent} from '../helpers/real-agents.js';
import {startTmuxServer} from '../helpers/tmux-server.js';
import {snap} from './lib.js';

// Codex's background terminals (unified exec): a command still running when its
// `exec_command` call yields, and the turn that ends while it runs — what the screen shows.
test('codex: a command left running past its yield, and the turn that ends', async () => {
  const model = await startModelServer();
  const server = await startTmuxServer();
  const agent = await startAgent(server, 'codex', {modelUrl: model.url, approvals: 'all'});
  let snapped = false;
  model.script(
    {tool: 'exec_command', input: {cmd: 'sleep 15; echo BGDONE', yield_time_ms: 1000}},
    {text: 'It runs in the background.'},
    {text: 'More.'},
  );
  await server.tmux('send-keys', '-t', agent.pane, '-l', 'go');
  await sleep(400);
  await server.tmux('send-keys', '-t', agent.pane, 'Enter');
  const t0 = Date.now();
  let last = '';
  for (let i = 0; i < 160; i++) {
    const s = (await agent.capture())
      .split('\n')
      .filter((l) => l.trim())
      .slice(-8)
      .join('\n');
    if (!snapped && /background terminal running · \/ps/.test(s) && !/esc to interrupt/.test(s)) {
      snapped = true;
      await snap(
        agent,
        `background-terminal${process.env.SNAP_SUFFIX ?? ''}`,
        'exec_command left a command running past its yield; the turn ended',
      );
    }
    if (s !== last) {
      console.log(`--- +${Date.now() - t0}\n${s}`);
      last = s;
    }
    await sleep(150);
  }
}, 120_000);
