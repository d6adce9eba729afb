// `nudge cancel` racing the job's own ending, and two cancels at once: exactly one ending is
// recorded, cancel's answer agrees with it, the worker is gone and the pane is free.
import {setTimeout as sleep} from 'node:timers/promises';
import {describe, expect, it} from 'vitest';
import {cancelHandoverRound} from '../helpers/cancel-handover.js';
import {
  lockHolder,
  lockSnapshot,
  recordFigure,
  submitJob,
  TERMINAL,
  terminalEvents,
  waitForGroupGone,
  waitForLocksFree,
  workerPid,
} from '../helpers/faults.js';
import {jobEventLines, readJobState, waitForJobEnd} from '../helpers/job-files.js';
import {recorderWorld, startRecorder} from '../helpers/recorder-pane.js';
import {runNudge, submitArgv} from '../helpers/run-nudge.js';

/** A worker of its own for the job killed here (a killed waiter's jobs are taken over:
 * test/faults/waiter.test.ts). */
const ONE_WORKER = {NUDGE_WAITER: '0'};

/** Check one job after the cancels: one ending, agreeing with state.json and the answers. */
async function expectOneEnding(home: string, id: string, answers: string[]): Promise<string> {
  const state = await readJobState(home, id);
  const endings = await terminalEvents(home, id);
  const seen = `${JSON.stringify(state)}\n${await jobEventLines(home, id)}\nanswers:\n${answers.join('\n')}`;
  expect(TERMINAL, seen).toContain(state.state);
  expect(
    endings.map((e) => e.event),
    seen,
  ).toEqual([state.state]);
  for (const answer of answers) {
    if (state.state === 'cancelled') {
      expect(answer, seen).toMatch(/Cancelled job|already ended \(cancelled\)/);
    } else {
      expect(answer, seen).toMatch(new RegExp(`\\(${state.state}\\)`));
    }
  }
  return state.state;
}

describe('cancel races', () => {
  it('a job cancelled while it types, the next job queued on the pane: 20 rounds in a row, no clearing key inside the next text', async () => {
    const {server, rec, home} = await recorderWorld();
    for (let round = 1; round <= 20; round++) {
      await cancelHandoverRound(home, server.socket, rec, round);
    }
    recordFigure({
      scenario: 'cancelled mid-typing, next job queued',
      jobs: 40,
      accounted: 40,
      outcomes: {cancelled: 20, done: 20},
    });
    // Twenty rounds of about 12 s each beside the hog and the load test (CI 2026-12-03: 247 s
    // at round 19 or 20); each round's own waits are bounded, the whole gets 10 minutes.
  }, 600_000);

  it('cancel racing the job finishing: one ending, and cancel says which', async () => {
    const {server, rec, home} = await recorderWorld();
    const outcomes: Record<string, number> = {};
    const offsets = [0, 150, 300, 450, 600, 750, 900, 1_100, 1_400, 1_800];
    for (const offset of offsets) {
      const id = await submitJob(
        home,
        submitArgv(
          server.socket,
          rec.pane,
          {delay: 0, typeDelay: 0, notice: false},
          `race ${offset}`,
        ),
      );
      const pid = await workerPid(home, id);
      await sleep(offset);
      const cancel = await runNudge(['cancel', id], {NUDGE_HOME: home});
      expect(cancel.exitCode, cancel.stderr).toBe(0);
      await waitForJobEnd(home, id, 20_000);
      const state = await expectOneEnding(home, id, [cancel.stdout]);
      outcomes[state] = (outcomes[state] ?? 0) + 1;
      await waitForGroupGone(pid);
      await waitForLocksFree(home);
    }
    recordFigure({
      scenario: 'cancel racing the job finishing',
      jobs: offsets.length,
      accounted: Object.values(outcomes).reduce((a, b) => a + b, 0),
      outcomes,
    });
  });

  it('two cancels at once of a running job: one ending, both exit 0, the pane frees at once', async () => {
    const {server, rec, home} = await recorderWorld();
    const {id, pid} = await lockHolder(home, server.socket, rec.pane);
    const [a, b] = await Promise.all([
      runNudge(['cancel', id], {NUDGE_HOME: home}),
      runNudge(['cancel', id], {NUDGE_HOME: home}),
    ]);
    expect(a.exitCode, a.stderr).toBe(0);
    expect(b.exitCode, b.stderr).toBe(0);
    expect(await expectOneEnding(home, id, [a.stdout, b.stdout])).toBe('cancelled');
    await waitForGroupGone(pid);
    const freeMs = await waitForLocksFree(home, 5_000);
    expect((await rec.bytes()).length).toBe(0);
    recordFigure({
      scenario: 'two cancels at once (running job)',
      jobs: 1,
      accounted: 1,
      recoveryMs: freeMs,
    });
  });

  it('two cancels at once of a lost job (worker killed -9): exactly one cancelled record', async () => {
    const {server, rec, home} = await recorderWorld();
    const runs = 5;
    for (let i = 0; i < runs; i++) {
      // A pane of its own each time: a dead holder's lock takes the stale time to free.
      const pane = i === 0 ? rec.pane : (await startRecorder(server)).pane;
      const {id, pid} = await lockHolder(home, server.socket, pane, '30s', ONE_WORKER);
      process.kill(pid, 'SIGKILL');
      await waitForGroupGone(pid);
      const answers = await Promise.all([
        runNudge(['cancel', id], {NUDGE_HOME: home}),
        runNudge(['cancel', id], {NUDGE_HOME: home}),
      ]);
      for (const r of answers) expect(r.exitCode, r.stderr).toBe(0);
      expect(
        await expectOneEnding(
          home,
          id,
          answers.map((r) => r.stdout),
        ),
      ).toBe('cancelled');
      // Cancel took the job out of the pane's queue.
      expect(lockSnapshot(home).queued).toEqual([]);
    }
    // The dead workers' lock goes stale: the next job gets the pane.
    const next = await submitJob(
      home,
      submitArgv(server.socket, rec.pane, {delay: 0, notice: false}, 'next'),
    );
    expect((await waitForJobEnd(home, next, 30_000)).state).toBe('done');
    recordFigure({scenario: 'two cancels at once (lost job)', jobs: runs + 1, accounted: runs + 1});
  });
});
