/**
 * A job's files as a test reads them, straight from the state dir: its record (state.json),
 * its events (events.jsonl), and waiting until it reaches a state or ends. Running the CLI
 * and building its argv is run-nudge.ts's.
 */
import {readFile} from 'node:fs/promises';
import {join} from 'node:path';
import {expect} from 'vitest';
import {TERMINAL_STATES} from '../../src/jobs/states.js';
import {isAlive} from './process-view.js';
import {waitFor} from './wait-for.js';

/** The states a job ends in: the product's one list. */
export const TERMINAL: readonly string[] = TERMINAL_STATES;

/** A job's state.json, as a test reads it. */
export type JobRecord = Record<string, unknown> & {state: string};

/** Read a job's state.json straight from the state dir; like the product, the launcher's
 * worker.pid stands in for a pid the worker has not recorded yet. */
export async function readJobState(home: string, jobId: string): Promise<JobRecord> {
  const dir = join(home, 'jobs', jobId);
  const record = JSON.parse(await readFile(join(dir, 'state.json'), 'utf8'));
  if (record.pid === undefined) {
    const pid = Number.parseInt(
      await readFile(join(dir, 'worker.pid'), 'utf8').catch(() => ''),
      10,
    );
    if (pid > 0) record.pid = pid;
  }
  return record;
}

/** Read a job's events. */
export async function readJobEvents(
  home: string,
  jobId: string,
): Promise<Array<{t: string; event: string; [k: string]: unknown}>> {
  const text = await readFile(join(home, 'jobs', jobId, 'events.jsonl'), 'utf8').catch(() => '');
  return text
    .split('\n')
    .filter(Boolean)
    .map((l) => JSON.parse(l));
}

/** The names of a job's events, in order. */
export async function jobEventNames(home: string, jobId: string): Promise<string[]> {
  return (await readJobEvents(home, jobId)).map((e) => e.event);
}

/** A job's events as lines of JSON, for a failing assertion's message. */
export async function jobEventLines(home: string, jobId: string): Promise<string> {
  return (await readJobEvents(home, jobId)).map((e) => JSON.stringify(e)).join('\n');
}

/** How long a job of a dead waiter may wait for the takeover before its death counts. */
const TAKEOVER_GRACE_MS = 10_000;

/** Wait until a job reaches one of `states`; fail at once if its worker died short of them
 * (nothing else would move the job on); on timeout show its state and events. */
export async function waitForJobState(
  home: string,
  jobId: string,
  states: readonly string[],
  timeoutMs = 60_000,
): Promise<JobRecord> {
  let seen: JobRecord | undefined;
  let deadSince: number | undefined;
  const last = () => JSON.stringify(seen);
  const reached = async (): Promise<JobRecord | undefined> => {
    const s = await readJobState(home, jobId).catch(() => undefined);
    seen = s;
    if (!s || !states.includes(s.state)) return undefined;
    // A job's ending writes state.json first and its event just after: wait for both, so
    // a caller reading the events next finds the ending there.
    if (!TERMINAL.includes(s.state)) return s;
    return (await readJobEvents(home, jobId)).some((e) => e.event === s.state) ? s : undefined;
  };
  return waitFor(
    `job ${jobId} to reach ${states.join('|')}`,
    async () => {
      const s = await reached();
      if (s) return s;
      const pid = seen?.pid;
      if (typeof pid !== 'number' || isAlive(pid)) return undefined;
      // A server's waiter that died leaves its jobs to the takeover its guard starts at once
      // (src/waiter/waiter-takeover.ts): give that a moment to move the job on.
      if (seen?.waiter === true) {
        deadSince ??= Date.now();
        if (Date.now() - deadSince < TAKEOVER_GRACE_MS) return undefined;
      }
      // Its worker is gone: what it wrote last is all there will be.
      const again = await reached();
      if (again) return again;
      // Handed on meanwhile (a worker gives its job to the server's waiter, then exits): the
      // record names the process that has it now.
      if (seen?.pid !== pid) return undefined;
      throw new Error(
        `job ${jobId}'s worker (pid ${pid}) died short of ${states.join('|')}: ${last()}\nevents:\n${await jobEventLines(home, jobId)}`,
      );
    },
    {
      timeoutMs,
      intervalMs: 100,
      describe: async () => `${last()}\nevents:\n${await jobEventLines(home, jobId)}`,
    },
  );
}

/** Wait until a job is blocked on a dialog: its record keeps the dialog (`blocked`) while the
 * job waits on for the person's answer, or (nothing typed) it ended `blocked`. Its record. */
export function waitForJobBlocked(
  home: string,
  jobId: string,
  timeoutMs = 60_000,
): Promise<JobRecord> {
  return waitFor(
    `job ${jobId} to be blocked`,
    async () => {
      const r = await readJobState(home, jobId).catch(() => undefined);
      if (r?.blocked) return r;
      if (r && TERMINAL.includes(r.state))
        throw new Error(`job ${jobId} ended ${r.state}, never blocked: ${JSON.stringify(r)}`);
      return undefined;
    },
    {timeoutMs, intervalMs: 100, describe: () => jobEventLines(home, jobId)},
  );
}

/** Wait until a job has ended (one of TERMINAL, its ending event written). */
export function waitForJobEnd(home: string, jobId: string, timeoutMs = 60_000): Promise<JobRecord> {
  return waitForJobState(home, jobId, TERMINAL, timeoutMs);
}

/** Wait until a job has ended and expect it ended `state`; the failure shows its record and
 * events. Its record. */
export async function expectJobEnd(
  home: string,
  jobId: string,
  state = 'done',
  timeoutMs = 60_000,
): Promise<JobRecord> {
  const end = await waitForJobEnd(home, jobId, timeoutMs);
  if (end.state !== state)
    expect(end.state, `${JSON.stringify(end)}\nevents:\n${await jobEventLines(home, jobId)}`).toBe(
      state,
    );
  return end;
}

/** A job's first event named `name`, if it has one. */
export async function jobEvent(
  home: string,
  jobId: string,
  name: string,
): Promise<{t: string; event: string; [k: string]: unknown} | undefined> {
  return (await readJobEvents(home, jobId)).find((e) => e.event === name);
}
