// Shared pieces of the fault-injection suite (test/faults): quick job arguments, waiting on
// job events, lock and process inspection, and the figures the Reliability table (docs/reliability.md) is
// built from (scripts/faults-table.ts).
import {appendFileSync, mkdirSync, readdirSync, readFileSync} from 'node:fs';
import {join} from 'node:path';
import {fileURLToPath} from 'node:url';
import {expect} from 'vitest';
import {expectJobEnd, jobEventLines, readJobEvents, readJobState, TERMINAL} from './job-files.js';
import {hex, type RecorderPane} from './recorder-pane.js';
import {runNudge, submitArgv, submitJob as submitRun} from './run-nudge.js';
import {waitFor} from './wait-for.js';

/** The worker transports every fault runs against (NUDGE_TRANSPORT). */
export const TRANSPORTS = ['spawn', 'control'] as const;
export type TransportName = (typeof TRANSPORTS)[number];

export {TERMINAL} from './job-files.js';

/** proper-lockfile's stale time in src/locks/pane-lock.ts. */
export const LOCK_STALE_MS = 8_000;

/** Submit a detached job and return its id; fails the test if submit fails. */
export async function submitJob(
  home: string,
  args: string[],
  env: Record<string, string> = {},
): Promise<string> {
  return submitRun(args, {...env, NUDGE_HOME: home});
}

/** The bytes a text arrives as in a raw recorder: each newline an Enter (CR), then the
 * final Enter. */
export const typedBytes = (text: string) => Buffer.from(`${text.replace(/\r\n|\n|\r/g, '\r')}\r`);

/** The first byte at which two buffers differ (the shorter one's length if one is a prefix). */
export function firstDifference(a: Buffer, b: Buffer): number {
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) if (a[i] !== b[i]) return i;
  return n;
}

/**
 * The fault suite's round trip: `text` submitted to a recorder pane (typed at once, nothing
 * cleared, no notice), the job ended `done`, and the recorder's bytes after `from` exactly the
 * text's, each newline an Enter. Resolves to the job and the recorder's length after it (the
 * next round trip's `from`).
 */
export async function roundTrip(o: {
  home: string;
  socket: string;
  rec: RecorderPane;
  transport: TransportName;
  text: string;
  /** `--type-delay` (default 0). */
  typeDelay?: string;
  /** More flags of submit (before the text). */
  flags?: string[];
  /** Where this job's bytes begin in the recorder (default 0). */
  from?: number;
  /** How long the job and then its bytes may take. */
  jobMs?: number;
  bytesMs?: number;
  /** Names the case in a failure. */
  name?: string;
}): Promise<{id: string; end: number}> {
  const {home, rec, text, from = 0, name = JSON.stringify(text.slice(0, 60))} = o;
  const flags = ['--delay', '0', '--type-delay', o.typeDelay ?? '0', '--no-clear', '--no-notice'];
  const id = await submitJob(
    home,
    submitArgv(o.socket, rec.pane, [...flags, ...(o.flags ?? []), '--', text]),
    {NUDGE_TRANSPORT: o.transport},
  );
  await expectJobEnd(home, id, 'done', o.jobMs ?? 30_000);
  const expected = typedBytes(text);
  const all = await rec
    .waitForLength(from + expected.length, o.bytesMs ?? 5_000)
    .catch(() => rec.bytes());
  const got = all.subarray(from);
  const at = firstDifference(got, expected);
  expect(
    got.length === expected.length && at === got.length,
    `${name}: ${got.length} of ${expected.length} bytes, first difference at byte ${at}: ${hex(got.subarray(at, at + 16))} for ${hex(expected.subarray(at, at + 16))}`,
  ).toBe(true);
  return {id, end: all.length};
}

type JobEvent = {t: string; event: string; [k: string]: unknown};

/** Wait until job `id` records `event` (or one matching `pred`); on timeout show its events. */
export async function waitForEvent(
  home: string,
  id: string,
  event: string,
  timeoutMs = 30_000,
  pred: (e: JobEvent) => boolean = () => true,
): Promise<JobEvent> {
  return waitFor(
    `job ${id} to record "${event}"`,
    async () => (await readJobEvents(home, id)).find((e) => e.event === event && pred(e)),
    {
      timeoutMs,
      intervalMs: 25,
      describe: () => jobEventLines(home, id),
    },
  );
}

/** The time of the first `event` of a job, in ms since the epoch (NaN if none). */
export function eventTime(events: JobEvent[], event: string): number {
  const e = events.find((x) => x.event === event);
  return e ? Date.parse(e.t) : Number.NaN;
}

/** Each of `ids` (in queue order) took the pane's lock only after the one before it typed its
 * last key (its notice); their events. */
export async function expectLockedInTurn(home: string, ids: string[]): Promise<JobEvent[][]> {
  const events = await Promise.all(ids.map((id) => readJobEvents(home, id)));
  for (let i = 1; i < ids.length; i++) {
    const previousLastKey = eventTime(events[i - 1]!, 'notified');
    const locked = eventTime(events[i]!, 'locked');
    expect(
      locked >= previousLastKey,
      `${ids[i]} locked at ${new Date(locked).toISOString()}, before ${ids[i - 1]} typed its notice (${new Date(previousLastKey).toISOString()})`,
    ).toBe(true);
  }
  return events;
}

/**
 * The terminal events of a job (exactly one is expected). A job's ending writes state.json
 * first and its event just after, so once state.json shows an ending this waits for that event
 * to be written before counting (a job that has not ended returns what there is, often []).
 */
export async function terminalEvents(home: string, id: string): Promise<JobEvent[]> {
  const endings = async () =>
    (await readJobEvents(home, id)).filter((e) => TERMINAL.includes(e.event));
  const state = await readJobState(home, id).catch(() => undefined);
  if (!state || !TERMINAL.includes(state.state)) return endings();
  return waitFor(
    `job ${id}'s ending (${state.state}) to reach its events`,
    async () => {
      const found = await endings();
      return found.length > 0 ? found : undefined;
    },
    {timeoutMs: 20_000},
  );
}

/** After a fault: the job ended once (one terminal event), its worker's process group is gone
 * and every pane lock and queue entry is free; returns how long the locks took to be free. */
export async function endedOnceAndFreed(home: string, id: string, pid: number): Promise<number> {
  expect(await terminalEvents(home, id)).toHaveLength(1);
  await waitForGroupGone(pid);
  return waitForLocksFree(home);
}

/** A job's pid from its state record (the worker records it when it starts). */
export async function workerPid(home: string, id: string): Promise<number> {
  const pid = await waitFor(
    `job ${id} to record its worker's pid`,
    async () => {
      const s = await readJobState(home, id).catch(() => undefined);
      return typeof s?.pid === 'number' ? s.pid : undefined;
    },
    {timeoutMs: 20_000},
  );
  return pid;
}

/** A job that holds pane `pane`'s lock and waits out `delay` before it would type (no
 * notice): its id and its worker's pid, once the lock is taken. */
// `env` {NUDGE_WAITER: '0'} gives it a worker of its own, for a test that kills one job's
// process (the server's waiter, which runs many, has test/faults/waiter.test.ts).
export async function lockHolder(
  home: string,
  socket: string,
  pane: string,
  delay = '30s',
  env: Record<string, string> = {},
): Promise<{id: string; pid: number}> {
  const id = await submitJob(
    home,
    submitArgv(socket, pane, {delay, notice: false}, 'never typed'),
    env,
  );
  const pid = await workerPid(home, id);
  await waitForEvent(home, id, 'locked');
  return {id, pid};
}

/** `nudge status --json` of a job. */
export async function statusOf(home: string, id: string): Promise<Record<string, unknown>> {
  const r = await runNudge(['status', id, '--json'], {NUDGE_HOME: home});
  expect(r.exitCode, r.stderr).toBe(0);
  return JSON.parse(r.stdout) as Record<string, unknown>;
}

/** The live processes (Linux /proc) whose stat `match`es: fields[0] is the state, [1] the
 * parent, [2] the process group; zombies are gone for our purposes. */
function liveProcesses(match: (fields: string[]) => boolean): number[] {
  const found: number[] = [];
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    try {
      const stat = readFileSync(`/proc/${name}/stat`, 'utf8');
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      if (fields[0] !== 'Z' && match(fields)) found.push(Number(name));
    } catch {
      // exited while we looked
    }
  }
  return found;
}

/** Pids of live processes in process group `pgid` (Linux /proc). */
export function processGroupMembers(pgid: number): number[] {
  return liveProcesses((fields) => Number(fields[2]) === pgid);
}

/** Pids of the live children of `pid` (Linux /proc). */
export function childrenOf(pid: number): number[] {
  return liveProcesses((fields) => Number(fields[1]) === pid);
}

/** Wait until no process of group `pgid` (a worker and anything it started) is left. */
export async function waitForGroupGone(pgid: number, timeoutMs = 20_000): Promise<void> {
  await waitFor(
    `process group ${pgid} to be gone`,
    async () => (processGroupMembers(pgid).length === 0 ? true : undefined),
    {
      timeoutMs,
      describe: () =>
        processGroupMembers(pgid)
          .map((p) => {
            try {
              return `${p}: ${readFileSync(`/proc/${p}/cmdline`, 'utf8').replaceAll('\0', ' ')}`;
            } catch {
              return `${p}: ?`;
            }
          })
          .join('\n'),
    },
  );
}

/** What is under `<home>/locks`: lock directories held and queue entries, by pane key. */
export function lockSnapshot(home: string): {locks: string[]; queued: string[]} {
  const dir = join(home, 'locks');
  let names: string[] = [];
  try {
    names = readdirSync(dir);
  } catch {
    return {locks: [], queued: []};
  }
  const locks = names.filter((n) => n.endsWith('.lock'));
  const queued: string[] = [];
  for (const q of names.filter((n) => n.endsWith('.queue'))) {
    for (const entry of readdirSync(join(dir, q))) if (entry.endsWith('.json')) queued.push(entry);
  }
  return {locks, queued};
}

/** Wait until no pane lock is held and no queue entry is left. */
export async function waitForLocksFree(home: string, timeoutMs = 20_000): Promise<number> {
  const started = Date.now();
  await waitFor(
    'every pane lock and queue entry to be released',
    async () => {
      const s = lockSnapshot(home);
      return s.locks.length === 0 && s.queued.length === 0 ? true : undefined;
    },
    {timeoutMs, describe: () => JSON.stringify(lockSnapshot(home))},
  );
  return Date.now() - started;
}

/** One row of figures for the Reliability table (docs/reliability.md). */
export interface Figure {
  /** The scenario, as the table names it. */
  scenario: string;
  transport?: TransportName | 'n/a';
  /** Jobs started, and jobs whose ending was recorded or shown as lost as expected. */
  jobs: number;
  accounted: number;
  /** How long the pane took to be usable again (kill → next job locked), ms. */
  recoveryMs?: number;
  /** Bytes compared byte for byte with what was expected. */
  bytesVerified?: number;
  /** Anything else worth a number (stray bytes after a takeover, runs of a property, ...). */
  [extra: string]: unknown;
}

const FIGURES = fileURLToPath(new URL('../../.faults/figures.jsonl', import.meta.url));

/** Append a figure (after the test's assertions held) for scripts/faults-table.ts. */
export function recordFigure(figure: Figure): void {
  mkdirSync(join(FIGURES, '..'), {recursive: true});
  appendFileSync(FIGURES, `${JSON.stringify({at: new Date().toISOString(), ...figure})}\n`);
}
