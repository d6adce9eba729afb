// The doors into an agent, proven at the model (src/doors/; docs/agents.md, "Doors"): Claude
// Code's inbox on a release that has it. The notice reaches the model through the inbox with
// nothing typed into the pane — idle, and between two tool calls of a running turn — and a
// message Claude holds, or a socket that refuses, falls back to typing, once. The every-day
// scenarios (self-execution, mid-turn, mid-stream, a draft) assert the door too
// (test/helpers/at-model-scenarios.ts); this file holds what only a door has.
import {spawn} from 'node:child_process';
import {existsSync, unlinkSync, writeFileSync} from 'node:fs';
import {readdir, readFile} from 'node:fs/promises';
import {join} from 'node:path';
import {describe, expect, onTestFinished, test} from 'vitest';
import {freePort} from '../harness/ssh-hosts.js';
import {
  escapeRegex,
  expectDone,
  type Mode,
  NOTICE,
  received,
  say,
  setup,
  sq,
  theJob,
  type World,
} from '../helpers/at-model-scenarios.js';
import {jobEvent, readJobEvents, waitForJobEnd, waitForJobState} from '../helpers/job-files.js';
import {describePrompts, type Reply, startModelServer} from '../helpers/model-server.js';
import {stopWorkers, userProfiles} from '../helpers/nudge-home.js';
import {processViewEnv} from '../helpers/process-view.js';
import {
  type AgentName,
  agentAvailable,
  agentBin,
  agentEnv,
  agentVersion,
  claudeHasInbox,
  startAgent,
} from '../helpers/real-agents.js';
import {flagWords, runNudge} from '../helpers/run-nudge.js';
import {useTempDir} from '../helpers/temp-dir.js';
import {type TmuxCallLog, useTmuxCallLog} from '../helpers/tmux-call-log.js';
import {cleanEnv, startTmuxServer} from '../helpers/tmux-server.js';
import {waitFor} from '../helpers/wait-for.js';

const inbox = agentAvailable('claude') && claudeHasInbox(agentVersion('claude'));

type ClaudeRecord = {messagingSocketPath?: string; status?: string; waitingFor?: string};

/** The session records in the agent's home. Claude Code writes a record in place, so one read
 * mid-write is not JSON yet: it is skipped, and the next look reads it whole. */
async function claudeRecords(home: string): Promise<ClaudeRecord[]> {
  const dir = join(home, '.claude', 'sessions');
  const found: ClaudeRecord[] = [];
  for (const name of await readdir(dir).catch(() => [] as string[])) {
    if (!/^\d+\.json$/.test(name)) continue;
    try {
      found.push(JSON.parse(await readFile(join(dir, name), 'utf8')) as ClaudeRecord);
    } catch {
      // being written, or just removed
    }
  }
  return found;
}

/** The session record of the pane's Claude (its inbox socket), from the agent's home. */
async function sessionRecord(home: string): Promise<{messagingSocketPath: string}> {
  return waitFor(
    "Claude Code's session record",
    async () =>
      (await claudeRecords(home)).find((r): r is {messagingSocketPath: string} =>
        Boolean(r.messagingSocketPath),
      ),
    {timeoutMs: 30_000},
  );
}

/** A world whose worker's every tmux call is logged (one process per call), so a key sent
 * into the agent's pane would be seen. */
async function loggedWorld(name: AgentName, mode: Mode, o: Parameters<typeof setup>[2] = {}) {
  const calls = await useTmuxCallLog(useTempDir('door-calls-'));
  const w = await setup(name, mode, {
    ...o,
    env: {NUDGE_TRANSPORT: 'spawn', ...o.env},
    path: [calls.env.PATH.split(':')[0] ?? '', ...(o.path ?? [])],
  });
  return {w, calls};
}

/** The worker typed into `build` and sent no key, paste or buffer into `agentPane`. */
async function expectNoKeysInto(calls: TmuxCallLog, agentPane: string, build: string) {
  const logged = await calls.calls();
  expect(logged.some((c) => c.includes('send-keys') && c.includes(build))).toBe(true);
  const into = logged.filter(
    (c) => /\b(send-keys|paste-buffer|set-buffer)\b/.test(c) && c.includes(agentPane),
  );
  expect(into).toEqual([]);
}

/** The model, asked `prompt`, starts `command` in a new shell pane with the notice for its
 * own pane (`notifyPane`), then answers `replies` (default: one line of text); the job, once done,
 * and the notice as the model got it. */
async function buildWithNotice(
  w: World,
  prompt: string,
  o: {
    command?: string;
    notifyPane?: string;
    replies?: Reply[];
    beforeEnd?: (id: string) => Promise<void>;
  } = {},
) {
  const build = await w.server.newPane(['bash', '--norc', '--noprofile']);
  w.model.script(
    {
      shell: `nudge submit --delay 0 --pane ${build} --notify-pane ${o.notifyPane ?? 'self'} --until exit -- ${sq(o.command ?? 'sleep 1')}`,
    },
    ...(o.replies ?? [{text: 'Building.'}]),
  );
  await say(w, prompt);
  const id = await theJob(w);
  await o.beforeEnd?.(id);
  const end = await expectDone(w, id);
  const got = await w.model.waitForPrompt(new RegExp(`^${escapeRegex(NOTICE)}$`), {
    timeoutMs: 90_000,
  });
  expect(received(w.model, NOTICE), describePrompts(w.model.prompts())).toBe(1);
  return {build, id, end, got};
}

describe.skipIf(!inbox)('claude door (claude-inbox): the inbox', () => {
  test('idle: the notice reaches the model through the inbox, and no key is sent to its pane', async () => {
    const {w, calls} = await loggedWorld('claude', 'default');
    const {build, id, end, got} = await buildWithNotice(w, 'build it in the other pane');
    expect(got).toMatchObject({via: 'inbox', queued: false});
    expect(end).toMatchObject({noticeVia: 'claude-inbox', noticeDelivery: 'submitted'});
    const door = await jobEvent(w.home, id, 'door');
    expect(door).toMatchObject({door: 'claude-inbox', result: 'delivered', pane: w.agent.pane});
    await expectNoKeysInto(calls, w.agent.pane, build);
  }, 300_000);

  test('mid-turn, between two tool calls: the notice rides after the tool result; the turn is not cut', async () => {
    // Everything approved: the model's second tool call runs without asking.
    const w = await setup('claude', 'all');
    const marker = join(w.agent.workdir, 'second-tool.log');
    let notifiedAt = 0;
    const {end, got} = await buildWithNotice(w, 'build it, then wait for the marker', {
      // The second tool runs until the notice has been posted (its job's `notified` event).
      replies: [
        {shell: `while [ ! -s ${sq(marker)} ]; do sleep 0.2; done; echo second tool done`},
        {text: 'Both done.'},
      ],
      beforeEnd: async (id) => {
        const events = await waitFor(
          'the notice posted while the second tool runs',
          async () => {
            const e = await readJobEvents(w.home, id);
            return e.find((x) => x.event === 'notified');
          },
          {timeoutMs: 120_000, describe: () => w.agent.capture()},
        );
        notifiedAt = Date.parse(String(events.t));
        writeFileSync(marker, 'go\n');
      },
    });
    await w.agent.waitForIdle(90_000);
    // Queued while the tool ran; given to the model with the tool's result, in the same turn.
    expect(end).toMatchObject({noticeVia: 'claude-inbox', noticeDelivery: 'queued'});
    expect(got).toMatchObject({via: 'inbox', queued: true});
    expect(w.model.cutShort(), 'a turn was cancelled').toEqual([]);
    expect(got.at).toBeGreaterThan(notifiedAt);
  }, 300_000);

  test('a message Claude holds for review (a setting nudge cannot read): typed instead, once', async () => {
    // --settings on the command line: nudge reads the settings files, not this; Claude holds
    // the message and says so in a receipt.
    const w = await setup('claude', 'manual', {
      args: ['--settings', JSON.stringify({crossSessionInbound: 'hold'})],
    });
    const {end, got} = await buildWithNotice(w, 'build it please');
    expect(got.via).toBe('typed');
    expect(end.noticeVia).toBe('keys');
    expect(String(end.noticeDoors)).toMatch(/^claude-inbox: held, Claude Code answered "held"/);
  }, 300_000);

  test('an inbox socket that refuses (its file removed): typed instead, once', async () => {
    const w = await setup('claude', 'default');
    unlinkSync((await sessionRecord(w.agent.home)).messagingSocketPath);
    const {end, got} = await buildWithNotice(w, 'build it now');
    expect(got.via).toBe('typed');
    expect(end.noticeVia).toBe('keys');
    expect(String(end.noticeDoors)).toMatch(
      /^claude-inbox: refused, its inbox .* refused the message: ENOENT/,
    );
  }, 300_000);
});

describe.skipIf(!inbox)('claude door (claude-inbox): --if-busy now', () => {
  test('mid-turn: the text goes through the inbox at once, queued behind the running tool and read after it; no key; the job ends done (queued)', async () => {
    const calls = await useTmuxCallLog(useTempDir('now-calls-'));
    const w = await setup('claude', 'all');
    const marker = join(w.agent.workdir, 'now.marker');
    const TEXT = 'Also check the changelog, please.';
    // The turn runs a tool until the marker is written; then two answers.
    w.model.script(
      {shell: `while [ ! -s ${sq(marker)} ]; do sleep 0.2; done; echo tool done`},
      {text: 'Tool finished.'},
      {text: 'Changelog checked.'},
    );
    await say(w, 'run the long tool');
    await waitFor(
      'the tool running',
      async () => ((await w.agent.capture()).includes('now.marker') ? true : undefined),
      {timeoutMs: 90_000, describe: () => w.agent.capture()},
    );
    const r = await runNudge(
      [
        'submit',
        ...flagWords({socketPath: w.server.socket, pane: w.agent.pane, ifBusy: 'now'}),
        '--',
        TEXT,
      ],
      {NUDGE_HOME: w.home, HOME: w.agent.home, NUDGE_TRANSPORT: 'spawn', PATH: calls.env.PATH},
    );
    expect(r.exitCode, r.stderr).toBe(0);
    const id = r.stdout.trim();
    const end = await waitForJobEnd(w.home, id, 60_000);
    expect(end, JSON.stringify(await readJobEvents(w.home, id))).toMatchObject({
      state: 'done',
      delivery: 'queued',
    });
    writeFileSync(marker, 'go\n');
    const got = await w.model.waitForPrompt(new RegExp(`^${escapeRegex(TEXT)}$`), {
      timeoutMs: 90_000,
    });
    expect(got).toMatchObject({via: 'inbox', queued: true});
    expect(got.preface).toMatch(/--if-busy now \(job /);
    expect(received(w.model, TEXT), describePrompts(w.model.prompts())).toBe(1);
    expect(w.model.cutShort(), 'a turn was cancelled').toEqual([]);
    // Nothing went into the agent's pane: no key, no paste, no buffer.
    const into = (await calls.calls()).filter(
      (c) => /\b(send-keys|paste-buffer|set-buffer)\b/.test(c) && c.includes(w.agent.pane),
    );
    expect(into).toEqual([]);
  }, 300_000);
});

/** Claude Code in manual mode with its one-time "Make auto mode your default permission
 * mode?" offer on screen, not yet answered (2.1.283 and newer). */
async function atTheAutoOffer() {
  const model = await startModelServer();
  const server = await startTmuxServer();
  const agent = await startAgent(server, 'claude', {
    modelUrl: model.url,
    permissionMode: 'default',
    autoDefaultDialog: true,
    wait: false,
  });
  await server.waitForScreen(agent.pane, /No, keep manual mode/, 60_000);
  return {model, server, agent};
}

describe.skipIf(!inbox)('claude door (claude-inbox): the session record', () => {
  test('a dialog the screen profile does not read: the record says waiting, and nudge wait exits 3 naming it', async () => {
    const {server, agent} = await atTheAutoOffer();
    await waitFor(
      'the session record to say waiting (dialog open)',
      async () => (await claudeRecords(agent.home)).find((r) => r.status === 'waiting'),
      {timeoutMs: 60_000, describe: () => agent.capture()},
    );
    // The person's own mend of Claude's dialogs, made before the offer existed: the screen
    // reads no dialog now, and only the session record tells.
    const config = userProfiles({
      claude: `name = "claude"\n\n[[dialogs]]\nkind = "permission"\nquestion = '^\\s*(Do you want to .+\\?)\\s*$'\nfirstOption = '^\\s*❯?\\s*1\\. Yes\\b'\n`,
    });
    const r = await runNudge(
      ['wait', '-S', server.socket, agent.pane, '--timeout', '60s', '--json'],
      {HOME: agent.home, NUDGE_HOME: useTempDir('nudge-home-'), XDG_CONFIG_HOME: config},
      90_000,
    );
    expect(r.exitCode, `${r.stdout}${r.stderr}\n${await agent.capture()}`).toBe(3);
    expect(JSON.parse(r.stdout)).toMatchObject({
      status: 'blocked',
      blocked: {
        kind: 'question',
        question:
          'Claude Code waits for a person (its session record says: waiting for dialog open)',
      },
    });
  }, 300_000);

  test('the auto-mode offer is a dialog: nudge ask exits 3 within 5 s naming it, and types nothing (issue 63)', async () => {
    const {model, server, agent} = await atTheAutoOffer();
    const started = Date.now();
    const r = await runNudge(
      ['ask', '-S', server.socket, '--pane', agent.pane, '--json', '--', 'hello there'],
      {HOME: agent.home, NUDGE_HOME: useTempDir('nudge-home-')},
      90_000,
    );
    const took = Date.now() - started;
    expect(r.exitCode, `${r.stdout}${r.stderr}\n${await agent.capture()}`).toBe(3);
    expect(JSON.parse(r.stdout)).toMatchObject({
      state: 'blocked',
      blocked: {kind: 'offer', question: 'Make auto mode your default permission mode?'},
    });
    expect(took).toBeLessThan(5_000);
    // Still the offer, unanswered; nothing reached the model.
    expect(await agent.capture()).toMatch(/No, keep manual mode/);
    expect(model.prompts()).toEqual([]);
  }, 300_000);
});

describe.skipIf(!inbox)('claude door (claude-inbox): explain', () => {
  test("nudge explain names the door a notice would take, and the session record, from the agent's own HOME, not the caller's (issue 63)", async () => {
    const server = await startTmuxServer();
    const agent = await startAgent(server, 'claude', {});
    // The caller's HOME is not the agent's (a person's shell beside an agent run with another).
    const r = await runNudge(['explain', '-S', server.socket, agent.pane, '--json'], {
      HOME: useTempDir('nudge-caller-home-'),
      NUDGE_HOME: useTempDir('nudge-home-'),
    });
    expect(r.exitCode, r.stderr).toBe(0);
    const got = JSON.parse(r.stdout) as {doors: unknown[]; session: unknown};
    expect(got.doors).toEqual([
      {
        door: 'claude-inbox',
        use: true,
        why: expect.stringMatching(/^Claude Code 2\.1\.\d+ session .* listens on \//),
      },
      {
        door: 'keys',
        use: false,
        why: 'the notice goes through claude-inbox; typed only if it does not take it',
      },
    ]);
    expect(got.session).toMatchObject({status: 'idle'});
    const text = await runNudge(['explain', '-S', server.socket, agent.pane], {
      NUDGE_HOME: useTempDir('nudge-home-'),
    });
    expect(text.stdout).toMatch(/^notice {3}claude-inbox {2}yes {2}Claude Code/m);
  }, 120_000);
});

describe.skipIf(!agentAvailable('pi'))(
  'pi door (pi-extension): the extension nudge install pi writes',
  () => {
    test('the notice reaches the model through the extension, and no key is sent to its pane', async () => {
      const {w, calls} = await loggedWorld('pi', 'default', {hooks: true});
      // What explain says before: the door, and that it would take the notice.
      const explained = await w.nudge(['explain', '-S', w.server.socket, w.agent.pane, '--json']);
      expect(JSON.parse(explained.stdout).doors[0]).toMatchObject({
        door: 'pi-extension',
        use: true,
      });
      const {build, end, got} = await buildWithNotice(w, 'build it in the other pane');
      await w.agent.waitForIdle(90_000);
      expect(end).toMatchObject({noticeVia: 'pi-extension', noticeDelivery: 'submitted'});
      expect(got.via).toBe('typed');
      await expectNoKeysInto(calls, w.agent.pane, build);
    }, 300_000);
  },
);

describe.skipIf(!agentAvailable('opencode'))(
  'opencode door (opencode-server): its server (started with --port)',
  () => {
    // The listener on --port is proven the pane's opencode before its password goes there: by
    // /proc, and by lsof as on macOS (NUDGE_PROCESS_VIEW=ps).
    test.each(['proc', 'ps'] as const)(
      "the notice goes into the TUI's session through the server; the draft and the pane untouched (%s)",
      async (view) => {
        const port = await freePort();
        const spy = processViewEnv(view, useTempDir('door-view-'));
        const {w, calls} = await loggedWorld('opencode', 'all', {
          args: ['--port', String(port)],
          env: {NUDGE_PROCESS_VIEW: view},
          path: view === 'ps' ? [(spy.env.PATH ?? '').split(':')[0] ?? ''] : [],
        });
        const draft = 'a thought not yet sent';
        const {build, end, got} = await buildWithNotice(w, 'build it in the other pane', {
          command: 'sleep 3',
          notifyPane: '"$TMUX_PANE"',
          // A person starts a message meanwhile; the notice must not touch it.
          beforeEnd: async () => {
            await w.agent.waitForIdle(90_000);
            await w.server.tmux('send-keys', '-t', w.agent.pane, '-l', draft);
          },
        });
        expect(got.via).toBe('typed');
        expect(end).toMatchObject({noticeVia: 'opencode-server'});
        expect(received(w.model, draft)).toBe(0);
        await waitFor('the draft still in the input line', async () =>
          (await w.agent.capture()).includes(draft) ? true : undefined,
        );
        await expectNoKeysInto(calls, w.agent.pane, build);
        if (view === 'ps')
          expect(spy.calls()).toContain(`lsof -w -nP -iTCP:${port} -sTCP:LISTEN -Fp`);
      },
      300_000,
    );
  },
);

describe.skipIf(!agentAvailable('codex'))(
  'codex door (codex-app-server): an app-server client (codex --remote unix://PATH)',
  () => {
    test("the notice starts a turn on the TUI's thread through its app-server; nothing typed into the pane", async () => {
      const model = await startModelServer();
      const server = await startTmuxServer();
      const sock = join(useTempDir('codex-app-'), 'app.sock');
      const opts = {modelUrl: model.url, approvals: 'all' as const};
      // The app-server first (as a person runs it), then the TUI as its client.
      const agent = await startAgent(
        server,
        'codex',
        {...opts, args: ['--remote', `unix://${sock}`]},
        async (where) => {
          const app = spawn(agentBin('codex'), ['app-server', '--listen', `unix://${sock}`], {
            env: {...cleanEnv(), ...agentEnv('codex', where, opts)},
            stdio: 'ignore',
            detached: true,
          });
          onTestFinished(() => {
            try {
              process.kill(-(app.pid ?? 0), 'SIGTERM');
            } catch {
              // gone already
            }
          });
          await waitFor(
            'the app-server socket',
            async () => (existsSync(sock) ? true : undefined),
            {
              timeoutMs: 60_000,
            },
          );
        },
      );
      const home = useTempDir('nudge-home-');
      onTestFinished(() => stopWorkers(home));
      const calls = await useTmuxCallLog(useTempDir('door-calls-'));
      model.script({text: 'Hello.'});
      await server.tmux('send-keys', '-t', agent.pane, '-l', 'hello');
      await new Promise((r) => setTimeout(r, 400));
      await server.tmux('send-keys', '-t', agent.pane, 'Enter');
      await model.waitForPrompt(/^hello$/, {timeoutMs: 60_000});
      await agent.waitForIdle(90_000);
      const build = await server.newPane(['bash', '--norc', '--noprofile']);
      const r = await runNudge(
        [
          'submit',
          ...flagWords({
            socketPath: server.socket,
            pane: build,
            notifyPane: agent.pane,
            delay: 0,
            until: 'exit',
          }),
          '--',
          'sleep 1',
        ],
        {NUDGE_HOME: home, NUDGE_TRANSPORT: 'spawn', ...calls.env},
      );
      expect(r.exitCode, r.stderr).toBe(0);
      const id = r.stdout.trim().split(/\s+/)[0] ?? '';
      const end = await waitForJobState(
        home,
        id,
        ['done', 'failed', 'timeout', 'cancelled', 'blocked'],
        120_000,
      );
      expect(end, JSON.stringify(end)).toMatchObject({
        state: 'done',
        noticeVia: 'codex-app-server',
      });
      await model.waitForPrompt(new RegExp(`^${escapeRegex(NOTICE)}$`), {timeoutMs: 60_000});
      expect(received(model, NOTICE), describePrompts(model.prompts())).toBe(1);
      // Nothing was typed into Codex's pane: every tmux call of the worker is in the log.
      await agent.waitForIdle(90_000);
      await expectNoKeysInto(calls, agent.pane, build);
    }, 300_000);
  },
);
