/**
 * A command for an agent's shell mode (`nudge submit -- '!cmd'`) sent while a turn runs, at the
 * model server, for the agents whose shell mode drops or refuses one then (Profile.
 * shellNeedsIdle, measured in test/explore/shell-busy.explore.ts: opencode drops it without a
 * word, Gemini CLI refuses it, Qwen Code queues it and sends it to the model as a prompt).
 * Before the fix a job reported done while the command never ran (CI, 2026-11-29).
 */
import {existsSync, readFileSync} from 'node:fs';
import {join} from 'node:path';
import {describe, expect, test} from 'vitest';
import {PROFILES} from '../../src/agents/registry.js';
import {
  expectDone,
  jobReached,
  received,
  say,
  setup,
  submitInto,
} from '../helpers/at-model-scenarios.js';
import {readJobEvents} from '../helpers/job-files.js';
import {describePrompts} from '../helpers/model-server.js';
import {AGENT_NAMES, agentAvailable, DATA_AGENT_NAMES} from '../helpers/real-agents.js';

const agents = [...AGENT_NAMES, ...DATA_AGENT_NAMES].filter(
  (n) => PROFILES[n]?.shellNeedsIdle === true && agentAvailable(n),
);

describe.each(agents)('%s', (name) => {
  test('a shell-mode command submitted while a turn runs: Enter after the turn; it runs once, never as a prompt', async () => {
    const w = await setup(name, 'all');
    const marker = join(w.agent.workdir, 'ran.log');
    const command = `echo ran >> ${marker}`;
    // The turn stays open until the job waits for it (or, without the wait, has typed).
    w.model.script({
      holdMs: 120_000,
      until: jobReached(w, ['waiting-for-turn', 'typed']),
      reply: {text: 'Thought it over.'},
    });
    await say(w, 'think it over');
    const r = await submitInto(w, [], `!${command}`);
    expect(r.exitCode, r.stderr).toBe(0);
    const id = r.stdout.trim();
    await expectDone(w, id);
    const events = await readJobEvents(w.home, id);
    const seen = `${JSON.stringify(events)}\n${await w.agent.capture()}\n${describePrompts(w.model.prompts())}`;
    expect(existsSync(marker) ? readFileSync(marker, 'utf8') : '(never ran)', seen).toBe('ran\n');
    // Never sent to the model as a prompt (Qwen Code's queue would have).
    expect(received(w.model, command) + received(w.model, `!${command}`), seen).toBe(0);
    // Enter went after the turn ended at the model.
    const held = w.model.journal().find((e) => e.reply && 'holdMs' in e.reply);
    const typed = events.find((e) => e.event === 'typed');
    expect(
      events.map((e) => e.event),
      seen,
    ).toContain('waiting-for-turn');
    expect(Date.parse(String(typed?.t))).toBeGreaterThan(held?.endedAt ?? Number.POSITIVE_INFINITY);
  }, 300_000);
});
