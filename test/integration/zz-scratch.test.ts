import {execFileSync} from 'node:child_process';
import {writeFileSync} from 'node:fs';
import {join} from 'node:path';
import {test} from 'vitest';
import {setup, say} from '../helpers/at-model-scenarios.js';

test('scratch copilot server tree', async () => {
  const w = await setup('copilot', 'all');
  const serve = join(w.agent.workdir, 'serve.sh');
  writeFileSync(serve, `#!/bin/sh\nexec node -e 'require("net").createServer().listen(0, "127.0.0.1"); setInterval(() => {}, 1000)'\n`, {mode: 0o755});
  w.model.script({tool: 'bash', input: {command: './serve.sh', description: 'srv', mode: 'async'}}, {text: 'The server is up.'});
  await say(w, 'start the server');
  await w.server.waitForScreen(w.agent.pane, /Waiting for background shells/, 30_000);
  const pid = (await w.server.tmux('display', '-p', '-t', w.agent.pane, '#{pane_pid}')).trim();
  writeFileSync('/tmp/copilot-tree.txt', execFileSync('sh', ['-c', `ps -eo pid,ppid,pgid,sid,args --forest | grep -v grep | awk '{print}' | grep -A30 " ${pid} " | head -40; ss -ltnp | grep node`]).toString());
}, 300_000);
