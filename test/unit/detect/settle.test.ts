/**
 * "Done" means settled (src/detect/settle.ts): the turn-end hook's own list of what still runs
 * decides where it came, else the footer; a service never holds it; after the footer clears,
 * the turn the agent starts on its own is waited for.
 */
import {describe, expect, test} from 'vitest';
import type {HookMark} from '../../../src/agents/hook-marks.js';
import {PROFILES} from '../../../src/agents/registry.js';
import type {WorkItem} from '../../../src/agents/work.js';
import {
  AFTER_WORK_MS,
  Settling,
  servicesByListening,
  servicesLeft,
} from '../../../src/detect/settle.js';
import type {Served} from '../../../src/process/served.js';
import {capturedScreen} from '../../helpers/pane-views.js';

const SHELL = capturedScreen('claude-background-shell');
const DONE = capturedScreen('claude-background-done');
const BUSY = capturedScreen('claude-busy');

function world(o: {work?: WorkItem[] | undefined; served?: Served[]; turnOnly?: boolean} = {}) {
  let now = 1_000;
  let mark: HookMark | undefined =
    'work' in o ? {source: 'claude-stop', atMs: 1, pane: '%1', work: o.work} : undefined;
  const told: Array<string | undefined> = [];
  let reads = 0;
  const settling = new Settling({
    profile: PROFILES.claude!,
    latestMark: () => mark,
    served: async () => {
      reads++;
      return {served: o.served ?? []};
    },
    now: () => now,
    wall: () => now,
    onWorking: (what) => told.push(what),
    turnOnly: o.turnOnly ?? false,
  });
  return {
    settling,
    told,
    reads: () => reads,
    tick: (ms: number) => {
      now += ms;
    },
    mark: (work: WorkItem[] | undefined) => {
      mark = {source: 'claude-stop', atMs: now, pane: '%1', ...(work ? {work} : {})};
    },
  };
}

/** A dev server a background shell started: `npm run dev` → node … listening on 5173. */
function devServer(command = 'npm run dev'): Served {
  return {
    pid: 300,
    command: 'node /app/node_modules/.bin/vite',
    ports: [5173],
    leader: false,
    ancestors: [
      {pid: 100, command: 'claude', leader: true},
      {
        pid: 200,
        command: `/bin/bash -c -l source /tmp/snap.sh && eval '${command}'`,
        leader: false,
      },
    ],
  };
}

/** With a background shell on screen: which source settled it, and the services it named. */
async function servicesNamed(w: ReturnType<typeof world>) {
  await w.settling.prepare(SHELL);
  const s = w.settling.judge(SHELL);
  return s.settled ? {by: s.by, left: servicesLeft(s)} : s;
}

/** A mark without a list (Copilot CLI's agentStop; an older agent's), then the footer showing
 * work: not settled. */
async function footerAfterMark() {
  const w = world({work: undefined});
  w.mark(undefined);
  await w.settling.prepare(SHELL);
  expect(w.settling.judge(SHELL)).toMatchObject({settled: false});
  return w;
}

describe('from the hook', () => {
  test('a running shell holds it, whatever the screen shows; the next mark settles it', async () => {
    const w = world({work: [{kind: 'shell', what: 'sleep 20'}]});
    await w.settling.prepare(DONE);
    expect(w.settling.judge(DONE)).toEqual({
      settled: false,
      why: 'working: 1 background shell (sleep 20)',
    });
    w.mark([]);
    await w.settling.prepare(DONE);
    expect(w.settling.judge(DONE)).toEqual({settled: true, by: 'hook', services: []});
    expect(w.told).toEqual(['working: 1 background shell (sleep 20)', undefined]);
  });

  test('a service command does not hold it, and is named', async () => {
    const w = world({work: [{kind: 'shell', what: 'npm run dev'}]});
    expect(await servicesNamed(w)).toEqual({
      by: 'hook',
      left: '; 1 background service left running: npm run dev, a service command',
    });
  });

  test("a list that leaves the shell out (Qwen Code's) is not enough: the footer holds it", async () => {
    const w = world({work: []});
    await w.settling.prepare(SHELL);
    expect(w.settling.judge(SHELL)).toEqual({
      settled: false,
      why: "working: 1 shell (the agent's footer)",
    });
    w.tick(AFTER_WORK_MS);
    w.mark([]);
    await w.settling.prepare(DONE);
    expect(w.settling.judge(DONE)).toEqual({settled: true, by: 'hook', services: []});
  });

  test('a shell whose process listens on a port is a service, named with its port', async () => {
    const w = world({
      work: [{kind: 'shell', what: './serve.sh'}],
      served: [devServer('./serve.sh')],
    });
    await w.settling.prepare(SHELL);
    expect(w.settling.judge(SHELL)).toEqual({
      settled: true,
      by: 'hook',
      services: [{kind: 'shell', what: './serve.sh', service: 'listening on :5173'}],
    });
  });

  test("a mark without a list after the footer cleared (Copilot CLI's agentStop of the turn it went on with) settles at once; one from before does not", async () => {
    // Its stop as the work started: the footer holds it.
    const w = await footerAfterMark();
    // The work ended: the earlier mark is not the end of the turn that follows.
    w.tick(1_000);
    await w.settling.prepare(DONE);
    expect(w.settling.judge(DONE)).toMatchObject({settled: false});
    // That turn's stop, within the time it is given: settled by the hook, no waiting out.
    w.tick(200);
    w.mark(undefined);
    expect(w.settling.judge(DONE)).toEqual({settled: true, by: 'hook', services: []});
  });

  test("the footer cleared while the turn it went on with ran (no idle look between): that turn's stop, written before the composer shows idle, settles it", async () => {
    const w = await footerAfterMark();
    // The work ended; the turn that follows is at work (never judged: its composer is busy).
    w.tick(1_000);
    await w.settling.prepare(BUSY);
    w.tick(500);
    w.mark(undefined);
    w.tick(200);
    await w.settling.prepare(DONE);
    expect(w.settling.judge(DONE)).toEqual({settled: true, by: 'hook', services: []});
  });

  test('a mark without the list (an older agent) leaves it to the screen', async () => {
    await footerAfterMark();
  });
});

describe('from the screen', () => {
  test('the footer holds it; after it clears, the follow-up turn is given time', async () => {
    const w = world();
    await w.settling.prepare(SHELL);
    expect(w.settling.judge(SHELL)).toEqual({
      settled: false,
      why: "working: 1 shell (the agent's footer)",
    });
    w.tick(100);
    expect(w.settling.judge(DONE)).toMatchObject({settled: false});
    w.tick(AFTER_WORK_MS);
    expect(w.settling.judge(DONE)).toEqual({settled: true, by: 'screen', services: []});
  });

  test('a footer whose shells all listen is settled, naming them', async () => {
    const w = world({served: [devServer()]});
    expect(await servicesNamed(w)).toEqual({
      by: 'screen',
      left: '; 1 background service left running: node /app/node_modules/.bin/vite, listening on :5173',
    });
  });

  /** The verdict with one listener on port 8080: `command`, below `ancestors`. */
  async function judgedWith(command: string, leader: boolean, ancestors: Served['ancestors']) {
    const w = world({served: [{pid: 150, command, ports: [8080], leader, ancestors}]});
    await w.settling.prepare(SHELL);
    return w.settling.judge(SHELL);
  }
  const claude = [{pid: 100, command: 'claude', leader: true}];

  test("a listener that is not a shell's (an MCP server the agent runs) explains nothing", async () => {
    expect(await judgedWith('node mcp-server.js', false, claude)).toMatchObject({settled: false});
  });

  test('a listener the agent ran in a terminal of its own (it leads its group, as Copilot CLI runs a command) is a service', async () => {
    expect(await judgedWith('node serve.js', true, claude)).toMatchObject({
      settled: true,
      services: [{kind: 'shell', what: 'node serve.js', service: 'listening on :8080'}],
    });
  });

  test('an agent that starts itself again (Qwen Code, Gemini CLI): the root is below its last process', async () => {
    const again = [
      ...claude,
      {pid: 101, command: '/usr/bin/node --max-old-space-size=4096 /x/bin/claude', leader: false},
    ];
    expect(await judgedWith('node serve.js', true, again)).toMatchObject({
      settled: true,
      services: [{kind: 'shell', what: 'node serve.js', service: 'listening on :8080'}],
    });
  });

  test('where the agent is not found in the ancestry, only a shell counts, whatever leads a group', async () => {
    expect(await judgedWith('node serve.js', true, [])).toMatchObject({settled: false});
  });

  test('an ordinary turn is settled at once, and nothing is read', async () => {
    const w = world();
    await w.settling.prepare(DONE);
    expect(w.settling.judge(DONE)).toEqual({settled: true, by: 'screen', services: []});
    expect(w.reads()).toBe(0);
    expect(w.told).toEqual([]);
  });
});

test('--until turn: the turn end is enough', async () => {
  const w = world({turnOnly: true, work: [{kind: 'shell', what: 'sleep 20'}]});
  await w.settling.prepare(SHELL);
  expect(w.settling.judge(SHELL)).toEqual({settled: true, by: 'hook', services: []});
});

test('servicesByListening matches a shell by its command in the listener or its ancestors', () => {
  const items: WorkItem[] = [
    {kind: 'shell', what: 'npm run dev'},
    {kind: 'shell', what: 'sleep 5'},
    {kind: 'subagent', what: 'npm run dev'},
  ];
  expect(servicesByListening(items, [devServer()])).toEqual([
    {kind: 'shell', what: 'npm run dev', service: 'listening on :5173'},
    {kind: 'shell', what: 'sleep 5'},
    {kind: 'subagent', what: 'npm run dev'},
  ]);
});
