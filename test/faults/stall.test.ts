// A worker stalls longer than the lock's stale time (SIGSTOP, as a suspended laptop would):
// the next job takes the pane over; when the stalled worker resumes, it must find its lock
// compromised and stop — not one more of its characters may land after the other job's.
import {describe, expect, it} from 'vitest';
import {
  endedOnceAndFreed,
  LOCK_STALE_MS,
  recordFigure,
  submitJob,
  TRANSPORTS,
  waitForEvent,
  workerPid,
} from '../helpers/faults.js';
import {expectJobEnd, waitForJobEnd} from '../helpers/job-files.js';
import {recorderWorld} from '../helpers/recorder-pane.js';
import {submitArgv} from '../helpers/run-nudge.js';

describe.each(TRANSPORTS)('a worker stalled past the stale time (%s transport)', (transport) => {
  it('stops typing when it resumes; the job that took over is never collided with', async () => {
    const {server, rec, home} = await recorderWorld();
    // One worker per job: the other job must be another process than the stalled one (in the
    // server's waiter they would stall together; that case is test/faults/waiter.test.ts).
    const env = {NUDGE_TRANSPORT: transport, NUDGE_WAITER: '0'};
    const plain = {delay: 0, clear: false, notice: false};
    // 300 characters at 50 ms: 15 s of typing, stalled early on.
    const stalledText = 'a'.repeat(300);
    const stalled = await submitJob(
      home,
      submitArgv(server.socket, rec.pane, {...plain, typeDelay: '50ms'}, stalledText),
      env,
    );
    const stalledPid = await workerPid(home, stalled);
    await rec.waitForLength(10);
    const otherText = 'B'.repeat(40);
    const other = await submitJob(
      home,
      submitArgv(server.socket, rec.pane, {...plain, typeDelay: 0}, otherText),
      env,
    );
    await waitForEvent(home, other, 'waiting-for-lock');

    const stoppedAt = Date.now();
    process.kill(stalledPid, 'SIGSTOP');
    let resumed = false;
    try {
      const locked = await waitForEvent(home, other, 'locked', LOCK_STALE_MS + 20_000);
      const takeoverMs = Date.parse(locked.t) - stoppedAt;
      await expectJobEnd(home, other, 'done', 30_000);
      process.kill(stalledPid, 'SIGCONT');
      resumed = true;

      const final = await waitForJobEnd(home, stalled, 30_000);
      expect(final.state, JSON.stringify(final)).toBe('failed');
      expect(final.reason).toMatch(/lock was lost/);
      await endedOnceAndFreed(home, stalled, stalledPid);

      // What arrived: a prefix of a's, then B's text and Enter — and nothing of a's after.
      const got = (await rec.bytes()).toString('latin1');
      const firstB = got.indexOf('B');
      expect(firstB, got).toBeGreaterThan(0);
      const before = got.slice(0, firstB);
      const after = got.slice(firstB);
      const strays = (after.match(/a/g) ?? []).length;
      expect(/^a+$/.test(before), JSON.stringify(before)).toBe(true);
      expect(after, `${strays} of the stalled job's characters came after the other job's`).toBe(
        `${otherText}\r`,
      );
      recordFigure({
        scenario: 'worker stalled (SIGSTOP) past the stale time',
        transport,
        jobs: 2,
        accounted: 2,
        recoveryMs: takeoverMs,
        bytesVerified: got.length,
        strayBytes: strays,
      });
    } finally {
      if (!resumed) process.kill(stalledPid, 'SIGCONT');
    }
  });
});
