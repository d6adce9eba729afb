/**
 * `blocked` on the real agents, at the scripted model server: the model makes a tool call that
 * needs a person's permission (nothing allowed), or asks the person a question with its own
 * question tool; a job typed into the agent from outside is `blocked` within 2 s of the
 * dialog, the webhook gets one POST with the question, `nudge wait` on the pane exits 3, and
 * nothing was typed into the dialog: the model received the job's prompt alone, the dialog is
 * still there, the command never ran. Answered, the job goes on to its verdict.
 */
import {existsSync, mkdirSync, writeFileSync} from 'node:fs';
import {join} from 'node:path';
import {describe, expect, onTestFinished, test} from 'vitest';
import {allowSinks, startHttpSink} from '../helpers/http-sink.js';
import {expectJobEnd, jobEvent, readJobEvents, waitForJobBlocked} from '../helpers/job-files.js';
import {describePrompts, type Reply, startModelServer} from '../helpers/model-server.js';
import {
  type AgentName,
  agentAvailable,
  agentVersion,
  claudeHasAutoMode,
  startAgent,
} from '../helpers/real-agents.js';
import {flagWords, runNudge, submitJob} from '../helpers/run-nudge.js';
import {useTempDir} from '../helpers/temp-dir.js';
import {startTmuxServer} from '../helpers/tmux-server.js';
import {waitFor} from '../helpers/wait-for.js';

/** A tool call each agent asks a person about with nothing allowed, and the question. */
const PERMISSION: Partial<Record<AgentName, {reply: Reply; question: string}>> = {
  claude: {reply: {shell: 'touch made.txt'}, question: 'Do you want to proceed?'},
  gemini: {reply: {shell: 'touch made.txt'}, question: 'Allow execution of [Shell]?'},
  // Codex runs commands in its sandbox without asking; one asked outside it is asked about.
  codex: {
    reply: {
      tool: 'exec_command',
      input: {
        cmd: 'touch made.txt',
        sandbox_permissions: 'require_escalated',
        justification: 'to make it',
      },
    },
    question: 'Would you like to run the following command?',
  },
  copilot: {reply: {shell: 'touch made.txt'}, question: 'Do you want to run this command?'},
};

/** The model's own question tool, where the agent has one. */
const QUESTION: Partial<Record<AgentName, Reply>> = {
  claude: {
    tool: 'AskUserQuestion',
    input: {
      questions: [
        {
          question: 'Which database should we use?',
          header: 'Database',
          multiSelect: false,
          options: [
            {label: 'Postgres', description: 'relational'},
            {label: 'SQLite', description: 'a file'},
          ],
        },
      ],
    },
  },
  gemini: {
    tool: 'ask_user',
    input: {
      questions: [
        {
          question: 'Which database should we use?',
          header: 'Database',
          type: 'choice',
          options: [
            {label: 'Postgres', description: 'relational'},
            {label: 'SQLite', description: 'a file'},
          ],
        },
      ],
    },
  },
};

async function setup(name: AgentName) {
  const model = await startModelServer();
  const server = await startTmuxServer();
  const home = useTempDir('nudge-home-');
  // Claude Code 2.1.283 and newer start in auto mode, whose classifier lets the call run: its
  // mode that asks (manual) is the one with a dialog.
  const manual = name === 'claude' && claudeHasAutoMode(agentVersion('claude'));
  const agent = await startAgent(server, name, {
    modelUrl: model.url,
    approvals: 'none',
    env: {NUDGE_HOME: home},
    ...(manual ? {permissionMode: 'default' as const} : {}),
  });
  return {model, server, home, agent};
}

/** A pane option of the agent's pane ('' when unset). */
async function paneOption(w: Awaited<ReturnType<typeof setup>>, option: string): Promise<string> {
  return (await w.server.tmux('display', '-p', '-t', w.agent.pane, `#{${option}}`)).trim();
}

/** When `pattern` first showed on the pane (looked at every 100 ms from now). */
function firstSeen(w: Awaited<ReturnType<typeof setup>>, pattern: RegExp): Promise<number> {
  const stop = new AbortController();
  onTestFinished(() => stop.abort());
  return (async () => {
    while (!stop.signal.aborted) {
      if (pattern.test(await w.agent.capture().catch(() => ''))) return Date.now();
      await new Promise((r) => setTimeout(r, 100));
    }
    return Number.NaN;
  })();
}

const withPermission = (Object.keys(PERMISSION) as AgentName[]).filter((n) => agentAvailable(n));
const withQuestion = (Object.keys(QUESTION) as AgentName[]).filter((n) => agentAvailable(n));

describe.skipIf(withPermission.length === 0).each(withPermission)(
  '%s stops at a permission dialog',
  (name) => {
    test('the job is blocked within 2 s of the dialog; one POST with the question; wait exits 3; nothing typed into it; answered, it goes on to done', async () => {
      const w = await setup(name);
      const {reply, question} = PERMISSION[name] ?? {reply: {text: ''}, question: ''};
      const http = await startHttpSink();
      w.model.script(reply, {text: 'Made it.'});
      const escaped = question.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
      const shown = firstSeen(w, new RegExp(escaped));
      const id = await submitJob(
        [
          'submit',
          ...flagWords({
            socketPath: w.server.socket,
            pane: w.agent.pane,
            delay: 0,
            until: 'prompt',
            notice: false,
            notify: `webhook:${http.url}/hook`,
          }),
          '--',
          'make the file',
        ],
        {NUDGE_HOME: w.home, ...allowSinks([`webhook:${http.url}/hook`])},
      );
      // Blocked while the dialog is up: the record says so, and the job has not ended.
      const atDialog = await waitForJobBlocked(w.home, id, 120_000);
      const events = await readJobEvents(w.home, id);
      expect(atDialog.state, `${JSON.stringify(events)}\n${await w.agent.capture()}`).toBe(
        'waiting',
      );
      expect(atDialog.blocked).toMatchObject({kind: 'permission', question, pane: w.agent.pane});
      const found = Date.parse(String(events.find((e) => e.event === 'needs-person')?.t));
      const latency = found - (await shown);
      process.stdout.write(
        `blocked: ${name} permission dialog on screen → job blocked ${latency} ms\n`,
      );
      expect(latency).toBeLessThan(2_000);
      const [post] = await http.waitFor('/hook');
      expect(JSON.parse(post?.body ?? '')).toMatchObject({
        event: 'blocked',
        kind: 'permission',
        question,
      });
      const wait = await runNudge(['wait', '-S', w.server.socket, w.agent.pane, '--json'], {
        NUDGE_HOME: w.home,
      });
      expect(wait.exitCode, wait.stdout).toBe(3);
      expect(JSON.parse(wait.stdout)).toMatchObject({
        status: 'blocked',
        blocked: {kind: 'permission', question},
      });
      // Nothing was typed into the dialog: it is still there, the command never ran, and the
      // model received the job's prompt alone.
      expect(await w.agent.capture()).toContain(question);
      expect(existsSync(join(w.agent.workdir, 'made.txt'))).toBe(false);
      expect(
        w.model.prompts().map((p) => p.text),
        describePrompts(w.model.prompts()),
      ).toEqual(['make the file']);
      expect(http.received).toHaveLength(1);

      // The person answers (no): the job records that the dialog was answered, and goes on
      // to its verdict: the agent back at its composer, done; the pane stops saying blocked.
      expect(await paneOption(w, '@nudge-state')).toBe('blocked');
      await w.server.tmux('send-keys', '-t', w.agent.pane, 'Escape');
      const answered = await waitFor(
        'the unblocked event',
        async () => await jobEvent(w.home, id, 'unblocked'),
        {timeoutMs: 60_000, describe: () => w.agent.capture()},
      );
      expect(answered).toMatchObject({pane: w.agent.pane});
      const end = await expectJobEnd(w.home, id, 'done', 120_000);
      expect(end.blocked).toBeUndefined();
      expect(await paneOption(w, '@nudge-state')).toBe('done');
      expect(await paneOption(w, '@nudge-needs')).toBe('');
    }, 240_000);
  },
);

describe.skipIf(withQuestion.length === 0).each(withQuestion)(
  '%s asks the person a question',
  (name) => {
    test('nudge wait on the pane: blocked (question), exit 3', async () => {
      const w = await setup(name);
      w.model.script(QUESTION[name] ?? {text: ''});
      await w.server.tmux('send-keys', '-t', w.agent.pane, '-l', 'set up the db');
      await new Promise((r) => setTimeout(r, 400));
      await w.server.tmux('send-keys', '-t', w.agent.pane, 'Enter');
      await w.server.waitForScreen(w.agent.pane, /Which database should we use\?/, 60_000);
      const wait = await runNudge(
        ['wait', '-S', w.server.socket, w.agent.pane, '--json', '--timeout', '60s'],
        {NUDGE_HOME: w.home},
      );
      expect(wait.exitCode, wait.stdout).toBe(3);
      expect(JSON.parse(wait.stdout)).toMatchObject({
        status: 'blocked',
        blocked: {kind: 'question', question: 'Which database should we use?', pane: w.agent.pane},
      });
    }, 240_000);
  },
);

describe.skipIf(!agentAvailable('claude'))("Claude Code's own signal", () => {
  test('with the Notification hook nudge install adds and no dialog rule left in the profile (a user file empties it), the hook alone makes the job blocked', async () => {
    const model = await startModelServer();
    const server = await startTmuxServer();
    const home = useTempDir('nudge-home-');
    const config = useTempDir('nudge-config-');
    mkdirSync(join(config, 'nudge', 'agents'), {recursive: true});
    writeFileSync(
      join(config, 'nudge', 'agents', 'claude.toml'),
      "name = 'claude'\ndialogs = []\n",
    );
    const env = {NUDGE_HOME: home, XDG_CONFIG_HOME: config};
    const agent = await startAgent(
      server,
      'claude',
      {modelUrl: model.url, approvals: 'none', env: {NUDGE_HOME: home}},
      async (where) => {
        const r = await runNudge(['install', 'claude'], {HOME: where.home, NUDGE_HOME: home});
        expect(r.exitCode, r.stderr + r.stdout).toBe(0);
      },
    );
    model.script({shell: 'touch made.txt'}, {text: 'Made it.'});
    const id = await submitJob(
      [
        'submit',
        ...flagWords({
          socketPath: server.socket,
          pane: agent.pane,
          delay: 0,
          until: 'prompt',
          notice: false,
        }),
        '--',
        'make the file',
      ],
      env,
    );
    // Blocked while the dialog is up (its text went in: the job waits on for the answer).
    const end = await waitForJobBlocked(home, id, 120_000);
    const events = await readJobEvents(home, id);
    expect(end.state, `${JSON.stringify(events)}\n${await agent.capture()}`).toBe('waiting');
    expect(end.blocked).toMatchObject({
      kind: 'permission',
      detail: ['reported by claude-notification'],
    });
    expect(existsSync(join(agent.workdir, 'made.txt'))).toBe(false);
    expect(model.prompts().map((p) => p.text)).toEqual(['make the file']);
  }, 240_000);
});
