/**
 * `blocked`, through the real CLI and worker: an agent that stops for a person
 * (test/fixtures/asking-agent.mjs, described by a profile file of the user's) — a permission
 * dialog, a usage limit — is reported `blocked` by `submit`, `wait`, `expect` and
 * `--when-idle` (exit 3, the kind and the question), and nothing is ever typed into the
 * dialog; with `--on-limit wait` a job waits the limit out and types one resume line.
 */
import {mkdirSync, readFileSync, writeFileSync} from 'node:fs';
import {join} from 'node:path';
import {execa} from 'execa';
import {describe, expect, test} from 'vitest';
import {ensureStateDir} from '../../src/base/paths.js';
import {newJobId} from '../../src/jobs/request.js';
import {JobStore} from '../../src/jobs/store.js';
import {ASKER_PROFILE} from '../helpers/asking-agent.js';
import {allowSinks, startHttpSink} from '../helpers/http-sink.js';
import {
  expectJobEnd,
  readJobEvents,
  waitForJobBlocked,
  waitForJobEnd,
} from '../helpers/job-files.js';
import {jobRequest} from '../helpers/job-request.js';
import {callTool, spawnedMcp} from '../helpers/mcp-client.js';
import {serverWorld} from '../helpers/nudge-home.js';
import {CLI, FIXTURES, runNudge, submitArgs, submitJob} from '../helpers/run-nudge.js';
import {useTempDir} from '../helpers/temp-dir.js';
import {cleanEnv, type TmuxTestServer} from '../helpers/tmux-server.js';
import {waitFor} from '../helpers/wait-for.js';

interface World {
  server: TmuxTestServer;
  pane: string;
  home: string;
  env: Record<string, string>;
  /** What the agent took and what reached its dialog, line by line. */
  log: () => string[];
}

async function setup(limitSeconds = 3): Promise<World> {
  const {server, home} = await serverWorld();
  const config = useTempDir('nudge-config-');
  const dir = join(config, 'nudge', 'agents');
  mkdirSync(dir, {recursive: true});
  writeFileSync(join(dir, 'asker.toml'), ASKER_PROFILE);
  const logFile = join(config, 'agent.log');
  writeFileSync(logFile, '');
  const pane = await server.newPane([
    process.execPath,
    join(FIXTURES, 'asking-agent.mjs'),
    logFile,
    String(limitSeconds),
  ]);
  await server.waitForScreen(pane, /Asking Agent v1/);
  return {
    server,
    pane,
    home,
    env: {NUDGE_HOME: home, XDG_CONFIG_HOME: config},
    log: () => readFileSync(logFile, 'utf8').split('\n').filter(Boolean),
  };
}

/** Open the dialog as a person would have: a prompt typed into the agent. */
async function openDialog(w: World): Promise<void> {
  await w.server.tmux('send-keys', '-t', w.pane, '-l', 'please ask first');
  await w.server.tmux('send-keys', '-t', w.pane, 'Enter');
  await w.server.waitForScreen(w.pane, /Do you want to proceed\?/);
}

/** setup, then the dialog open: where the tests of a blocked pane start. */
async function atDialog(): Promise<World> {
  const w = await setup();
  await openDialog(w);
  return w;
}

const dialogKeys = (w: World) => w.log().filter((l) => l.startsWith('dialog-key:'));

/** An answer of blocked on the permission dialog, and no key of nudge's reached the dialog. */
function expectAskedUntouched(answer: unknown, w: World): void {
  expect(answer, JSON.stringify(answer)).toMatchObject({
    status: 'blocked',
    blocked: {kind: 'permission'},
  });
  expect(dialogKeys(w)).toEqual([]);
}

describe('an agent waiting for a person is blocked, never typed into', () => {
  test('submit --wait: blocked within 2 s of the dialog (exit 3), with its kind and question; the webhook gets one POST with the question; no key reached the dialog', async () => {
    const w = await setup();
    const http = await startHttpSink();
    const r = await runNudge(
      submitArgs(
        w.server.socket,
        w.pane,
        {wait: true, json: true, notify: `webhook:${http.url}/hook`},
        'please ask about it',
      ),
      {...w.env, ...allowSinks([`webhook:${http.url}/hook`], w.env.XDG_CONFIG_HOME)},
      60_000,
    );
    expect(r.exitCode, r.stdout + r.stderr).toBe(3);
    const out = JSON.parse(r.stdout) as {job: string; state: string; blocked: unknown};
    expect(out.state).toBe('blocked');
    expect(out.blocked).toMatchObject({
      kind: 'permission',
      question: 'Do you want to proceed?',
      pane: w.pane,
    });
    const events = await readJobEvents(w.home, out.job);
    const found = events.find((e) => e.event === 'needs-person');
    const shown = Number(
      w
        .log()
        .find((l) => l.startsWith('dialog-shown:'))
        ?.split(' ')[1],
    );
    expect(Date.parse(String(found?.t)) - shown).toBeLessThan(2_000);
    const [post] = await http.waitFor('/hook');
    expect(JSON.parse(post?.body ?? '')).toMatchObject({
      event: 'blocked',
      job: out.job,
      state: 'blocked',
      pane: w.pane,
      kind: 'permission',
      question: 'Do you want to proceed?',
    });
    await new Promise((r) => setTimeout(r, 1_000));
    expect(http.received).toHaveLength(1);
    // Nothing was typed into the dialog, the notice included.
    expect(dialogKeys(w)).toEqual([]);
    expect(w.log().filter((l) => l.startsWith('prompt:'))).toEqual(['prompt: please ask about it']);
    // The pane says so where a status bar reads it.
    const options = await w.server.tmux(
      'display',
      '-p',
      '-t',
      w.pane,
      '#{@nudge-state}|#{@nudge-job}|#{@nudge-needs}',
    );
    expect(options.trim()).toBe(`blocked|${out.job}|Do you want to proceed?`);
    const status = await runNudge(['status', out.job], w.env);
    expect(status.stdout).toMatch(/state +blocked/);
    expect(status.stdout).toContain('permission — Do you want to proceed?');
  }, 90_000);

  test('wait and expect on a pane at a dialog: status blocked, exit 3, at once', async () => {
    const w = await atDialog();
    const wait = await runNudge(
      ['wait', '-S', w.server.socket, w.pane, '--json', '--timeout', '30s'],
      w.env,
    );
    expect(wait.exitCode, wait.stdout + wait.stderr).toBe(3);
    expect(JSON.parse(wait.stdout)).toMatchObject({
      status: 'blocked',
      blocked: {kind: 'permission', question: 'Do you want to proceed?', pane: w.pane},
    });
    const plain = await runNudge(['wait', '-S', w.server.socket, w.pane], w.env);
    expect(plain.exitCode).toBe(3);
    expect(plain.stdout).toContain(`Blocked: ${w.pane} waits for a person (permission)`);
    const expected = await runNudge(
      ['expect', '-S', w.server.socket, w.pane, 'never-printed', '--timeout', '30s', '--json'],
      w.env,
    );
    expect(expected.exitCode, expected.stdout + expected.stderr).toBe(3);
    expectAskedUntouched(JSON.parse(expected.stdout), w);
    // explain says what wait says: blocked, with the dialog's kind and question.
    const explained = await runNudge(['explain', '-S', w.server.socket, w.pane, '--json'], w.env);
    expect(explained.exitCode, explained.stderr).toBe(0);
    expect(JSON.parse(explained.stdout).verdict).toEqual({
      idle: false,
      blocked: {kind: 'permission', question: 'Do you want to proceed?'},
      why: 'blocked: it waits for a person (permission: Do you want to proceed?); wait and expect exit 3',
    });
    expect(dialogKeys(w)).toEqual([]);
  }, 90_000);

  test('the MCP wait and expect tools answer blocked, with the kind, the question and the pane', async () => {
    const w = await atDialog();
    const client = await spawnedMcp({...w.env, TMUX: `${w.server.socket},1,0`, TMUX_PANE: '%0'});
    const waited = await callTool(client, 'wait', {pane: w.pane, timeout: '30s'});
    expect(waited.structuredContent, JSON.stringify(waited)).toMatchObject({
      status: 'blocked',
      blocked: {kind: 'permission', question: 'Do you want to proceed?', pane: w.pane},
    });
    const expected = await callTool(client, 'expect', {
      pane_id: w.pane,
      pattern: 'never-printed',
      timeout_ms: 30_000,
    });
    expectAskedUntouched(expected.structuredContent, w);
  }, 90_000);

  test("a detached job's worker that ends blocked exits 3, as the CLI does (the one table)", async () => {
    const w = await atDialog();
    const pid = Number(await w.server.tmux('display-message', '-p', '#{pid}'));
    // Recorded as `nudge submit` records it, then started as launchWorker starts it (its id in
    // argv; it reads its request from the store), here where its exit status can be read.
    const request = jobRequest({
      jobId: newJobId(Date.now()),
      createdAt: new Date().toISOString(),
      server: {socketPath: w.server.socket, pid},
      pane: w.pane,
      text: 'the next task',
      given: {whenIdle: true, notice: false},
    });
    await ensureStateDir(w.home, {});
    await new JobStore(w.home).create(request, 'detached');
    const worker = join(CLI, '..', '..', 'workers', 'job-worker.js');
    const r = await execa(process.execPath, [worker, '--id', request.jobId], {
      env: cleanEnv({...w.env, NUDGE_HOME: w.home}),
      extendEnv: false,
      reject: false,
      timeout: 60_000,
    });
    const end = await waitForJobEnd(w.home, request.jobId, 10_000);
    expect(end.state, `${r.stdout}${r.stderr}`).toBe('blocked');
    expect(r.exitCode).toBe(3);
    expect(dialogKeys(w)).toEqual([]);
  }, 90_000);

  test('--when-idle on a pane at a dialog: the job ends blocked, nothing typed', async () => {
    const w = await atDialog();
    const r = await runNudge(
      submitArgs(w.server.socket, w.pane, {wait: true, whenIdle: true}, 'the next task'),
      w.env,
      60_000,
    );
    expect(r.exitCode, r.stdout + r.stderr).toBe(3);
    expect(dialogKeys(w)).toEqual([]);
    expect(w.log().filter((l) => l.startsWith('prompt:'))).toEqual(['prompt: please ask first']);
  }, 90_000);
});

/** The job's record as `nudge status --json` shows it. */
async function statusOf(w: World, job: string): Promise<{state: string; blocked?: unknown}> {
  const r = await runNudge(['status', job, '--json'], w.env);
  expect(r.exitCode, r.stdout + r.stderr).toBe(0);
  return JSON.parse(r.stdout) as {state: string; blocked?: unknown};
}

/** A job whose text opens the dialog once typed (the job holds it then), and the job's id once
 * its record says it is blocked. */
async function blockedAfterTyping(w: World, flags: Record<string, string | boolean> = {}) {
  const args = submitArgs(w.server.socket, w.pane, {until: 'stable', ...flags}, 'please ask now');
  const job = await submitJob(args, w.env);
  await waitForJobBlocked(w.home, job);
  return job;
}

describe('a dialog after the text went in: blocked while it is up, then the job goes on', () => {
  test('the person answers: the record and the pane leave blocked, the job ends done and its notice reaches the agent as a prompt', async () => {
    const w = await setup();
    const job = await blockedAfterTyping(w);
    // While it is up: blocked in the record's words, on the pane, and in jobs.
    expect(await statusOf(w, job)).toMatchObject({state: 'waiting', blocked: {kind: 'permission'}});
    const status = await runNudge(['status', job], w.env);
    expect(status.stdout).toMatch(/state +blocked/);
    const jobs = await runNudge(['jobs'], w.env);
    expect(jobs.stdout).toMatch(new RegExp(`${job} +blocked`));
    const pane = () =>
      w.server.tmux('display', '-p', '-t', w.pane, '#{@nudge-state}|#{@nudge-needs}');
    expect((await pane()).trim()).toBe('blocked|Do you want to proceed?');
    // The person answers yes.
    await w.server.tmux('send-keys', '-t', w.pane, '1');
    const end = await expectJobEnd(w.home, job, 'done', 60_000);
    expect(end.blocked).toBeUndefined();
    const events = (await readJobEvents(w.home, job)).map((e) => e.event);
    expect(events).toEqual(expect.arrayContaining(['needs-person', 'unblocked', 'done']));
    expect(events.indexOf('unblocked')).toBeLessThan(events.indexOf('done'));
    // The only key that reached the dialog is the person's; the notice came after, as a prompt.
    expect(dialogKeys(w)).toEqual(['dialog-key: "1"']);
    await waitFor('the notice as a prompt', async () =>
      w.log().some((l) => l.startsWith('prompt: [SYSTEM COMMAND]')) ? true : undefined,
    );
    expect(w.log().filter((l) => l.startsWith('prompt:'))).toEqual([
      'prompt: please ask now',
      expect.stringMatching(/^prompt: \[SYSTEM COMMAND\] /),
    ]);
    expect((await pane()).trim()).toBe('done|');
  }, 120_000);

  test('nudge cancel on a blocked job cancels it (it has not ended); nothing reaches the dialog', async () => {
    const w = await setup();
    const job = await blockedAfterTyping(w, {notice: false});
    const r = await runNudge(['cancel', job], w.env);
    expect(r.exitCode, r.stdout + r.stderr).toBe(0);
    const end = await expectJobEnd(w.home, job, 'cancelled', 60_000);
    expect(String(end.reason)).toMatch(/^Cancelled while waiting/);
    expect(dialogKeys(w)).toEqual([]);
  }, 120_000);
});

describe('a usage limit', () => {
  test('--on-limit stop: blocked, with when it resets', async () => {
    const w = await setup(3600);
    const r = await runNudge(
      submitArgs(w.server.socket, w.pane, {wait: true, json: true}, 'hit the limit'),
      w.env,
      60_000,
    );
    expect(r.exitCode, r.stdout + r.stderr).toBe(3);
    const out = JSON.parse(r.stdout) as {blocked: {kind: string; resetsAt: string}};
    expect(out.blocked.kind).toBe('limit');
    const inAnHour = Date.parse(out.blocked.resetsAt) - Date.now();
    expect(inAnHour).toBeGreaterThan(3_500_000);
    expect(inAnHour).toBeLessThan(3_700_000);
  }, 90_000);

  test('--on-limit wait: the job waits until the reset (and the margin), types one resume line, and ends done; the webhook is told of the limit, then of the end', async () => {
    const w = await setup(3);
    const http = await startHttpSink();
    const id = await submitJob(
      submitArgs(
        w.server.socket,
        w.pane,
        {
          notify: `webhook:${http.url}/hook`,
          onLimit: 'wait',
          limitMargin: '1s',
          notice: false,
        },
        'hit the limit',
      ),
      {...w.env, ...allowSinks([`webhook:${http.url}/hook`], w.env.XDG_CONFIG_HOME)},
    );
    const end = await waitForJobEnd(w.home, id, 60_000);
    const events = await readJobEvents(w.home, id);
    expect(end.state, JSON.stringify(events)).toBe('done');
    const limit = events.find((e) => e.event === 'limit');
    const resumed = events.find((e) => e.event === 'resumed');
    expect(limit).toMatchObject({pane: w.pane});
    expect(Date.parse(String(resumed?.t))).toBeGreaterThanOrEqual(
      Date.parse(String(limit?.resumesAt)),
    );
    expect(resumed).toMatchObject({text: 'continue', delivery: 'submitted'});
    // Exactly one resume line reached the agent, after the limit's prompt.
    await waitFor('the resume line at the agent', async () =>
      w.log().includes('prompt: continue') ? true : undefined,
    );
    expect(w.log().filter((l) => l.startsWith('prompt:'))).toEqual([
      'prompt: hit the limit',
      'prompt: continue',
    ]);
    const told = (await http.waitFor('/hook', 2)).map(
      (p) => JSON.parse(p.body) as Record<string, unknown>,
    );
    expect(told.map((e) => e.event)).toEqual(['limit', 'done']);
    expect(told[0]).toMatchObject({kind: 'limit', resetsAt: limit?.resetsAt});
  }, 90_000);
});
