import {execFileSync} from 'node:child_process';
import {cpSync, readFileSync} from 'node:fs';
import {setTimeout as sleep} from 'node:timers/promises';
import {test} from 'vitest';
import type {AgentName} from '../helpers/real-agents.js';
import {agentAtModel} from './lib.js';

// Where each agent records a turn's reply: two prompts (a tool call then a multi-line reply;
// a plain reply), then every file under its HOME changed since, printed.
const agents = (process.env.AGENTS ?? 'claude,gemini,codex').split(',') as AgentName[];
for (const name of agents) {
  test(`records ${name}`, async () => {
    const {model, server, agent} = await agentAtModel(name, 'all');
    await agent.waitForIdle?.(60_000);
    model.script(
      {shell: 'echo hi-from-tool'},
      {text: 'Line one — ünïcode\nline two'},
      {text: 'second reply'},
    );
    for (const p of ['first question', 'second question']) {
      await server.tmux('send-keys', '-t', agent.pane, '-l', p);
      await sleep(400);
      await server.tmux('send-keys', '-t', agent.pane, 'Enter');
      await model.waitForPrompt(new RegExp(`^${p}$`), {timeoutMs: 60_000});
      await sleep(8000);
    }
    console.log(`=== ${name} screen\n${await agent.capture()}`);
    const files = execFileSync(
      'find',
      [agent.home, agent.workdir, '-type', 'f', '-newermt', '-2 minutes'],
      {encoding: 'utf8'},
    )
      .split('\n')
      .filter((f) => f && !/node_modules|\.lock$|\.git\//.test(f));
    execFileSync('mkdir', ['-p', `/tmp/records/${name}`]);
    for (const f of files) {
      let body = '';
      try {
        body = readFileSync(f, 'utf8');
      } catch {}
      console.log(`##### ${f} (${body.length})\n${body.slice(0, 3000)}`);
      cpSync(f, `/tmp/records/${name}/${f.replace(/\//g, '_')}`);
    }
  }, 180_000);
}
