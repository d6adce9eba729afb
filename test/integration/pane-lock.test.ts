// Per-pane lock and queue: jobs on one pane run one at a time, in submission order, and
// their keystrokes never interleave; a worker killed with SIGKILL does not wedge the pane.
import {describe, expect, it} from 'vitest';
import {expectLockedInTurn, submitJob, waitForEvent} from '../helpers/faults.js';
import {expectJobEnd, readJobState, TERMINAL, waitForJobState} from '../helpers/job-files.js';
import {hex, recorderWorld} from '../helpers/recorder-pane.js';
import {runNudge, submitArgv} from '../helpers/run-nudge.js';

describe('per-pane lock', () => {
  it('runs concurrent submits one at a time, in submission order, never interleaving keystrokes', async () => {
    const {server, rec, home} = await recorderWorld();
    const texts = [
      `one ${'A1;'.repeat(60)}`, // 184 characters at 20 ms: the others queue behind it
      `two ${'B2-'.repeat(8)}`,
      `three ${'C3 '.repeat(8)}end`,
      `four ${'D4$'.repeat(8)}`,
    ];
    const ids: string[] = [];
    for (const text of texts) {
      const r = await runNudge(
        submitArgv(
          server.socket,
          rec.pane,
          {clear: false, delay: '0', typeDelay: '20ms', notice: 'ok {job}'},
          text,
        ),
        {NUDGE_HOME: home},
      );
      expect(r.exitCode, r.stderr).toBe(0);
      ids.push(r.stdout.trim());
      if (ids.length === 1) {
        // The first submit returned while its job was still at work (3.7 s of typing);
        // the others queue behind it. (How long four submits take together depends on the
        // machine's load, so only this one is checked.)
        const first = await readJobState(home, ids[0]!);
        expect(TERMINAL, `job 1 when its submit returned: ${JSON.stringify(first)}`).not.toContain(
          first.state,
        );
      }
    }

    for (const id of ids) {
      const _s = await expectJobEnd(home, id, 'done', 60_000);
    }
    // Each job's text + Enter, then its notice + Enter, job after job.
    const expected = Buffer.from(ids.map((id, i) => `${texts[i]}\rok ${id}\r`).join(''));
    const got = await rec.waitForLength(expected.length, 5_000).catch(() => rec.bytes());
    expect(hex(got), got.toString()).toBe(hex(expected));

    // The events agree: each job took the lock only after the one before it had typed its
    // last key (its notice). The lock is freed right after that key; the ending is recorded
    // after the release, so it may come a few ms after the next job's `locked`.
    const events = await expectLockedInTurn(home, ids);
    for (const e of events.slice(1)) expect(e.map((x) => x.event)).toContain('waiting-for-lock');
  });

  it('a worker killed with SIGKILL while holding the lock: the next job proceeds, the dead one shows as lost', async () => {
    const {server, rec, home} = await recorderWorld();
    const fast = {notice: false, typeDelay: '1ms'};
    // One worker per job: what is killed is A's process alone (a killed waiter, which runs
    // both, is test/faults/waiter.test.ts).
    const one = {NUDGE_WAITER: '0'};

    const idA = await submitJob(
      home,
      submitArgv(server.socket, rec.pane, {...fast, clear: false, delay: '60s'}, 'never typed'),
      one,
    );
    const lockedA = await waitForJobState(home, idA, ['locked'], 20_000);

    const idB = await submitJob(
      home,
      submitArgv(server.socket, rec.pane, {...fast, clear: false, delay: '0'}, 'after the kill'),
      one,
    );
    // B's worker is queued behind A.
    await waitForEvent(home, idB, 'waiting-for-lock', 20_000);

    const pidA = lockedA.pid as number;
    expect(typeof pidA).toBe('number');
    process.kill(pidA, 'SIGKILL');

    // The lock goes stale (~8 s) and B proceeds.
    await expectJobEnd(home, idB, 'done', 30_000);
    const expected = Buffer.from('after the kill\r');
    const got = await rec.waitForLength(expected.length, 5_000).catch(() => rec.bytes());
    expect(hex(got), got.toString()).toBe(hex(expected));

    // The killed job never recorded an ending; status shows it as lost, not running.
    const status = await runNudge(['status', idA, '--json'], {NUDGE_HOME: home});
    expect(status.exitCode, status.stderr).toBe(0);
    const shown = JSON.parse(status.stdout);
    expect(shown).toMatchObject({id: idA, state: 'lost', recordedState: 'locked', shown: 'lost'});
    const plain = await runNudge(['status', idA], {NUDGE_HOME: home});
    expect(plain.stdout).toMatch(/state\s+lost/);
    const jobs = await runNudge(['jobs', '--json'], {NUDGE_HOME: home});
    const listed = JSON.parse(jobs.stdout) as Array<{id: string; shown: string}>;
    expect(listed.find((j) => j.id === idA)?.shown).toBe('lost');
    expect(listed.find((j) => j.id === idB)?.shown).toBe('done');
  });
});
