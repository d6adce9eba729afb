/**
 * nudge against the real agent CLIs (Claude Code, Gemini CLI, Codex CLI), offline, in a
 * private tmux server. `bash scripts/install-agents.sh` installs them into a cache folder;
 * an agent that is not installed is skipped. Every submission's delivery result is counted
 * and printed at the end of each agent's tests (the figures in the README and closing note).
 */
import {afterAll, describe, expect, onTestFinished, test} from 'vitest';
import {
  jobEventNames,
  readJobEvents,
  readJobState,
  waitForJobEnd,
  waitForJobState,
} from '../helpers/job-files.js';
import {stopWorkers} from '../helpers/nudge-home.js';
import {
  AGENT_NAMES,
  type AgentName,
  agentAvailable,
  type RealAgent,
  startAgent,
} from '../helpers/real-agents.js';
import {flagWords, runNudge, type SubmitFlags} from '../helpers/run-nudge.js';
import {useTempDir} from '../helpers/temp-dir.js';
import {startTmuxServer} from '../helpers/tmux-server.js';
import {waitFor} from '../helpers/wait-for.js';

const deliveries: Record<string, Record<string, number>> = {};
function count(agent: AgentName, delivery: unknown): void {
  deliveries[agent] ??= {};
  const byResult = deliveries[agent];
  const key = String(delivery);
  byResult[key] = (byResult[key] ?? 0) + 1;
}

afterAll(() => {
  process.stdout.write(
    `\nreal-agent deliveries (submissions by result): ${JSON.stringify(deliveries)}\n`,
  );
});

async function setup(name: AgentName): Promise<{
  agent: RealAgent;
  home: string;
  nudge: (args: string[]) => ReturnType<typeof runNudge>;
}> {
  const server = await startTmuxServer();
  const agent = await startAgent(server, name);
  const home = useTempDir('nudge-home-');
  // Its workers are done (or stopped) before the folder is removed (a waiter still writing
  // in it made the removal fail: ENOTEMPTY, CI 2026-12-03).
  onTestFinished(() => stopWorkers(home));
  const nudge = (args: string[]) => runNudge(args, {NUDGE_HOME: home}, 180_000);
  return {agent, home, nudge};
}

/** The job id printed by `submit --wait` (first word) or plain submit. */
const jobIdOf = (stdout: string) => stdout.trim().split(/\s+/)[0] ?? '';

/** Cancel the agent's busy turn like a person would (Escape), wait until it ended, and
 * empty the composer (C-u): Claude Code puts the interrupted prompt back into it, and nudge
 * treats text it did not type as a person's draft. */
async function endTurn(agent: RealAgent): Promise<void> {
  await agent.server.tmux('send-keys', '-t', agent.pane, 'Escape');
  await waitFor(
    'the turn to end',
    async () => (/esc to (interrupt|cancel)/.test(await agent.capture()) ? undefined : true),
    {timeoutMs: 60_000},
  );
  await agent.server.tmux('send-keys', '-t', agent.pane, 'C-u');
}

/** End the turn, then wait until the idle composer is back. */
async function cancelTurn(agent: RealAgent): Promise<void> {
  await endTurn(agent);
  await agent.waitForIdle(120_000);
}

/** `submit` to the agent's pane, typed at once and looked at every 300 ms, with `flags`. */
const submitTo = (
  agent: {server: {socket: string}; pane: string},
  flags: SubmitFlags,
  text: string,
) => [
  'submit',
  '-S',
  agent.server.socket,
  '--pane',
  agent.pane,
  ...flagWords({delay: 0, interval: '300ms', ...flags}),
  '--',
  text,
];

describe.each(AGENT_NAMES.filter((n) => agentAvailable(n)))('%s', (name) => {
  test('tricky text is submitted exactly once and exactly as given', async () => {
    const {agent, home, nudge} = await setup(name);
    const texts = [
      `check "a;b" and 'c' for $HOME in @notes.txt and main.ts — café 日本 ✓;`,
      '/tmp/build.log has the errors',
    ];
    for (const text of texts) {
      const r = await nudge(submitTo(agent, {notice: false, timeout: '2s', wait: true}, text));
      const id = jobIdOf(r.stdout);
      const state = await readJobState(home, id);
      count(name, state.delivery);
      expect(String(state.delivery), `${r.stdout}\n${r.stderr}`).toMatch(/^submitted/);
      const screen = await agent.capture();
      // Read back from the transcript: once, exactly (the composer no longer holds it).
      const occurrences = screen.split(text).length - 1;
      expect(occurrences, screen).toBe(1);
      await cancelTurn(agent);
    }
  }, 300_000);

  test('--until prompt does not call a busy agent idle, and does once Escape cancels the turn', async () => {
    const {agent, home, nudge} = await setup(name);
    const r = await nudge(
      submitTo(
        agent,
        {until: 'prompt', timeout: '150s', notice: 'Resume: {status} ({delivery})'},
        'say hello in five words',
      ),
    );
    const id = jobIdOf(r.stdout);
    await waitForJobState(home, id, ['waiting'], 60_000);
    // The agent retries the unreachable API: busy for a long time. Still waiting after a while?
    await agent.server.waitForScreen(agent.pane, /esc to (interrupt|cancel)/, 60_000);
    const busyChecks = await waitFor(
      'several checks of the busy agent',
      async () => {
        const s = await readJobState(home, id);
        return s.state === 'waiting' && Date.now() - Date.parse(String(s.updatedAt)) > 3_000
          ? s
          : undefined;
      },
      {timeoutMs: 30_000},
    );
    expect(busyChecks.state).toBe('waiting');
    const escapedAt = Date.now();
    await agent.server.tmux('send-keys', '-t', agent.pane, 'Escape');
    const end = await waitForJobEnd(home, id, 150_000);
    const events = await readJobEvents(home, id);
    const met = events.find((e) => e.event === 'condition-met');
    expect(end.state, JSON.stringify(events)).toBe('done');
    expect(Date.parse(met!.t)).toBeGreaterThanOrEqual(escapedAt - 50);
    count(name, end.delivery);
    count(name, end.noticeDelivery);
    // The notice was submitted, not left sitting in the composer.
    expect(String(end.noticeDelivery), JSON.stringify(events)).toMatch(/^(submitted|queued)/);
    await agent.server.waitForScreen(agent.pane, /Resume: done \(submitted/, 30_000);
  }, 300_000);

  test.skipIf(name === 'codex')(
    'a "!" shell command runs, exactly once',
    async () => {
      const {agent, home, nudge} = await setup(name);
      const r = await nudge(
        submitTo(
          agent,
          {notice: false, until: 'regex:nudge-42', timeout: '60s', wait: true},
          '!echo nudge-$((6*7))',
        ),
      );
      expect(r.exitCode, `${r.stdout}\n${r.stderr}`).toBe(0);
      const state = await readJobState(home, jobIdOf(r.stdout));
      count(name, state.delivery);
      expect(state.match).toBe('nudge-42');
      const screen = await agent.capture();
      expect(screen.split('nudge-42').length - 1, screen).toBe(1);
    },
    300_000,
  );

  test("a person's draft is never destroyed; copy mode is left; --when-idle waits for a busy agent", async () => {
    const {agent, home, nudge} = await setup(name);
    // A draft typed by a "person": the job waits, then fails; the draft stays.
    await agent.server.tmux('send-keys', '-t', agent.pane, '-l', 'person is typing this');
    await agent.server.waitForScreen(agent.pane, /person is typing this/);
    const drafted = await nudge(
      submitTo(agent, {draftWait: '1s', wait: true, notice: false}, 'not now'),
    );
    expect(drafted.exitCode, `${drafted.stdout}\n${drafted.stderr}`).toBe(1);
    expect(drafted.stdout).toMatch(/draft in its input line/);
    const screen = await agent.capture();
    expect(screen).toMatch(/person is typing this/);
    expect(screen).not.toMatch(/not now/);
    await agent.server.tmux('send-keys', '-t', agent.pane, 'C-u');

    // Copy mode is left before typing.
    await agent.server.tmux('copy-mode', '-t', agent.pane);
    const copied = await nudge(
      submitTo(agent, {timeout: '2s', wait: true, notice: false}, 'first task'),
    );
    const copiedState = await readJobState(home, jobIdOf(copied.stdout));
    count(name, copiedState.delivery);
    expect(String(copiedState.delivery), JSON.stringify(copiedState)).toMatch(/^submitted/);
    expect(await jobEventNames(home, copiedState.id as string)).toContain('left-mode');

    // The agent is busy with "first task": --when-idle keeps the next job queued.
    await agent.server.waitForScreen(agent.pane, /esc to (interrupt|cancel)/, 60_000);
    const queued = await nudge(
      submitTo(
        agent,
        {whenIdle: true, idleTimeout: '150s', notice: false, timeout: '2s'},
        'second task',
      ),
    );
    const id = jobIdOf(queued.stdout);
    await waitFor(
      'the job to wait for idle',
      async () =>
        (await readJobEvents(home, id)).some((e) => e.event === 'waiting-for-idle')
          ? true
          : undefined,
      {timeoutMs: 30_000},
    );
    expect((await readJobState(home, id)).state).toBe('queued');
    // The person cancels the turn and empties the composer.
    await endTurn(agent);
    const end = await waitForJobEnd(home, id, 150_000);
    count(name, end.delivery);
    expect(String(end.delivery), JSON.stringify(await readJobEvents(home, id))).toMatch(
      /^submitted/,
    );
  }, 400_000);
});
