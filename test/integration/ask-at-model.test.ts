/**
 * `nudge ask` at the scripted model server (issue 47): for each agent that keeps a record
 * nudge reads its replies from, the reply `ask` prints is the final text the model server sent
 * for that turn, byte for byte — a multi-line, non-ASCII reply that follows a tool call, then
 * a second ask in the same session answered with the second reply, not the first; on the first
 * agent, the MCP tool and a notice's `{reply}` in the same session. And a pane
 * whose program keeps no such record is refused before a key is typed.
 */
import {existsSync, readdirSync} from 'node:fs';
import {join} from 'node:path';
import {describe, expect, test} from 'vitest';
import {PROFILES} from '../../src/agents/registry.js';
import {freePort} from '../harness/ssh-hosts.js';
import {received, setup, submitInto, type World} from '../helpers/at-model-scenarios.js';
import {callTool, spawnedMcp} from '../helpers/mcp-client.js';
import {describePrompts} from '../helpers/model-server.js';
import {
  AGENT_NAMES,
  agentAvailable,
  agentVersion,
  claudeHasAutoMode,
  DATA_AGENT_NAMES,
} from '../helpers/real-agents.js';
import {recorderWorld, startRecorder} from '../helpers/recorder-pane.js';
import {runNudge} from '../helpers/run-nudge.js';

const agents = [...AGENT_NAMES, ...DATA_AGENT_NAMES].filter(
  (n) => PROFILES[n]?.replies !== undefined && agentAvailable(n),
);

/** `nudge ask` of the agent's pane, from outside it (an orchestrator's shell), with `flags`. */
const askIn = (w: World, flags: readonly string[], text: string) =>
  w.nudge(['ask', '-S', w.server.socket, '--pane', w.agent.pane, ...flags, '--', text]);

const FIRST = 'Line one — ünïcode ✓\n  line two, indented\n\nline four';
const SECOND = 'second reply: 日本語';
const THIRD = 'third, through MCP';

describe.each(agents)('%s', (name) => {
  test('ask prints the reply the model sent for that turn, after a tool call; a second ask gets the second', async () => {
    // opencode's replies come from its own server: started with --port, as docs/ask.md says.
    const args = name === 'opencode' ? ['--port', String(await freePort())] : undefined;
    const w = await setup(name, 'all', args ? {args} : {});
    w.model.script({shell: 'echo hi-from-tool'}, {text: FIRST}, {text: SECOND});
    const ask = (text: string, json: boolean) =>
      askIn(w, ['--timeout', '3m', ...(json ? ['--json'] : [])], text);
    const seen = async () => `${await w.agent.capture()}\n${describePrompts(w.model.prompts())}`;

    const first = await askIn(w, ['--timeout', '3m', '--json', '--id', 'q-1'], 'first question');
    expect(first.exitCode, `${first.stderr}\n${first.stdout}\n${await seen()}`).toBe(0);
    const answer = JSON.parse(first.stdout);
    expect(answer.reply).toBe(FIRST);
    expect(answer).toMatchObject({state: 'done', pane: w.agent.pane, agent: name});
    expect(answer.turn.duration_ms).toBeGreaterThanOrEqual(0);
    // The model server counts 5 output tokens a request: two requests (the tool call, the reply).
    expect(answer.tokens?.output, JSON.stringify(answer)).toBeGreaterThanOrEqual(5);
    expect(received(w.model, 'first question'), await seen()).toBe(1);
    // Its receipts as the job recorded them, up the ladder to the turn's end (held, if the
    // agent made it wait, between the first two; turn-started as the turn ends where it was
    // too quick to be seen at work, or queued).
    const status = JSON.parse((await w.nudge(['status', answer.job, '--json'])).stdout);
    const rungs = (status.events as Array<{event: string; rung?: string}>)
      .filter((e) => e.event === 'receipt' && e.rung !== 'held')
      .map((e) => e.rung);
    expect(rungs, JSON.stringify(status.events)).toEqual([
      'accepted',
      'delivered',
      'turn-started',
      'turn-ended',
    ]);

    const second = await ask('second question', false);
    expect(second.exitCode, `${second.stderr}\n${await seen()}`).toBe(0);
    // The reply and the line's end (the test's runner takes the last newline off).
    expect(second.stdout).toBe(SECOND);
    expect(received(w.model, 'second question'), await seen()).toBe(1);
    // The first question asked again under its id (a retried tool call): its own reply, and the
    // model did not get it a second time.
    const retried = await askIn(w, ['--json', '--id', 'q-1'], 'first question');
    expect(retried.exitCode, `${retried.stderr}\n${await seen()}`).toBe(0);
    expect(JSON.parse(retried.stdout)).toMatchObject({
      job: answer.job,
      reply: FIRST,
      sentBefore: 'q-1',
    });
    expect(received(w.model, 'first question'), await seen()).toBe(1);
    // The MCP tool and a notice's {reply}, on the first agent (its session goes on).
    if (name === agents[0]) {
      await askThroughMcp(w, name);
      await replyInANotice(w);
    }
  }, 420_000);
});

/** The MCP tool `ask`, from a client of the agents' tmux server outside their panes (an
 * orchestrator's): the same answer as the command's. */
async function askThroughMcp(w: World, name: string): Promise<void> {
  w.model.script({text: THIRD});
  const client = await spawnedMcp({NUDGE_HOME: w.home, TMUX: `${w.server.socket},1,0`});
  const answer = await callTool(client, 'ask', {
    pane: w.agent.pane,
    text: 'third question',
    timeout: '3m',
  });
  const value = answer.structuredContent ?? {};
  expect(answer.isError, JSON.stringify(answer)).toBeFalsy();
  expect((value.reply as {text?: string} | undefined)?.text).toBe(THIRD);
  expect(value).toMatchObject({pane: w.agent.pane, agent: name, outcome: {state: 'done'}});
  expect(received(w.model, 'third question')).toBe(1);
}

/** A job's notice with `{reply}`: the reply of the job's turn, quoted, typed into the notify
 * pane (a recorder: every byte it gets). */
async function replyInANotice(w: World): Promise<void> {
  w.model.script({shell: 'echo hi-from-tool'}, {text: FIRST});
  const rec = await startRecorder(w.server);
  const flags = ['--notify-pane', rec.pane, '--notice', 'Done: {reply}'];
  const r = await submitInto(w, flags, 'fourth question');
  expect(r.exitCode, r.stderr).toBe(0);
  const [line] = await rec.lines(1, 240_000);
  expect(line).toBe(`Done: nudge: the agent in ${w.agent.pane} replied ${JSON.stringify(FIRST)}`);
  expect(received(w.model, 'fourth question')).toBe(1);
}

describe.skipIf(!agentAvailable('claude'))('a turn that does not end with a reply (claude)', () => {
  test('a permission dialog: exit 3 with its question, nothing answered', async () => {
    const mode = claudeHasAutoMode(agentVersion('claude')) ? 'manual' : 'default';
    const w = await setup('claude', mode);
    w.model.script({shell: 'touch made.txt'}, {text: 'Made it.'});
    const r = await askIn(w, [], 'make it');
    expect(r.exitCode, `${r.stderr}\n${await w.agent.capture()}`).toBe(3);
    expect(r.stderr).toMatch(/ blocked(?: after .*)?: Do you want to proceed\?$/m);
    expect(r.stdout).toBe('');
    expect(existsSync(join(w.agent.workdir, 'made.txt'))).toBe(false);
  }, 300_000);

  test('a turn longer than --timeout: exit 124, no reply', async () => {
    const w = await setup('claude', 'all');
    w.model.script({holdMs: 120_000, reply: {text: 'too late'}});
    const r = await askIn(w, ['--timeout', '5s', '--json'], 'take your time');
    expect(r.exitCode, r.stderr).toBe(124);
    const answer = JSON.parse(r.stdout);
    expect(answer).toMatchObject({state: 'timeout'});
    expect(answer.reply).toBeUndefined();
  }, 300_000);
});

describe.skipIf(!agentAvailable('opencode'))('opencode without --port', () => {
  test('refused at once, exit 1, nothing typed: its replies come from its server', async () => {
    const w = await setup('opencode', 'all');
    const r = await askIn(w, [], 'hi');
    expect(r.exitCode, r.stderr).toBe(1);
    expect(r.stderr).toMatch(/started with --port N .*; nothing was typed into %\d+\.$/m);
    expect(existsSync(join(w.home, 'jobs')) ? readdirSync(join(w.home, 'jobs')) : []).toEqual([]);
    expect(w.model.prompts()).toEqual([]);
  }, 240_000);
});

describe('a program without a record', () => {
  test('a shell pane is refused at once, exit 1, nothing typed', async () => {
    const {server, rec, home} = await recorderWorld();
    const r = await runNudge(['ask', '-S', server.socket, '--pane', rec.pane, '--', 'what?'], {
      NUDGE_HOME: home,
    });
    expect(r.exitCode, r.stderr).toBe(1);
    expect(r.stderr).toMatch(
      /not an agent nudge knows; nudge ask reads the reply from an agent's own record, so nothing was typed\.$/m,
    );
    // The refusal came before a job was made or a key was sent.
    expect((await rec.bytes()).toString()).toBe('');
    expect(existsSync(join(home, 'jobs')) ? readdirSync(join(home, 'jobs')) : []).toEqual([]);
  }, 60_000);

  test('your own pane is refused (exit 2): your turn cannot end while you wait for it', async () => {
    const {server, rec, home} = await recorderWorld();
    const r = await rec.nudge(['ask', '-S', server.socket, '--pane', rec.pane, '--', 'what?'], {
      NUDGE_HOME: home,
    });
    expect(r.exitCode, r.stderr).toBe(2);
    expect(r.stderr).toMatch(new RegExp(`Pane ${rec.pane} is your own`));
    expect((await rec.bytes()).toString()).toBe('');
  }, 60_000);
});
