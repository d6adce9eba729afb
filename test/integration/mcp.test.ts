// `nudge mcp`: the MCP SDK's client against the server in-process (InMemoryTransport) and
// against a spawned `nudge mcp` (stdio), with real panes on a private tmux server. Every tool,
// and its errors as tool errors with one sentence.
import {readFileSync} from 'node:fs';
import {join} from 'node:path';
import {fileURLToPath} from 'node:url';
import {Client} from '@modelcontextprotocol/sdk/client/index.js';
import {InMemoryTransport} from '@modelcontextprotocol/sdk/inMemory.js';
import {describe, expect, it, onTestFinished} from 'vitest';
import {realClock} from '../../src/base/clock.js';
import {createSilentLogger} from '../../src/base/log.js';
import {createMcpServer} from '../../src/mcp/server.js';
import {systemForeground} from '../../src/process/foreground.js';
import {systemTree} from '../../src/process/tree.js';
import {createSpawnRunner} from '../../src/tmux/runner.js';
import {createTmux} from '../../src/tmux/tmux.js';
import type {CommandContext} from '../../src/verbs/context.js';
import {callTool, spawnedMcp, spawnedMcpIn, type ToolAnswer} from '../helpers/mcp-client.js';
import {useNudgeHome} from '../helpers/nudge-home.js';
import {FIXTURES} from '../helpers/run-nudge.js';
import {runFromPane} from '../helpers/shell-pane.js';
import {startTmuxServer, type TmuxTestServer} from '../helpers/tmux-server.js';
import {waitFor} from '../helpers/wait-for.js';

const DIST = fileURLToPath(new URL('../../dist/', import.meta.url));

/** The environment of a server started from pane %0 of `server` (as an agent there would). */
function paneEnv(server: TmuxTestServer, home: string): Record<string, string> {
  servers.push(server);
  return {NUDGE_HOME: home, TMUX: `${server.socket},1,0`, TMUX_PANE: '%0'};
}

/** The servers paneEnv was asked about, newest last (spawned starts its server from there). */
const servers: TmuxTestServer[] = [];

/** How many times the in-process server has read a pane's screen: a call that reads it at
 * least twice has taken its baseline and is polling (no sleep needed to know it started). */
const screenReads = {count: 0};

/** Wait until the server read a pane's screen `more` times after `from`. */
async function readsAfter(from: number, more = 2): Promise<void> {
  await waitFor(`${more} screen reads by the MCP server`, async () =>
    screenReads.count >= from + more ? true : undefined,
  );
}

/** A client connected to the server in this process. */
async function inProcess(env: Record<string, string>): Promise<Client> {
  const ctx: CommandContext = {
    env,
    cwd: process.cwd(),
    pid: process.pid,
    uid: process.getuid?.() ?? 0,
    signal: new AbortController().signal,
    readStdin: async () => '',
    readStdinBytes: async () => new Uint8Array(),
    clock: realClock,
    tmux: (spec) => {
      const tmux = createTmux(createSpawnRunner(spec));
      return {
        ...tmux,
        view: (pane, rows) => {
          screenReads.count++;
          return tmux.view(pane, rows);
        },
      };
    },
    tree: systemTree,
    foreground: systemForeground,
    workerEntry: join(DIST, 'workers', 'job-worker.js'),
    watchWorkerEntry: join(DIST, 'workers', 'watch-worker.js'),
    runWorkerEntry: join(DIST, 'workers', 'run-worker.js'),
    relayWorkerEntry: join(DIST, 'workers', 'relay-worker.js'),
    dataDir: join(DIST, '..', 'data'),
    self: {node: process.execPath, cli: join(DIST, 'src', 'cli.js')},
  };
  // With the tools that run commands (nudge mcp --allow-exec; without it: least-authority.test.ts).
  const server = createMcpServer(ctx, {allowExec: true}, createSilentLogger());
  const [a, b] = InMemoryTransport.createLinkedPair();
  const client = new Client({name: 'test', version: '1'});
  await Promise.all([server.connect(a), client.connect(b)]);
  onTestFinished(async () => {
    await client.close();
    await server.close();
  });
  return client;
}

/** `nudge mcp` started from pane %0's shell, as an agent there starts it: its own pane is
 * proven by its process tree. */
async function spawned(env: Record<string, string>, args: string[] = []): Promise<Client> {
  const server = servers.at(-1);
  if (!server) throw new Error('start the tmux server first');
  await server.waitForScreen('%0', /\$/);
  return spawnedMcpIn(await runFromPane(server, '%0'), env, args);
}

const call = (c: Client, name: string, args: Record<string, unknown> = {}, signal?: AbortSignal) =>
  callTool(c, name, args, signal);

describe('nudge mcp, in-process', () => {
  it('lists every tool', async () => {
    const server = await startTmuxServer();
    const c = await inProcess(paneEnv(server, useNudgeHome()));
    const names = (await c.listTools()).tools.map((t) => t.name).sort();
    expect(names).toEqual(
      [
        'ask',
        'cancel',
        'clear',
        'doctor',
        'expect',
        'jobs',
        'look_ma',
        'pause',
        'queue',
        'queue_drop',
        'queue_edit',
        'queue_move',
        'recover',
        'resend',
        'run',
        'status',
        'submit',
        'wait',
        'watch_me',
      ].sort(),
    );
  });

  it('every tool that can take host says it reaches the open world (issue 61)', async () => {
    const server = await startTmuxServer();
    const c = await inProcess(paneEnv(server, useNudgeHome()));
    const tools = (await c.listTools()).tools;
    const remote = tools.filter((t) => 'host' in (t.inputSchema.properties ?? {}));
    expect(remote.map((t) => t.name)).toContain('jobs');
    for (const t of remote) expect(t.annotations?.openWorldHint, t.name).toBe(true);
  });

  it('expect: the fugue_expect contract; invalid regex, a missing pane and a pane closed while waiting are tool errors', async () => {
    const server = await startTmuxServer();
    const c = await inProcess(paneEnv(server, useNudgeHome()));
    const pane = await server.newPane(['bash', '--norc', '--noprofile']);
    await server.waitForScreen(pane, /\$/);
    const before = screenReads.count;
    const waiting = call(c, 'expect', {
      pane_id: pane,
      pattern: 'ready on port (\\d+)',
      timeout_ms: 20_000,
    });
    // The call is under way (its baseline taken) before the text is written: only new
    // output counts.
    await readsAfter(before);
    await server.tmux('send-keys', '-t', pane, '-l', "printf 'ready on port %s\\n' 8080");
    await server.tmux('send-keys', '-t', pane, 'Enter');
    const matched = await waiting;
    expect(matched.isError).toBeFalsy();
    expect(matched.structuredContent).toMatchObject({
      status: 'matched',
      pattern: 'ready on port (\\d+)',
      match: 'ready on port 8080',
      line: 'ready on port 8080',
    });
    expect(typeof matched.structuredContent?.duration_ms).toBe('number');
    expect(JSON.parse(matched.content[0]!.text)).toEqual(matched.structuredContent);

    const bad = await call(c, 'expect', {pane_id: pane, pattern: '(unclosed'});
    expect(bad.isError).toBe(true);
    expect(bad.content[0]?.text).toBe(
      'The pattern has an invalid regex "(unclosed": missing closing ): `(unclosed`.',
    );
    const missing = await call(c, 'expect', {pane_id: '%99', pattern: 'x'});
    expect(missing.isError).toBe(true);
    expect(missing.content[0]?.text).toMatch(
      /^Pane "%99" \(PANE\) was not found on the tmux server at /,
    );

    const doomed = await server.newPane(['sleep', '300']);
    const beforeClose = screenReads.count;
    const closing = call(c, 'expect', {pane_id: doomed, pattern: 'never', timeout_ms: 30_000});
    await readsAfter(beforeClose);
    await server.tmux('kill-pane', '-t', doomed);
    const closed = await closing;
    expect(closed.isError).toBe(true);
    expect(closed.content[0]?.text).toBe(`Pane ${doomed} closed while waiting for /never/.`);
  });

  it('expect takes what nudge expect takes: include_existing matches what is there, fail_pattern ends it failed', async () => {
    const server = await startTmuxServer();
    const c = await inProcess(paneEnv(server, useNudgeHome()));
    const pane = await server.newPane(['bash', '--norc', '--noprofile']);
    await server.waitForScreen(pane, /\$/);
    // The command lines never hold the words looked for (printf puts them together).
    await server.tmux('send-keys', '-t', pane, '-l', "printf 'built %s\\n' OK");
    await server.tmux('send-keys', '-t', pane, 'Enter');
    await server.waitForScreen(pane, /^built OK$/m);
    const existing = await call(c, 'expect', {
      pane_id: pane,
      pattern: 'built (OK)',
      include_existing: true,
      timeout_ms: 20_000,
    });
    expect(existing.structuredContent).toMatchObject({status: 'matched', match: 'built OK'});

    const before = screenReads.count;
    const failing = call(c, 'expect', {
      pane_id: pane,
      pattern: 'all tests passed',
      fail_pattern: ['FAILED'],
      timeout_ms: 20_000,
    });
    await readsAfter(before);
    await server.tmux('send-keys', '-t', pane, '-l', "printf 'test F%sD\\n' AILE");
    await server.tmux('send-keys', '-t', pane, 'Enter');
    expect((await failing).structuredContent).toMatchObject({status: 'failed'});
  });

  it("wait: the verdict and why; a client's cancellation ends it", async () => {
    const server = await startTmuxServer();
    await server.waitForScreen('%0', /\$/);
    const c = await inProcess(paneEnv(server, useNudgeHome()));
    const idle = await call(c, 'wait', {pane: '%0', timeout: '20s'});
    expect(idle.structuredContent).toMatchObject({status: 'idle', pane: '%0', reason: 'idle'});
    const spinner = await server.newPane([process.execPath, join(FIXTURES, 'spinner.mjs')]);
    await server.waitForScreen(spinner, /SPINNER START/);
    const abort = new AbortController();
    const started = Date.now();
    const beforeWait = screenReads.count;
    const cancelled = call(c, 'wait', {pane: spinner, timeout: '5m'}, abort.signal);
    // Cancelled once the wait is polling the spinner.
    await readsAfter(beforeWait);
    abort.abort();
    await expect(cancelled).rejects.toThrow();
    expect(Date.now() - started).toBeLessThan(60_000);
    // The server goes on serving.
    // Three looks a second apart: two of them differ (one look alone cannot tell).
    const again = await call(c, 'wait', {pane: spinner, timeout: '3s'});
    expect(again.structuredContent).toMatchObject({
      status: 'timeout',
      reason: 'the screen is still changing',
    });
    // A list of panes, the first idle one the answer (a model fanning work out).
    const first = await call(c, 'wait', {pane: [spinner, '%0'], any: true, timeout: '20s'});
    expect(first.structuredContent).toMatchObject({
      status: 'idle',
      mode: 'any',
      first: '%0',
      idle: ['%0'],
    });
  });
});

describe('nudge mcp, spawned', () => {
  it('run → a job in a new window; status carries its report', async () => {
    const server = await startTmuxServer();
    await server.tmux('set-option', '-g', 'default-command', 'bash --norc --noprofile');
    const home = useNudgeHome();
    const c = await spawned(paneEnv(server, home), ['--allow-exec']);
    const started = await call(c, 'run', {
      command: 'echo from-mcp; exit 4',
      cwd: server.dir,
      no_notice: true,
    });
    expect(started.isError, started.content[0]?.text).toBeFalsy();
    expect(started.structuredContent).toMatchObject({kind: 'started', cwd: server.dir});
    const job = String(started.structuredContent?.job);
    const status = await waitFor('the run to end', async () => {
      const s = await call(c, 'status', {job});
      return s.structuredContent?.state === 'failed' ? s : undefined;
    });
    expect(status.structuredContent).toMatchObject({
      kind: 'run',
      exitCode: 4,
      report: {status: 'failed', exitCode: 4, outputTail: ['from-mcp']},
    });
    const bad = await call(c, 'run', {command: ' '});
    expect(bad.isError).toBe(true);
    expect(bad.content[0]?.text).toMatch(/Nothing to run/);
  });

  it('submit → a job; status, jobs and cancel read the same store; stdout carries only the protocol', async () => {
    const server = await startTmuxServer();
    await server.waitForScreen('%0', /\$/);
    const home = useNudgeHome();
    const c = await spawned(paneEnv(server, home));
    const submitted = await call(c, 'submit', {
      text: 'sleep 30',
      delay: '0',
      until: 'exit',
      no_notice: true,
    });
    expect(submitted.isError, submitted.content[0]?.text).toBeFalsy();
    const job = String(submitted.structuredContent?.job);
    expect(submitted.structuredContent).toMatchObject({kind: 'queued', pane: '%0'});
    const status = await waitFor('the job to run', async () => {
      const s = await call(c, 'status', {job});
      return s.structuredContent?.state === 'waiting' ? s : undefined;
    });
    expect(status.structuredContent).toMatchObject({id: job, pane: '%0'});
    const jobs = await call(c, 'jobs');
    expect(
      (jobs.structuredContent?.jobs as Array<{id: string}> | undefined)?.map((j) => j.id),
    ).toEqual([job]);
    // A second job waits behind it: the queue tools see it, edit it and drop it.
    const second = await call(c, 'submit', {text: 'echo two', delay: '0', no_notice: true});
    const next = String(second.structuredContent?.job);
    const queue = await call(c, 'queue', {pane: '%0'});
    const [pane] = (queue.structuredContent as {panes: Array<{jobs: Array<{id: string}>}>}).panes;
    expect(pane?.jobs.map((j) => j.id)).toEqual([job, next]);
    const edited = await call(c, 'queue_edit', {job: next, text: 'echo edited'});
    expect(edited.structuredContent).toMatchObject({job: next, action: 'edited'});
    const atWork = await call(c, 'queue_move', {job, first: true});
    expect(atWork.isError).toBe(true);
    expect(atWork.content[0]?.text).toMatch(/has taken the pane already/);
    const dropped = await call(c, 'queue_drop', {job: next});
    expect(dropped.structuredContent).toMatchObject({job: next, action: 'dropped', order: [job]});
    const cancelled = await call(c, 'cancel', {job});
    expect(cancelled.structuredContent).toMatchObject({
      job,
      result: 'cancelled',
      state: 'cancelled',
    });
    // doctor: the same checks as `nudge doctor --json`, for the pane the server runs in
    const doctor = await call(c, 'doctor');
    const checks = doctor.structuredContent?.checks as Array<{name: string; status: string}>;
    expect(checks.find((k) => k.name === 'pane')).toMatchObject({status: 'ok'});
    expect(checks.find((k) => k.name === 'server')).toMatchObject({status: 'ok'});
    // The same server started beside the pane, not in it, with the pane's $TMUX_PANE (as a
    // server several sessions share hands it on): "your own pane" is refused, nothing typed.
    const beside = await spawnedMcp(paneEnv(server, home));
    const refused = await call(beside, 'submit', {text: 'echo never', delay: '0'});
    expect(refused.isError).toBe(true);
    expect(refused.content[0]?.text).toMatch(
      /^Without --pane, the pane is the one nudge runs in, but \$TMUX_PANE says %0 and nudge cannot prove that is its pane: it does not run in any pane of that tmux server .*; nothing was typed: pass --pane %N\.$/,
    );
    const noJob = await call(c, 'status', {job: 'nope'});
    expect(noJob.isError).toBe(true);
    expect(noJob.content[0]?.text).toBe(
      `No job "nope" in ${join(home, 'jobs')}; run "nudge jobs" to list them.`,
    );
    // Each call is in the server's log, not on stdout (the protocol would have broken).
    const log = readFileSync(join(home, 'mcp.log'), 'utf8');
    expect(log).toMatch(/"tool":"submit"/);
    expect(log).toMatch(/"tool":"cancel"/);
  });

  it("watch_me, look_ma, pause and clear: the seed's strings, the watcher in the store", async () => {
    const server = await startTmuxServer();
    await server.waitForScreen('%0', /\$/);
    const home = useNudgeHome();
    const log = join(server.dir, 'asked.log');
    const assess = JSON.stringify([
      process.execPath,
      join(FIXTURES, 'assessor.mjs'),
      log,
      JSON.stringify({action: 'stop', injection_prompt: null}),
      JSON.stringify({action: 'continue', injection_prompt: 'look at the failing test first'}),
    ]);
    const c = await spawned(paneEnv(server, home), ['--assess-cmd', assess]);
    const text = (a: ToolAnswer) => a.content[0]?.text;
    expect(
      text(
        await call(c, 'watch_me', {
          name: 'mine',
          plan: 'fix the build',
          idle_threshold: '500ms',
          default_wait: '100ms',
        }),
      ),
    ).toBe('watching');
    expect(
      text(await call(c, 'watch_me', {name: 'mine', plan: 'fix the build and the docs'})),
    ).toBe('updated');
    // Without a name: the watcher of this pane.
    expect(text(await call(c, 'look_ma', {status_report: 'build fixed'}))).toBe('recorded+waiting');
    await waitFor('the assessor to say stop', async () => {
      const s = JSON.parse(readFileSync(join(home, 'watchers', 'mine', 'watcher.json'), 'utf8'));
      return s.state === 'paused' ? s : undefined;
    });
    const paused = await call(c, 'pause', {name: 'mine'});
    expect(paused.structuredContent).toEqual({
      result: 'paused',
      name: 'mine',
      suggestion: 'look at the failing test first',
    });
    const cleared = await call(c, 'clear', {name: 'mine'});
    expect(cleared.structuredContent).toMatchObject({result: 'cleared', name: 'mine'});
    const unknown = await call(c, 'look_ma', {status_report: 'x', name: 'mine'});
    expect(unknown.isError).toBe(true);
    expect(text(unknown)).toBe(
      'There is no watcher named "mine"; run "nudge watch list" to see them.',
    );
  });

  it('watch_me with no assessor configured is a tool error that says how to configure one', async () => {
    const server = await startTmuxServer();
    const c = await spawned(paneEnv(server, useNudgeHome()));
    const r = await call(c, 'watch_me', {name: 'x', plan: 'p'});
    expect(r.isError).toBe(true);
    expect(r.content[0]?.text).toBe(
      'Watcher x is new: give it an assessor with --assess-cmd CMD or --assess-url URL --assess-model M.',
    );
  });
});
