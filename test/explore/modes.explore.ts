import {setTimeout as sleep} from 'node:timers/promises';
import {test} from 'vitest';
import type {AgentName} from '../helpers/real-agents.js';
import {agentAtModel} from './lib.js';

const agents = (process.env.AGENTS ?? 'claude,gemini,codex').split(',') as AgentName[];
for (const name of agents) {
  test(`modes ${name}`, async () => {
    const {model, show, keys} = await agentAtModel(
      name,
      (process.env.APPROVALS as 'all') ?? 'default',
    );
    await show('idle');
    await keys('-l', 'a draft here');
    await show('draft');
    await keys('C-u');
    await keys('-l', '!');
    await show('bang');
    await keys('-l', 'ls');
    await show('bang ls');
    await keys('C-u');
    await show('bang C-u');
    await keys('BSpace');
    await show('bang BSpace');
    await keys('Escape');
    await show('Escape');
    await keys('BTab');
    await show('BTab 1');
    await keys('BTab');
    await show('BTab 2');
    await keys('BTab');
    await show('BTab 3');
    model.script({holdMs: 6000, reply: {text: 'fine'}});
    await keys('-l', 'hold on');
    await keys('Enter');
    await sleep(1500);
    await show('busy');
    await keys('-l', 'typed while busy');
    await show('busy draft');
    await sleep(8000);
    await show('after');
  }, 120_000);
}
