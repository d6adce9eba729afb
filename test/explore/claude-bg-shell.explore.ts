import {chmodSync, existsSync, readFileSync, writeFileSync} from 'node:fs';
import {setTimeout as sleep} from 'node:timers/promises';
import {test} from 'vitest';
import {startModelServer} from '../helpers/model-server.js';
import {startAgent} from '../helpers/real-agents.js';
import {startTmuxServer} from '../helpers/tmux-server.js';
import {snap} from './lib.js';

// Claude Code's background shell (`run_in_background: true`): what its screen shows while the
// command runs (test/fixtures/screens/claude-background-shell.txt), after it ended
// (claude-background-done.txt), what its Stop hook's payload says, and how soon after the
// footer clears the turn Claude starts on its own shows busy (AFTER_WORK_MS,
// src/detect/settle.ts). Run with NUDGE_AGENTS_DIR=…/newest for the newest release.
test('claude: a background shell, its screens and Stop payloads', async () => {
  const model = await startModelServer();
  const server = await startTmuxServer();
  const dump = `${server.dir}/dump.sh`;
  const log = `${server.dir}/stops.jsonl`;
  writeFileSync(dump, `#!/bin/sh\n{ date +%s%3N; cat; echo; } >> ${log}\n`);
  chmodSync(dump, 0o755);
  const agent = await startAgent(server, 'claude', {
    modelUrl: model.url,
    approvals: 'all',
    hookCommand: [dump],
  });
  model.script(
    {
      tool: 'Bash',
      input: {
        command: 'sleep 12; echo BGDONE',
        description: 'Run it in the background',
        run_in_background: true,
      },
    },
    {text: 'Started it in the background.'},
    {holdMs: 1500, reply: {text: 'The background command finished.'}},
  );
  await server.tmux('send-keys', '-t', agent.pane, '-l', 'start the thing');
  await sleep(400);
  await server.tmux('send-keys', '-t', agent.pane, 'Enter');
  const t0 = Date.now();
  const footer = /· ↓ to manage/;
  const busy = /esc to interrupt/;
  let sawFooter = false;
  let footerGoneAt = 0;
  for (let i = 0; i < 400; i++) {
    const screen = await agent.capture();
    const at = Date.now() - t0;
    if (!sawFooter && footer.test(screen) && !busy.test(screen)) {
      sawFooter = true;
      console.log(`footer at +${at} ms`);
      await snap(
        agent,
        `background-shell${process.env.SNAP_SUFFIX ?? ''}`,
        'a Bash call with run_in_background: true, its command running',
      );
    }
    if (sawFooter && !footerGoneAt && !footer.test(screen)) {
      footerGoneAt = at;
      console.log(`footer gone at +${at} ms, busy: ${busy.test(screen)}`);
    }
    if (footerGoneAt && busy.test(screen)) {
      console.log(`busy again at +${at} ms (${at - footerGoneAt} ms after the footer cleared)`);
      break;
    }
    await sleep(50);
  }
  await agent.waitForIdle(60_000);
  await snap(
    agent,
    `background-done${process.env.SNAP_SUFFIX ?? ''}`,
    'the background command ended and the turn Claude started on its own ended',
  );
  console.log('STOPS', existsSync(log) ? readFileSync(log, 'utf8') : '(none)');
}, 200_000);
