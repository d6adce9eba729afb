// The stall watchdog with the real agent CLIs at the scripted model server.
// - The model holds its answer open mid-turn (the stream started, nothing more): the agent's
//   spinner turns, nothing else moves. `stalled` (spinning) is recorded, noticed within stall
//   + one interval of quiet, and one webhook POST arrives; the answer comes, the stall is over,
//   the job ends done.
// - `--on-stall continue:2`: the agent answers without the job's pattern and sits at its idle
//   prompt. The continue line is typed twice — each after the turn before it ended — reaching
//   the model as a prompt each time; the third stall is told (one POST) and nothing more typed.
import {describe, expect, it} from 'vitest';
import {allowSinks, startHttpSink} from '../helpers/http-sink.js';
import {expectJobEnd, readJobEvents} from '../helpers/job-files.js';
import {startModelServer} from '../helpers/model-server.js';
import {type AgentName, agentAvailable, startAgent} from '../helpers/real-agents.js';
import {runNudge, shown} from '../helpers/run-nudge.js';
import {useTempDir} from '../helpers/temp-dir.js';
import {startTmuxServer} from '../helpers/tmux-server.js';
import {waitFor} from '../helpers/wait-for.js';

const STALL_MS = 5_000;
const INTERVAL_MS = 1_000;
/** A look is taken every interval; this much more for the look itself on a loaded machine. */
const LOOK_SLACK_MS = 1_500;

async function world(name: AgentName) {
  const model = await startModelServer();
  const server = await startTmuxServer();
  const home = useTempDir('nudge-home-');
  const agent = await startAgent(server, name, {modelUrl: model.url, approvals: 'all'});
  const http = await startHttpSink();
  const submit = async (args: string[], text: string) => {
    const r = await runNudge(
      [
        'submit',
        '-S',
        server.socket,
        '--pane',
        agent.pane,
        '--delay',
        '0',
        '--no-notice',
        '--interval',
        `${INTERVAL_MS}ms`,
        '--stall',
        `${STALL_MS}ms`,
        '--notify',
        `webhook:${http.url}/hook`,
        ...args,
        '--',
        text,
      ],
      {NUDGE_HOME: home, ...allowSinks([`webhook:${http.url}/hook`])},
    );
    expect(r.exitCode, shown(r)).toBe(0);
    return r.stdout.trim();
  };
  const events = (job: string) => readJobEvents(home, job);
  return {model, server, home, agent, http, submit, events};
}

const agents = (['claude', 'codex'] as const).filter((n) => agentAvailable(n));

describe.skipIf(agents.length === 0).each(agents)('%s: the stall watchdog', (name) => {
  it('a model that holds its answer: one stalled event (spinning) within stall + one interval, one POST; the answer ends it', {
    timeout: 240_000,
  }, async () => {
    const w = await world(name);
    let release = () => {};
    const held = new Promise<void>((r) => {
      release = r;
    });
    w.model.script({holdMs: 200_000, until: held, reply: {text: 'Finished at last.'}});
    const job = await w.submit(['--until', 'prompt'], `think for a long time (${name})`);
    await w.model.waitForPrompt(/think for a long time/, {timeoutMs: 120_000});
    const [post] = await w.http.waitFor('/hook', 1, 60_000);
    const told = JSON.parse(post?.body ?? '{}') as Record<string, unknown>;
    expect(told).toMatchObject({event: 'stalled', job, kind: 'spinning', state: 'waiting'});
    const stalled = (await w.events(job)).filter((e) => e.event === 'stalled');
    expect(stalled).toHaveLength(1);
    const quietMs = Number(stalled[0]?.quietMs);
    process.stdout.write(`stall: ${name} held stream noticed after ${quietMs} ms of quiet\n`);
    expect(quietMs).toBeGreaterThanOrEqual(STALL_MS);
    expect(quietMs).toBeLessThanOrEqual(STALL_MS + INTERVAL_MS + LOOK_SLACK_MS);
    // Shown while it lasts: the record and the pane's @nudge-state.
    const st = JSON.parse(
      (await runNudge(['status', job, '--json'], {NUDGE_HOME: w.home})).stdout,
    ) as {stalled?: {kind: string}};
    expect(st.stalled?.kind).toBe('spinning');
    expect(
      (await w.server.tmux('show-options', '-pqv', '-t', w.agent.pane, '@nudge-state')).trim(),
    ).toBe('stalled');
    // Still held for another stall's length: no second POST (once per stall).
    await new Promise((r) => setTimeout(r, STALL_MS + INTERVAL_MS));
    expect(w.http.received.filter((r) => r.path === '/hook')).toHaveLength(1);
    release();
    const _end = await expectJobEnd(w.home, job, 'done', 120_000);
    const names = (await w.events(job)).map((e) => e.event);
    expect(names).toContain('stall-over');
    expect(names.filter((e) => e === 'stalled')).toHaveLength(1);
    // The job's POSTs: the stall and the end.
    const posts = await w.http.waitFor('/hook', 2);
    const bodies = posts.map((r) => (JSON.parse(r.body) as {event: string}).event);
    expect(bodies).toEqual(['stalled', 'done']);
  });

  it('--on-stall continue:2 at an idle prompt: "Continue." reaches the model twice, after each turn ended; the third stall is told, nothing more typed', {
    timeout: 300_000,
  }, async () => {
    const w = await world(name);
    w.model.script({text: 'I have started.'}, {text: 'Still going.'}, {text: 'Almost there.'});
    const job = await w.submit(
      ['--until', 'regex:ALL-TESTS-GREEN', '--on-stall', 'continue:2', '--timeout', '5m'],
      `work until the tests pass (${name})`,
    );
    const [post] = await w.http.waitFor('/hook', 1, 180_000);
    expect(JSON.parse(post?.body ?? '{}')).toMatchObject({event: 'stalled', job, kind: 'quiet'});
    expect(String((JSON.parse(post?.body ?? '{}') as {reason?: string}).reason)).toContain(
      'continue:2 typed its 2 line(s) already',
    );
    const continued = (await w.events(job)).filter((e) => e.event === 'continued');
    expect(continued.map((e) => [e.n, e.delivery])).toEqual([
      [1, 'submitted'],
      [2, 'submitted'],
    ]);
    // At the model: the job's prompt, then the continue line twice.
    const texts = w.model.prompts().map((p) => p.text);
    expect(texts).toEqual([`work until the tests pass (${name})`, 'Continue.', 'Continue.']);
    // Each continue came after the turn before it had ended (an idle prompt, never mid-turn).
    const turns = w.model.journal().filter((e) => !e.side && e.reply !== undefined);
    for (let i = 1; i < turns.length; i++)
      expect(turns[i]?.at ?? 0).toBeGreaterThanOrEqual(turns[i - 1]?.endedAt ?? Infinity);
    // A further stall's length: nothing more typed, no second POST; the job still waits.
    await new Promise((r) => setTimeout(r, STALL_MS + 2 * INTERVAL_MS));
    expect(w.model.prompts()).toHaveLength(3);
    expect(w.http.received.filter((r) => r.path === '/hook')).toHaveLength(1);
    await waitFor('the job still waiting', async () => {
      const s = JSON.parse(
        (await runNudge(['status', job, '--json'], {NUDGE_HOME: w.home})).stdout,
      ) as {state: string};
      return s.state === 'waiting' || undefined;
    });
    await runNudge(['cancel', job], {NUDGE_HOME: w.home});
  });
});
