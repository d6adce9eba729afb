import {setTimeout as sleep} from 'node:timers/promises';
import {test} from 'vitest';
import type {AgentName} from '../helpers/real-agents.js';
import {agentAtModel} from './lib.js';

/** The steps before the busy turn: a screen's name, then the send-keys arguments before it. */
const STEPS: Array<[string, ...string[][]]> = [
  ['draft', ['-l', 'a draft here']],
  ['bang', ['C-u'], ['-l', '!']],
  ['bang ls', ['-l', 'ls']],
  ['bang C-u', ['C-u']],
  ['bang BSpace', ['BSpace']],
  ['Escape', ['Escape']],
  ['BTab 1', ['BTab']],
  ['BTab 2', ['BTab']],
  ['BTab 3', ['BTab']],
];

const agents = (process.env.AGENTS ?? 'claude,gemini,codex').split(',') as AgentName[];
for (const name of agents) {
  test(`modes ${name}`, async () => {
    const {model, show, keys} = await agentAtModel(
      name,
      (process.env.APPROVALS as 'all') ?? 'default',
    );
    await show('idle');
    // Each step: the keys sent, then the screen shown under its name.
    for (const [label, ...steps] of STEPS) {
      for (const step of steps) await keys(...step);
      await show(label);
    }
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
