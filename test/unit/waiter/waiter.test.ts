/**
 * The waiter's hand-over on a real store in a temporary folder, with the job's run a
 * function the test holds: the first worker becomes the waiter and runs its own job; a second
 * worker's job is taken by the waiter (its entry renamed away, the waiter recorded as the
 * job's process) and the second worker returns at once; a cancel mark stops one job, not its
 * neighbour; a job written as the waiter leaves is served; and which environments share a
 * waiter. Across processes (a real worker, SIGKILL, SIGSTOP) it is
 * test/integration/waiter.test.ts.
 */
import {existsSync} from 'node:fs';
import {mkdir, readdir, writeFile} from 'node:fs/promises';
import {join} from 'node:path';
import {describe, expect, test} from 'vitest';
import {realClock} from '../../../src/base/clock.js';
import {ensureStateDir} from '../../../src/base/paths.js';
import {JobStore} from '../../../src/jobs/store.js';
import {PER_CALLER} from '../../../src/waiter/caller.js';
import {
  handOrServe,
  type WaiterDeps,
  type WaiterJob,
  waiterDir,
  waiterKey,
} from '../../../src/waiter/waiter.js';
import {jobRequest} from '../../helpers/job-request.js';
import {useTempDir} from '../../helpers/temp-dir.js';

const SERVER = {socketPath: '/tmp/nudge-test/sock', serverPid: 4242};

/** A job's run held by the test: it starts, and ends when the test says (or on its stop). */
interface Held {
  started: Promise<WaiterJob>;
  end(): void;
}

async function world() {
  const home = useTempDir('nudge-waiter-');
  await ensureStateDir(home);
  const store = new JobStore(home);
  const runs = new Map<string, Held>();
  const ran: string[] = [];
  const cancelListeners = new Set<() => void>();
  const hold = (id: string): Held => {
    let start: (job: WaiterJob) => void = () => {};
    let end: () => void = () => {};
    const started = new Promise<WaiterJob>((resolve) => {
      start = resolve;
    });
    const ended = new Promise<void>((resolve) => {
      end = resolve;
    });
    const held = {started, end, start, ended};
    runs.set(id, held);
    return held;
  };
  const stop = new AbortController();
  const deps = (env: Record<string, string> = {HOME: '/home/a'}): WaiterDeps => ({
    stateDir: home,
    server: SERVER,
    env,
    pid: process.pid,
    signal: stop.signal,
    log: () => {},
    clock: realClock,
    guard: () => ({stop: () => {}}),
    onCancelMarks: (listener) => {
      cancelListeners.add(listener);
      return () => cancelListeners.delete(listener);
    },
    async runJob(job) {
      ran.push(job.id);
      const held = (runs.get(job.id) ?? hold(job.id)) as Held & {
        start(job: WaiterJob): void;
        ended: Promise<void>;
      };
      held.start(job);
      await new Promise<void>((resolve) => {
        void held.ended.then(resolve);
        if (job.signal.aborted) resolve();
        job.signal.addEventListener('abort', () => resolve(), {once: true});
      });
    },
  });
  const job = async (id: string) => {
    await store.create(jobRequest({jobId: id}), 'detached');
    return hold(id);
  };
  const sigusr2 = () => {
    for (const l of [...cancelListeners]) l();
  };
  return {home, store, deps, job, ran, sigusr2, stop};
}

/** Jobs 1 and 2: the first worker serves job 1, the second hands job 2 over (from a caller
 * whose env is `env2`); both running. */
async function twoRunning(w: Awaited<ReturnType<typeof world>>, env2?: Record<string, string>) {
  const a = await w.job('a0000000-0001');
  const b = await w.job('a0000000-0002');
  const first = handOrServe('a0000000-0001', w.deps());
  const jobA = await a.started;
  const second = await handOrServe('a0000000-0002', w.deps(env2));
  const jobB = await b.started;
  return {a, b, first, jobA, jobB, second};
}

describe('handOrServe', () => {
  test('the first worker is the waiter: it runs its own job, then leaves the lock free', async () => {
    const w = await world();
    const a = await w.job('a0000000-0001');
    const served = handOrServe('a0000000-0001', w.deps());
    const job = await a.started;
    expect(job.id).toBe('a0000000-0001');
    const record = await (await w.store.open('a0000000-0001')).readState();
    expect(record).toMatchObject({pid: process.pid, waiter: true});
    a.end();
    expect(await served).toBe('served');
    const dir = waiterDir(w.home, SERVER, {HOME: '/home/a'});
    expect(await readdir(join(dir, 'inbox'))).toEqual([]);
    expect(existsSync(join(dir, 'lock'))).toBe(false);
  });

  test("a second worker's job is taken by the waiter, and that worker returns at once", async () => {
    const w = await world();
    // The second caller stood elsewhere (another pane, another folder): same waiter.
    const {a, b, first, jobB, second} = await twoRunning(w, {
      HOME: '/home/a',
      TMUX_PANE: '%9',
      PWD: '/elsewhere',
    });
    expect(second).toBe('handed-over');
    // Its own caller's place is put back into its environment.
    expect(jobB.env).toMatchObject({HOME: '/home/a', TMUX_PANE: '%9', PWD: '/elsewhere'});
    expect(w.ran).toEqual(['a0000000-0001', 'a0000000-0002']);
    a.end();
    b.end();
    expect(await first).toBe('served');
  });

  test('a cancel mark stops that job only, when SIGUSR2 says to look', async () => {
    const w = await world();
    const {a, first, jobA, jobB} = await twoRunning(w);
    await (await w.store.open('a0000000-0002')).markCancelRequested('nudge cancel');
    w.sigusr2();
    await new Promise<void>((resolve) => jobB.signal.addEventListener('abort', () => resolve()));
    expect(jobA.signal.aborted).toBe(false);
    a.end();
    expect(await first).toBe('served');
  });

  test('a job marked cancelled before the waiter took it starts stopped', async () => {
    const w = await world();
    const a = await w.job('a0000000-0001');
    await (await w.store.open('a0000000-0001')).markCancelRequested('nudge cancel');
    const served = handOrServe('a0000000-0001', w.deps());
    expect((await a.started).signal.aborted).toBe(true);
    expect(await served).toBe('served');
  });

  test("the process's stop stops every job", async () => {
    const w = await world();
    const {first, jobA, jobB} = await twoRunning(w);
    w.stop.abort();
    expect(await first).toBe('served');
    expect([jobA.signal.aborted, jobB.signal.aborted]).toEqual([true, true]);
  });

  test('an entry a killed waiter was taking is put back and served', async () => {
    const w = await world();
    const a = await w.job('a0000000-0001');
    const b = await w.job('a0000000-0002');
    const inbox = join(waiterDir(w.home, SERVER, {HOME: '/home/a'}), 'inbox');
    await mkdir(inbox, {recursive: true});
    await writeFile(
      join(inbox, 'a0000000-0001.json.2147483000.taken'),
      JSON.stringify({job: 'a0000000-0001', vars: {}}),
    );
    const served = handOrServe('a0000000-0002', w.deps());
    await Promise.all([a.started, b.started]);
    a.end();
    b.end();
    expect(await served).toBe('served');
    expect(await readdir(inbox)).toEqual([]);
  });

  test('jobs of another environment, or another server, get a waiter of their own', () => {
    const env = {HOME: '/home/a', PATH: '/bin'};
    const key = waiterKey(SERVER, env);
    for (const k of PER_CALLER) expect(waiterKey(SERVER, {...env, [k]: 'x'})).toBe(key);
    expect(waiterKey(SERVER, {...env, PATH: '/usr/bin'})).not.toBe(key);
    expect(waiterKey(SERVER, {...env, CLAUDE_CONFIG_DIR: '/c'})).not.toBe(key);
    expect(waiterKey({...SERVER, serverPid: 4243}, env)).not.toBe(key);
    expect(waiterKey({...SERVER, socketPath: '/tmp/other'}, env)).not.toBe(key);
  });
});
