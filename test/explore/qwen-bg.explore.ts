import {setTimeout as sleep} from 'node:timers/promises';
import {test} from 'vitest';
import {startModelServer} from '../helpers/model-server.js';
import {startAgent} from '../helpers/real-agents.js';
import {startTmuxServer} from '../helpers/tmux-server.js';
import {snap} from './lib.js';

// Qwen Code's background shell (`run_shell_command` with `is_background: true`): what the
// screen shows after the turn while it runs, and whether a turn follows when it ends.
test('qwen: a background shell command', async () => {
  const model = await startModelServer();
  const server = await startTmuxServer();
  const agent = await startAgent(server, 'qwen', {modelUrl: model.url, approvals: 'all'});
  model.script(
    {
      tool: 'run_shell_command',
      input: {command: 'sleep 15; echo BGDONE', description: 'bg', is_background: true},
    },
    {text: 'It runs in the background.'},
    {text: 'More.'},
  );
  await server.tmux('send-keys', '-t', agent.pane, '-l', 'go');
  await sleep(400);
  await server.tmux('send-keys', '-t', agent.pane, 'Enter');
  const t0 = Date.now();
  let last = '';
  let snapped = false;
  for (let i = 0; i < 150; i++) {
    const s = (await agent.capture())
      .split('\n')
      .filter((l) => l.trim())
      .slice(-10)
      .join('\n');
    if (!snapped && /[Bb]ackground/.test(s) && !/esc to cancel/.test(s)) {
      snapped = true;
      await snap(
        agent,
        'background-process',
        'run_shell_command with is_background: true; the turn ended',
      );
    }
    if (s !== last) {
      console.log(`--- +${Date.now() - t0}\n${s}`);
      last = s;
    }
    await sleep(150);
  }
  console.log('TURNS', model.journal().filter((e) => !e.side).length);
}, 120_000);
