/**
 * What an agent does with a command for its shell mode (`!cmd`) submitted while a turn runs,
 * and while it is idle: whether it runs, and how each shows. AGENTS=opencode,claude …
 *
 *     AGENTS=opencode npx vitest run -c test/explore/vitest.config.ts shell-busy
 */
import {existsSync} from 'node:fs';
import {join} from 'node:path';
import {setTimeout as sleep} from 'node:timers/promises';
import {test} from 'vitest';
import type {AgentName} from '../helpers/real-agents.js';
import {agentAtModel} from './lib.js';

const agents = (process.env.AGENTS ?? 'opencode').split(',') as AgentName[];
for (const name of agents) {
  test(`shell mode while busy: ${name}`, async () => {
    const {model, agent, show, keys} = await agentAtModel(name, 'all');
    const idleMarker = join(agent.workdir, 'idle-ran');
    const busyMarker = join(agent.workdir, 'busy-ran');
    /** Keys to send (an array), a screen to show (a string), or a pause (a number, ms). */
    const run = async (...steps: Array<string[] | string | number>) => {
      for (const step of steps)
        if (typeof step === 'number') await sleep(step);
        else if (typeof step === 'string') await show(step);
        else await keys(...step);
    };
    // The shell mode, how it is emptied and left, and a command run from it while idle.
    await run(['-l', '!'], 'bang', ['-l', 'ls'], ['C-u'], 'bang ls C-u', ['BSpace']);
    await run('bang ls C-u BSpace', ['-l', '!'], ['-l', `echo yes > ${idleMarker}`]);
    await run('bang typed', ['Enter'], 3000, 'idle shell ran');
    console.log(`idle marker: ${existsSync(idleMarker)}`);
    // Gemini CLI and Qwen Code stay in their shell mode after a command: leave it.
    if (name === 'gemini' || name === 'qwen') await keys('Escape');
    // A command sent from the shell mode while a turn runs (the model holds it 10 s).
    model.script({holdMs: 10_000, reply: {text: 'fine'}});
    await run(['-l', 'hold on'], ['Enter'], 2000, ['-l', '!'], ['-l', `echo yes > ${busyMarker}`]);
    await run('busy bang typed', ['Enter'], 700, 'busy bang entered', 12_000, 'after');
    console.log(`busy marker: ${existsSync(busyMarker)}`);
    console.log(`prompts: ${JSON.stringify(model.prompts().map((p) => p.text))}`);
  }, 180_000);
}
