// Least authority (issue 28, docs/security.md), each attack through the real CLI or a real
// `nudge mcp`: what a submit may do is bounded by the person's config, not by its caller.
import {existsSync, mkdirSync, writeFileSync} from 'node:fs';
import {join} from 'node:path';
import {execa} from 'execa';
import {describe, expect, test} from 'vitest';
import {startRelay} from '../../src/front/relay.js';
import {nodeContext} from '../../src/verbs/node-context.js';
import {submit} from '../../src/verbs/submit.js';
import {agentAvailable, agentBin} from '../harness/agents.js';
import {waitForJobEnd} from '../helpers/job-files.js';
import {callTool, spawnedMcp} from '../helpers/mcp-client.js';
import {jobIds, serverWorld, useNudgeHome} from '../helpers/nudge-home.js';
import {startRecorder} from '../helpers/recorder-pane.js';
import {CLI, runNudge, submitArgs} from '../helpers/run-nudge.js';
import {useTempDir} from '../helpers/temp-dir.js';
import {cleanEnv, startTmuxServer, type TmuxTestServer} from '../helpers/tmux-server.js';

/** The environment of a nudge started inside `pane` of `server` (an agent's tool, a hook). */
function insidePane(server: TmuxTestServer, pane: string): Record<string, string> {
  return {TMUX: `${server.socket},0,0`, TMUX_PANE: pane};
}

/** A config folder whose config.toml holds `text`. */
function configWith(text: string): string {
  const config = useTempDir('nudge-config-');
  mkdirSync(join(config, 'nudge'), {recursive: true});
  writeFileSync(join(config, 'nudge', 'config.toml'), text);
  return config;
}

const mcpClient = spawnedMcp;

/** A server, a state dir, and the file a cmd: sink would make (`touch`): each test's start. */
async function cmdWorld() {
  return {
    server: await startTmuxServer(),
    home: useNudgeHome(),
    made: join(useTempDir('nudge-cmd-'), 'made'),
  };
}

describe('cmd: sinks come only from the config file', () => {
  test('from a flag: exit 2 with one sentence, no job, no program run', async () => {
    const {server, home, made} = await cmdWorld();
    const r = await runNudge(
      submitArgs(
        server.socket,
        '%0',
        {notify: `cmd:/usr/bin/touch ${made}`, notice: false},
        'true',
      ),
      {NUDGE_HOME: home},
    );
    expect(r.exitCode).toBe(2);
    expect(r.stderr.trim()).toBe(
      `nudge: --notify "cmd:/usr/bin/touch ${made}" is refused: a cmd: sink runs a program, so it is taken only from your config.toml's [notify] sinks, never from a flag or a tool's argument.`,
    );
    expect(jobIds(home)).toEqual([]);
    expect(existsSync(made)).toBe(false);
  }, 60_000);

  test("from the MCP submit tool's argument: a tool error, no job, no program run", async () => {
    const {server, home, made} = await cmdWorld();
    const c = await mcpClient({NUDGE_HOME: home, ...insidePane(server, '%0')});
    const answer = await callTool(c, 'submit', {
      text: 'true',
      pane: '%0',
      notify: [`cmd:/usr/bin/touch ${made}`],
      no_notice: true,
    });
    expect(answer.isError).toBe(true);
    expect(answer.content[0]?.text).toContain('is refused: a cmd: sink runs a program');
    expect(jobIds(home)).toEqual([]);
    expect(existsSync(made)).toBe(false);
  }, 60_000);

  test("from the person's config.toml: the program runs when the job ends", async () => {
    const {server, home, made} = await cmdWorld();
    const config = configWith(`[notify]\nsinks = ["cmd:/usr/bin/touch ${made}"]\n`);
    const r = await runNudge(
      submitArgs(server.socket, '%0', {until: 'exit', notice: false}, 'true'),
      {NUDGE_HOME: home, XDG_CONFIG_HOME: config},
    );
    expect(r.exitCode, r.stderr).toBe(0);
    await waitForJobEnd(home, r.stdout.trim(), 60_000);
    await expect.poll(() => existsSync(made), {timeout: 20_000}).toBe(true);
  }, 90_000);
});

describe('a nudge started inside a pane types only into its own session', () => {
  test('a pane of another session: exit 2 naming the setting; the notify pane too; [submit] panes = "server" widens it', async () => {
    const {server, home} = await serverWorld();
    const other = (
      await server.tmux('new-session', '-d', '-s', 'person', '-P', '-F', '#{pane_id}')
    ).trim();
    const env = {NUDGE_HOME: home, XDG_CONFIG_HOME: useTempDir('nudge-config-')};
    const here = insidePane(server, '%0');
    const r = await runNudge(submitArgs(server.socket, other, {notice: false}, 'echo typed'), {
      ...env,
      ...here,
    });
    expect(r.exitCode).toBe(2);
    expect(r.stderr.trim()).toBe(
      `nudge: --pane ${other} is out of reach: it is in another session than the pane nudge runs in (%0), and config.toml's [submit] panes is not "server".`,
    );
    const notice = await runNudge(submitArgs(server.socket, '%0', {notifyPane: other}, 'true'), {
      ...env,
      ...here,
    });
    expect(notice.exitCode).toBe(2);
    expect(notice.stderr).toContain(
      `--notify-pane ${other} is out of reach: it is in another session`,
    );
    expect(jobIds(home)).toEqual([]);

    const wide = configWith('[submit]\npanes = "server"\n');
    const ok = await runNudge(submitArgs(server.socket, other, {notice: false}, 'echo typed'), {
      ...env,
      XDG_CONFIG_HOME: wide,
      ...here,
    });
    expect(ok.exitCode, ok.stderr).toBe(0);
    // From outside tmux (the person's own terminal): not bounded.
    const outside = await runNudge(
      submitArgs(server.socket, other, {notice: false}, 'echo typed'),
      env,
    );
    expect(outside.exitCode, outside.stderr).toBe(0);
    for (const id of jobIds(home)) await waitForJobEnd(home, id, 60_000);
  }, 90_000);

  test('a pane of another tmux server: exit 2', async () => {
    const mine = await startTmuxServer();
    const theirs = await startTmuxServer();
    const home = useNudgeHome();
    const r = await runNudge(submitArgs(theirs.socket, '%0', {notice: false}, 'echo typed'), {
      NUDGE_HOME: home,
      ...insidePane(mine, '%0'),
    });
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toContain('is on another tmux server than the pane nudge runs in (%0)');
  }, 60_000);
});

/** A pane that prints a line of 60 `a` and a `b` every 100 ms: the line `(a+)+$` backtracks
 * on for 2^60 steps in a backtracking engine. */
async function backtrackingPane(server: TmuxTestServer): Promise<string> {
  const pane = await server.newPane([
    'bash',
    '--norc',
    '--noprofile',
    '-c',
    `while :; do printf '%s\\n' ${'a'.repeat(60)}b; sleep 0.1; done`,
  ]);
  await server.waitForScreen(pane, /a{60}b/);
  return pane;
}

const CATASTROPHIC = '(a+)+$';

describe('a pattern from outside runs in linear time', () => {
  test('expect (a+)+$ against 60 a and a b: exit 124 at its timeout', async () => {
    const server = await startTmuxServer();
    const pane = await backtrackingPane(server);
    const r = await runNudge(
      ['expect', '-S', server.socket, pane, CATASTROPHIC, '--timeout', '3s'],
      {NUDGE_HOME: useNudgeHome()},
      60_000,
    );
    expect(r.exitCode, r.stderr).toBe(124);
    // Its timeout, and a generous allowance for a loaded machine: never the hours it took.
    expect(r.durationMs).toBeLessThan(30_000);
  }, 90_000);

  test('a job with --until regex:(a+)+$ ends timeout and frees the pane', async () => {
    const {server, home} = await serverWorld();
    const pane = await backtrackingPane(server);
    const r = await runNudge(
      submitArgs(
        server.socket,
        pane,
        {
          profile: 'raw',
          until: `regex:${CATASTROPHIC}`,
          timeout: '3s',
          notice: false,
        },
        'x',
      ),
      {NUDGE_HOME: home},
    );
    expect(r.exitCode, r.stderr).toBe(0);
    const end = await waitForJobEnd(home, r.stdout.trim(), 30_000);
    expect(end.state).toBe('timeout');
  }, 90_000);

  test('expect (a+)+$ honours SIGTERM: it ends at once with one sentence, exit 1', async () => {
    const server = await startTmuxServer();
    const pane = await backtrackingPane(server);
    const child = execa(
      process.execPath,
      [CLI, 'expect', '-S', server.socket, pane, CATASTROPHIC, '--timeout', '2m'],
      {env: cleanEnv({NUDGE_HOME: useNudgeHome()}), extendEnv: false, reject: false},
    );
    // Let it read the pane's lines a few times.
    await new Promise((r) => setTimeout(r, 2_000));
    const sent = Date.now();
    child.kill('SIGTERM');
    const r = await child;
    expect(Date.now() - sent).toBeLessThan(10_000);
    expect(r.exitCode).toBe(1);
    expect(r.stderr.trim()).toBe('nudge: Interrupted before the pattern matched.');
  }, 60_000);

  test('a backreference is exit 2 with one sentence', async () => {
    const r = await runNudge(['expect', '%0', '(a)\\1'], {NUDGE_HOME: useNudgeHome()});
    expect(r.exitCode).toBe(2);
    expect(r.stderr.trim()).toBe(
      'nudge: The pattern has a regex "(a)\\\\1" that nudge does not run (invalid escape sequence: `\\1`): patterns run in linear time, so backreferences and lookarounds are not taken.',
    );
  });

  test('nudge mcp answers another call while an expect with (a+)+$ waits', async () => {
    const {server, home} = await serverWorld();
    const pane = await backtrackingPane(server);
    const c = await mcpClient({NUDGE_HOME: home, ...insidePane(server, '%0')});
    const waiting = callTool(c, 'expect', {pane_id: pane, pattern: CATASTROPHIC, timeout_ms: 8000});
    let settled = false;
    void waiting.then(() => {
      settled = true;
    });
    const jobs = await callTool(c, 'jobs', {});
    expect(jobs.isError ?? false).toBe(false);
    expect(settled).toBe(false);
    const answer = await waiting;
    expect(JSON.parse(answer.content[0]?.text ?? '{}')).toMatchObject({status: 'timeout'});
  }, 90_000);
});

describe('nudge mcp declares what each tool does', () => {
  test('annotations on every tool; run and bash_wait only with --allow-exec', async () => {
    const {server, home} = await serverWorld();
    const env = {NUDGE_HOME: home, ...insidePane(server, '%0')};
    const plain = await mcpClient(env);
    const tools = (await plain.listTools()).tools;
    expect(tools.map((t) => t.name)).not.toContain('run');
    const hints = Object.fromEntries(tools.map((t) => [t.name, t.annotations]));
    for (const name of ['status', 'jobs', 'wait', 'expect', 'doctor'])
      expect(hints[name], name).toMatchObject({readOnlyHint: true, destructiveHint: false});
    for (const name of ['submit', 'watch_me', 'look_ma'])
      expect(hints[name], name).toMatchObject({readOnlyHint: false, destructiveHint: true});
    expect(hints.cancel).toMatchObject({readOnlyHint: false, destructiveHint: true});
    const run = await callTool(plain, 'run', {command: 'touch made'});
    expect(run.isError).toBe(true);
    const look = await callTool(plain, 'look_ma', {status_report: 'done', bash_wait: 'touch made'});
    expect(look.isError).toBe(true);
    expect(look.content[0]?.text).toBe(
      'bash_wait runs a command, and this nudge mcp was not started with --allow-exec; report without it (the watcher sleeps), or ask the person to add --allow-exec.',
    );
    // recover starts agents again: without --allow-exec it only plans, whatever is asked.
    expect(hints.recover).toMatchObject({readOnlyHint: false, destructiveHint: true});
    const recover = await callTool(plain, 'recover', {dry_run: false});
    expect(recover.structuredContent?.dryRun).toBe(true);

    const exec = await mcpClient(env, ['--allow-exec']);
    const listed = (await exec.listTools()).tools;
    const runTool = listed.find((t) => t.name === 'run');
    expect(runTool?.annotations).toMatchObject({destructiveHint: true, openWorldHint: true});
    expect(runTool?.description).toMatch(
      /^Offered only when nudge mcp was started with --allow-exec/,
    );
  }, 60_000);
});

describe("a relayed notice is rendered here, never from the other host's text", () => {
  test("a job whose host rendered '!touch FILE' as its notice: the relay types the notice of this machine's template", async () => {
    const {server, home} = await serverWorld();
    const rec = await startRecorder(server);
    const shell = await server.newPane(['bash', '--norc', '--noprofile']);
    const made = join(useTempDir('nudge-relay-'), 'made');
    const ctx = nodeContext(
      {
        env: cleanEnv({NUDGE_HOME: home, TMUX: `${server.socket},0,0`, TMUX_PANE: shell}),
        cwd: home,
        pid: process.pid,
        uid: process.getuid?.() ?? 0,
        signal: new AbortController().signal,
        readStdin: async () => '',
        readStdinBytes: async () => new Uint8Array(),
        node: process.execPath,
      },
      new URL('../../dist/src/', import.meta.url),
    );
    // The job's host (here standing in for another): its worker records the notice it
    // rendered for a pane elsewhere — a hostile host's text.
    const job = await submit(
      {
        text: 'true',
        pane: shell,
        until: 'exit',
        delay: '0',
        typeDelay: '0',
        notice: `!touch ${made}`,
        noticeElsewhere: `beta:${rec.pane}`,
      },
      ctx,
    );
    const ended = await waitForJobEnd(home, job.job, 60_000);
    expect(JSON.stringify(ended)).toContain(`!touch ${made}`);
    await startRelay(
      {job: job.job, to: {pane: rec.pane}, notice: {template: undefined, until: 'exit'}},
      ctx,
    );
    const notice = '[SYSTEM COMMAND] Command complete. Resume.\r';
    const bytes = (await rec.waitForLength(notice.length, 60_000)).toString('utf8');
    expect(bytes).toBe(notice);
    expect(existsSync(made)).toBe(false);
  }, 120_000);
});

describe.skipIf(!agentAvailable('codex'))('install codex --allow, read by Codex itself', () => {
  test('codex execpolicy check: its rule allows submit, status, jobs and wait outside the sandbox, and no other nudge command', async () => {
    const home = useTempDir('nudge-codex-home-');
    const r = await runNudge(['install', 'codex', '--allow'], {
      HOME: home,
      NUDGE_HOME: join(home, 'state'),
    });
    expect(r.exitCode, r.stderr + r.stdout).toBe(0);
    const rules = join(home, '.codex', 'rules', 'nudge.rules');
    const decide = async (sub: string) => {
      const out = await execa(
        agentBin('codex'),
        ['execpolicy', 'check', '--rules', rules, process.execPath, CLI, sub, '--', 'x'],
        {env: cleanEnv({HOME: home}), extendEnv: false, reject: false},
      );
      return (JSON.parse(out.stdout) as {decision?: string}).decision ?? 'none';
    };
    for (const sub of ['submit', 'status', 'jobs', 'wait'])
      expect(await decide(sub), sub).toBe('allow');
    for (const sub of ['run', 'schedule', 'install', 'watch', 'cancel', 'mcp'])
      expect(await decide(sub), sub).toBe('none');
    // Without --allow: no rule file at all.
    const plain = useTempDir('nudge-codex-home-');
    await runNudge(['install', 'codex'], {HOME: plain, NUDGE_HOME: join(plain, 'state')});
    expect(existsSync(join(plain, '.codex', 'rules', 'nudge.rules'))).toBe(false);
  }, 60_000);
});
