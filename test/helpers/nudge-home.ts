import {execFileSync} from 'node:child_process';
import {existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync} from 'node:fs';
import {join} from 'node:path';
import {onTestFinished} from 'vitest';
import {TERMINAL_STATES} from '../../src/jobs/states.js';
import {waitForJobEnd} from './job-files.js';
import {isAlive} from './process-view.js';
import {useTempDir} from './temp-dir.js';
import {startTmuxServer, type TmuxTestServer} from './tmux-server.js';
import {waitFor} from './wait-for.js';

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

const TERMINAL: ReadonlySet<string> = new Set(TERMINAL_STATES);

/**
 * A fresh NUDGE_HOME for one test. When the test finishes, its workers are gone before the
 * folder is removed: one whose job has ended is given time to finish (it still sends the
 * job's notifications and writes their events), one whose job has not (a test that failed
 * half-way) is killed — each by its own pid, after checking that the pid still runs that job.
 */
export function useNudgeHome(): string {
  const home = join(useTempDir('nudge-home-'), 'home');
  // Registered after the temp dir's cleanup, so (vitest runs onTestFinished hooks as a
  // stack) the workers are stopped before their state dir is removed.
  onTestFinished(() => stopWorkers(home));
  return home;
}

/** How long a worker whose job has ended may take to exit before it is killed. */
const ENDING_MS = 15_000;

/** Stop the workers of `home` (see useNudgeHome); resolves once none of them runs. */
export async function stopWorkers(home: string): Promise<void> {
  killLeftoverCycles(home);
  const ids = jobIds(home);
  const running = ids.flatMap((id) => {
    const worker = workerOf(home, id, ids);
    return worker ? [worker] : [];
  });
  const deadline = Date.now() + ENDING_MS;
  for (const w of running) {
    // A waiter may still run a job of the test's that has not ended: the test is over.
    if (!w.ended || w.names.length > 1) kill(w);
    else {
      while (alive(w) && Date.now() < deadline) await sleep(50);
      kill(w);
    }
  }
  for (const w of running) {
    for (let i = 0; i < 100 && alive(w); i++) await sleep(50);
  }
}

interface Worker {
  id: string;
  pid: number;
  ended: boolean;
  /** The ids its command line may name: its own, or, for the server's waiter (which runs many
   * jobs), any job of this home (it is named for the job it was started for). */
  names: readonly string[];
  /** A detached worker leads its process group: the group goes (a waiter's guard with it, so
   * no takeover starts jobs again as the test ends). */
  group: boolean;
}

/** The worker of job `id` when it still runs (its pid's command line names the job). */
function workerOf(home: string, id: string, ids: readonly string[]): Worker | undefined {
  try {
    const dir = join(home, 'jobs', id);
    const state = JSON.parse(readFileSync(join(dir, 'state.json'), 'utf8'));
    const pid: unknown =
      state.pid ?? Number.parseInt(readFileSync(join(dir, 'worker.pid'), 'utf8'), 10);
    if (typeof pid !== 'number' || !(pid > 0)) return undefined;
    const w = {
      id,
      pid,
      ended: TERMINAL.has(state.state),
      names: state.waiter === true ? ids : [id],
      group: state.mode === 'detached',
    };
    return alive(w) ? w : undefined;
  } catch {
    return undefined;
  }
}

function alive(w: Worker): boolean {
  const line = commandLineOf(w.pid);
  return line !== undefined && w.names.some((name) => line.includes(name));
}

/** A process's command line: from /proc, or from ps where there is none (macOS). */
function commandLineOf(pid: number): string | undefined {
  try {
    return readFileSync(`/proc/${pid}/cmdline`, 'utf8');
  } catch {
    if (existsSync('/proc/self')) return undefined;
    try {
      return execFileSync('ps', ['-ww', '-o', 'command=', '-p', String(pid)], {encoding: 'utf8'});
    } catch {
      return undefined;
    }
  }
}

function kill(w: Worker): void {
  try {
    process.kill(w.group ? -w.pid : w.pid, 'SIGKILL');
  } catch {
    // gone already
  }
}

/** A watcher's cycle worker still running (a test that failed half-way): killed with its
 * process group (its wait command), after checking that the pid still runs that watcher. */
function killLeftoverCycles(home: string): void {
  let names: string[];
  try {
    names = readdirSync(join(home, 'watchers'), {withFileTypes: true})
      .filter((e) => e.isDirectory())
      .map((e) => e.name);
  } catch {
    return;
  }
  for (const name of names) {
    try {
      const record = JSON.parse(readFileSync(join(home, 'watchers', name, 'watcher.json'), 'utf8'));
      const pid: unknown = record.cycle?.pid;
      if (typeof pid !== 'number' || !(pid > 0)) continue;
      const cmdline = commandLineOf(pid) ?? '';
      if (cmdline.includes('watch-worker') && cmdline.includes(name)) process.kill(-pid, 'SIGKILL');
    } catch {
      // gone already
    }
  }
}

/** The job directories under `home` (job ids, sorted). */
export function jobIds(home: string): string[] {
  try {
    return readdirSync(join(home, 'jobs')).sort();
  } catch {
    return [];
  }
}

/** Wait until exactly one job exists under `home` (e.g. one started with --wait, which
 * prints its id only at the end); resolves to its id. */
export async function waitForOnlyJob(home: string, timeoutMs = 20_000): Promise<string> {
  return waitFor(
    `a job directory under ${home}/jobs`,
    async () => {
      const ids = jobIds(home);
      return ids.length === 1 ? ids[0] : undefined;
    },
    {timeoutMs, describe: () => JSON.stringify(jobIds(home))},
  );
}

/** Wait for a job to end and its worker to exit: a worker records what it read (refused
 * profile files) after the job's end, so a test of those events waits for the exit. */
export async function waitForWorkerExit(home: string, id: string, timeoutMs = 30_000) {
  const end = await waitForJobEnd(home, id, timeoutMs);
  const pid = typeof end.pid === 'number' ? end.pid : undefined;
  if (pid !== undefined)
    await waitFor(
      `job ${id}'s worker (pid ${pid}) to exit`,
      async () => !isAlive(pid) || undefined,
      {
        timeoutMs,
        intervalMs: 100,
      },
    );
  return end;
}

/** What most tests start from: a private tmux server and a state dir of the test's own. */
export async function serverWorld(): Promise<{server: TmuxTestServer; home: string}> {
  return {server: await startTmuxServer(), home: useNudgeHome()};
}

/** Profile files of the user's (`NAME.toml` in the config dir's nudge/agents), in `config`
 * (default: a new temp dir): the XDG_CONFIG_HOME that makes nudge read them. */
export function userProfiles(files: Record<string, string>, config = useTempDir('nudge-config-')) {
  mkdirSync(join(config, 'nudge', 'agents'), {recursive: true});
  for (const [name, toml] of Object.entries(files))
    writeFileSync(join(config, 'nudge', 'agents', `${name}.toml`), toml);
  return config;
}
