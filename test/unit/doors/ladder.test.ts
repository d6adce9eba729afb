import {mkdirSync, writeFileSync} from 'node:fs';
import {createServer} from 'node:http';
import type {AddressInfo} from 'node:net';
import {join} from 'node:path';
import {afterEach, describe, expect, test} from 'vitest';
import {doorBody, planDoors, realDoors} from '../../../src/doors/ladder.js';
import {useTempDir} from '../../helpers/temp-dir.js';

const noParents = {
  parentOf: async () => undefined,
  procStartOf: async () => undefined,
  terminalOf: async () => undefined,
  groupsOf: async () => undefined,
  // Each process is its own pane's first process, and runs Claude Code.
  ancestry: async (pid: number) => [{pid, command: 'claude'}],
};

/** The doors' deps for a home (and a command line for the pane's program). */
const depsOf = (home: string, argv?: string[]) => ({
  tree: noParents,
  env: {HOME: home},
  confirmMs: 100,
  stateDir: home,
  commandLine: async () => argv,
  listeners: async () => ({pids: []}),
});

/** Claude's inbox tried once on pane pid 100: its one attempt. */
async function inboxAttempt(home: string) {
  const [attempt] = await realDoors(depsOf(home)).deliver(
    [{kind: 'claude-inbox', minVersion: '2.1.224'}],
    {pane: '%1', panePid: 100, jobId: 'j1', from: '%2'},
    'done',
    new AbortController().signal,
  );
  return attempt;
}

describe('realDoors', () => {
  test('no session record: not applicable, and says where it looked', async () => {
    const home = useTempDir('door-home-');
    expect(await inboxAttempt(home)).toEqual(
      expect.objectContaining({
        door: 'claude-inbox',
        result: 'not-applicable',
        why: `no Claude Code session record in ${join(home, '.claude', 'sessions')}`,
      }),
    );
  });

  test('a Claude Code older than the door: not applicable, nothing posted', async () => {
    const home = useTempDir('door-home-');
    mkdirSync(join(home, '.claude', 'sessions'), {recursive: true});
    writeFileSync(
      join(home, '.claude', 'sessions', '100.json'),
      JSON.stringify({pid: 100, sessionId: 's', version: '2.1.197', messagingSocketPath: '/x'}),
    );
    expect(await inboxAttempt(home)).toMatchObject({
      result: 'not-applicable',
      why: 'Claude Code 2.1.197 has no inbox (it came in 2.1.224)',
    });
  });

  test('the notice is the last line of the body, whole; the first says who sends it', () => {
    expect(doorBody('[SYSTEM COMMAND] Command complete. Resume.', 'abc', undefined)).toBe(
      'From nudge (not another Claude session): job abc, which this session started, has ended.\n[SYSTEM COMMAND] Command complete. Resume.',
    );
  });

  test('a notice from a pane says which, where the door can', () => {
    expect(doorBody('[SYSTEM COMMAND] Command complete. Resume.', 'abc', undefined, '%3')).toBe(
      'From nudge (from %3; not another Claude session): job abc, which this session started, has ended.\n[SYSTEM COMMAND] Command complete. Resume.',
    );
  });

  test("--if-busy now: the job's own text, with who sends it and how", () => {
    expect(doorBody('review the diff', 'abc', 'text')).toBe(
      'From nudge (not another Claude session): a message the person sent to this session with nudge submit --if-busy now (job abc).\nreview the diff',
    );
  });
});

describe('planDoors', () => {
  test('each door in order, with why it would or would not take a notice, then typing', async () => {
    const home = useTempDir('door-home-');
    const plan = await planDoors(
      depsOf(home, ['codex', '--remote', 'unix:///tmp/app.sock']),
      [{kind: 'opencode-server'}, {kind: 'codex-app-server'}],
      100,
    );
    expect(plan.plans).toEqual([
      {door: 'opencode-server', use: false, why: expect.stringMatching(/not started with --port/)},
      {door: 'codex-app-server', use: true, why: 'its app-server listens on /tmp/app.sock'},
      {
        door: 'keys',
        use: false,
        why: 'the notice goes through codex-app-server; typed only if it does not take it',
      },
    ]);
    expect((await planDoors(depsOf(home), [], 100)).plans).toEqual([
      {door: 'keys', use: true, why: 'the program has no door: the notice is typed'},
    ]);
  });
});

describe("opencode's door sends its password only to the pane's own server", () => {
  const closing: Array<() => void> = [];
  afterEach(() => {
    for (const close of closing.splice(0)) close();
  });

  /** A loopback server that records the Authorization header of each request. */
  async function listener(): Promise<{port: number; seen: string[]}> {
    const seen: string[] = [];
    const server = createServer((req, res) => {
      seen.push(String(req.headers.authorization));
      res.setHeader('content-type', 'application/json');
      res.end('[]');
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    closing.push(() => server.close());
    return {port: (server.address() as AddressInfo).port, seen};
  }

  const planWith = async (port: number, listeners: number[], parent: number | undefined) => {
    const home = useTempDir('door-home-');
    const deps = {
      ...depsOf(home, ['opencode', '--port', String(port)]),
      env: {HOME: home, OPENCODE_SERVER_PASSWORD: 'sekrit'},
      tree: {...noParents, parentOf: async () => parent},
      listeners: async () => ({pids: listeners}),
    };
    return (await planDoors(deps, [{kind: 'opencode-server'}], 100)).plans[0];
  };

  test('a listener that is not a process of the pane gets nothing', async () => {
    const {port, seen} = await listener();
    expect(await planWith(port, [process.pid], 1)).toEqual({
      door: 'opencode-server',
      use: false,
      why: `what listens on its --port ${port} (pid ${process.pid}) is not a process of the pane, so its password is not sent there`,
    });
    expect(await planWith(port, [], 1)).toMatchObject({
      use: false,
      why: `nothing of yours listens on its --port ${port}`,
    });
    expect(seen).toEqual([]);
  });

  test("the pane's own listener is asked, with the password", async () => {
    const {port, seen} = await listener();
    expect(await planWith(port, [process.pid], 100)).toMatchObject({
      door: 'opencode-server',
      use: false,
      why: 'the TUI has no session yet (nothing was sent in it)',
    });
    expect(seen).toEqual([`Basic ${Buffer.from('opencode:sekrit').toString('base64')}`]);
  });
});
