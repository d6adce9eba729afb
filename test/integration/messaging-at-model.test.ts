/**
 * Issue 66's done-when, at the scripted model server: a Claude Code session asks a Codex
 * session through `nudge ask --id` from its Bash tool, and the call is retried three times —
 * Codex's model sees the question once, each retry answers the first reply. Then the
 * recipient's pane is killed mid-turn: the message is listed as undeliverable with why, and
 * `nudge resend` delivers it to a new pane's Codex once. Each job's receipts are checked as
 * recorded.
 */
import {join} from 'node:path';
import {describe, expect, onTestFinished, test} from 'vitest';
import {allowedAgent, escapeRegex, received, sq} from '../helpers/at-model-scenarios.js';
import {describePrompts, type ModelServer, startModelServer} from '../helpers/model-server.js';
import {stopWorkers, useNudgeHome} from '../helpers/nudge-home.js';
import {agentAvailable, startAgent} from '../helpers/real-agents.js';
import {nudgeBinDir, runNudge} from '../helpers/run-nudge.js';
import {startTmuxServer} from '../helpers/tmux-server.js';
import {waitFor} from '../helpers/wait-for.js';

const QUESTION = 'What is 6 times 7? Answer in one word.';
const ANSWER = 'Forty-two.';
const TASK = 'Ask the Codex session in the other pane what 6 times 7 is.';
const SECOND = 'Summarise the parser in one line.';
const SUMMARY = 'It reads one line at a time — and keeps nothing.';

/** The turn requests whose prompts hold `text`, each with how often. */
const requestsWith = (model: ModelServer, text: string) =>
  model
    .journal()
    .filter((e) => !e.side && e.prompts.includes(text))
    .map((e) => e.prompts.filter((p) => p === text).length);

describe.skipIf(!agentAvailable('claude') || !agentAvailable('codex'))(
  'Claude Code asks Codex',
  () => {
    test('through nudge ask --id from its Bash tool, retried three times: Codex’s model sees it once, each retry the first reply; killed mid-turn, undeliverable, and resent once to a new Codex', async () => {
      const model = await startModelServer();
      const server = await startTmuxServer();
      const home = useNudgeHome();
      onTestFinished(() => stopWorkers(home));
      const bin = nudgeBinDir(server.dir);
      const opts = allowedAgent(model, bin, home);
      const codex = await startAgent(server, 'codex', opts);
      const claude = await startAgent(server, 'claude', opts);
      const env = {NUDGE_HOME: home};
      const screen = (pane: string) => server.capture(pane).catch(() => '(gone)');
      const seen = async () =>
        `${describePrompts(model.prompts())}\n--- claude:\n${await screen(claude.pane)}\n--- codex:\n${await screen(codex.pane)}`;

      // Claude's turn: the same tool call four times (the first and three retries), then it
      // answers. nudge by its absolute path, as an agent's shell may not keep PATH.
      const ask = `${join(bin, 'nudge')} ask --pane ${codex.pane} --id q-42 --timeout 3m -- ${sq(QUESTION)}`;
      model.scriptFor(
        new RegExp(`^${escapeRegex(TASK)}$`),
        {shell: ask},
        {shell: ask},
        {shell: ask},
        {shell: ask},
        {text: 'Codex says forty-two.'},
      );
      model.scriptFor(new RegExp(`^${escapeRegex(QUESTION)}$`), {text: ANSWER});
      const typed = await runNudge(
        ['submit', '-S', server.socket, '--pane', claude.pane, '--no-notice', '--', TASK],
        env,
      );
      expect(typed.exitCode, typed.stderr).toBe(0);
      const last = await waitForClaudeDone(model);
      // Codex's model got the question once; each of Claude's four tool results the reply.
      expect(received(model, QUESTION), await seen()).toBe(1);
      expect(requestsWith(model, QUESTION), await seen()).toEqual([1]);
      const results = toolResults(last.body);
      expect(results.length, JSON.stringify(last.body).slice(-4000)).toBe(4);
      for (const r of results) expect(r).toContain(ANSWER);
      const jobs = JSON.parse((await runNudge(['jobs', '--json'], env)).stdout) as Array<{
        id: string;
        pane: string;
        receipt?: {rung: string};
      }>;
      const asked = jobs.filter((j) => j.pane === codex.pane);
      expect(asked.map((j) => j.receipt?.rung)).toEqual(['turn-ended']);

      // The recipient goes away mid-turn (its conversation began with the first question).
      model.scriptFor(new RegExp(`^${escapeRegex(QUESTION)}$`), {shell: 'sleep 300'});
      const pending = runNudge(
        [
          'ask',
          '-S',
          server.socket,
          '--pane',
          codex.pane,
          '--id',
          'q-43',
          '--timeout',
          '4m',
          '--',
          SECOND,
        ],
        env,
        300_000,
      );
      await model.waitForPrompt(new RegExp(`^${escapeRegex(SECOND)}$`), {timeoutMs: 120_000});
      const second = await jobOf(env, SECOND);
      const started = await runNudge(
        ['wait', '--job', second, '--until', 'turn-started', '--timeout', '2m'],
        env,
      );
      expect(started.exitCode, `${started.stdout}${started.stderr}\n${await seen()}`).toBe(0);
      await server.tmux('kill-pane', '-t', codex.pane);
      const cut = await pending;
      expect(cut.exitCode, cut.stdout + cut.stderr).toBe(1);
      const letters = JSON.parse((await runNudge(['jobs', '--undelivered', '--json'], env)).stdout);
      expect(letters.map((j: {id: string}) => j.id)).toEqual([second]);
      expect(letters[0].receipt).toMatchObject({rung: 'undeliverable', reached: 'turn-started'});
      expect(letters[0].receipt.why).toMatch(
        new RegExp(`^Pane ${escapeRegex(codex.pane)} is gone`),
      );

      // A new Codex, and the message resent to it: delivered once, answered.
      const again = await startAgent(server, 'codex', opts);
      model.scriptFor(new RegExp(`^${escapeRegex(SECOND)}$`), {text: SUMMARY});
      const resent = await runNudge(['resend', second, '--pane', again.pane, '--json'], env);
      expect(resent.exitCode, resent.stderr).toBe(0);
      const {resentAs} = JSON.parse(resent.stdout) as {resentAs: string};
      const done = await runNudge(
        ['wait', '--job', resentAs, '--until', 'turn-ended', '--timeout', '3m'],
        env,
      );
      expect(done.exitCode, `${done.stdout}${done.stderr}\n${await seen()}`).toBe(0);
      // The caller's retry under its id, to the new pane: the new job's reply, nothing typed.
      const retry = await runNudge(
        ['ask', '-S', server.socket, '--pane', again.pane, '--id', 'q-43', '--json', '--', SECOND],
        env,
        180_000,
      );
      expect(retry.exitCode, retry.stderr).toBe(0);
      expect(JSON.parse(retry.stdout)).toMatchObject({
        job: resentAs,
        reply: SUMMARY,
        sentBefore: 'q-43',
      });
      // Two conversations got it, each once: the killed one and the new pane's.
      expect(requestsWith(model, SECOND), await seen()).toEqual([1, 1]);
      const none = JSON.parse((await runNudge(['jobs', '--undelivered', '--json'], env)).stdout);
      expect(none).toEqual([]);
    }, 900_000);
  },
);

/** Claude's last turn request: the one after its fourth tool call (its answer follows). */
function waitForClaudeDone(model: ModelServer) {
  const turns = () => model.journal().filter((e) => !e.side && e.prompts[0] === TASK);
  return waitFor('Claude to make its five requests', async () => turns()[4], {
    timeoutMs: 420_000,
    intervalMs: 500,
    describe: () => `${turns().length} requests:\n${describePrompts(model.prompts())}`,
  });
}

/** The text of each tool result in an Anthropic Messages request body. */
function toolResults(body: unknown): string[] {
  const messages = (body as {messages?: Array<{content?: unknown}>}).messages ?? [];
  return messages.flatMap((m) =>
    Array.isArray(m.content)
      ? (m.content as Array<{type?: string; content?: unknown}>)
          .filter((c) => c.type === 'tool_result')
          .map((c) => JSON.stringify(c.content))
      : [],
  );
}

/** The job whose text is `text` (its preview). */
function jobOf(env: Record<string, string>, text: string): Promise<string> {
  return waitFor(
    `a job of ${JSON.stringify(text)}`,
    async () => {
      const r = await runNudge(['jobs', '--json'], env);
      const jobs = JSON.parse(r.stdout) as Array<{id: string; preview: string}>;
      return jobs.find((j) => j.preview === text)?.id;
    },
    {timeoutMs: 60_000, intervalMs: 300},
  );
}
