// kill -9 of a worker in each state (queued, locked, typing, waiting, notifying), on both
// transports, one worker per job (NUDGE_WAITER=0): the next job on the pane proceeds within the lock's stale window, `status`
// shows the killed job as lost, no notice is typed twice, and no half-typed text is
// presented as done by anyone (the next job's record and bytes are its own).
import {spawn} from 'node:child_process';
import {readFileSync, writeFileSync} from 'node:fs';
import {join} from 'node:path';
import {describe, expect, it, onTestFinished} from 'vitest';
import {
  eventTime,
  LOCK_STALE_MS,
  lockHolder,
  recordFigure,
  statusOf,
  submitJob,
  TRANSPORTS,
  terminalEvents,
  waitForEvent,
  waitForGroupGone,
  waitForLocksFree,
  workerPid,
} from '../helpers/faults.js';
import {expectJobEnd, readJobEvents} from '../helpers/job-files.js';
import {hex, recorderWorld} from '../helpers/recorder-pane.js';
import {runNudge, submitArgv} from '../helpers/run-nudge.js';
import {waitFor} from '../helpers/wait-for.js';

// A program nudge does not know (the recorder) is never cleared: no bytes before a line.
const CLEAR = Buffer.alloc(0);
const CR = Buffer.from([0x0d]);
/** Generous bound on "the next job proceeds within the stale window". */
const RECOVERY_BOUND_MS = LOCK_STALE_MS + 7_000;

const STATES = ['queued', 'locked', 'typing', 'waiting', 'notifying'] as const;
type KilledIn = (typeof STATES)[number];

/** The bytes one job leaves in a recorder: clear, text, Enter, then clear, notice, Enter. */
function jobBytes(text: string, notice?: string): Buffer {
  const parts = [CLEAR, Buffer.from(text), CR];
  if (notice !== undefined) parts.push(CLEAR, Buffer.from(notice), CR);
  return Buffer.concat(parts);
}

describe.each(TRANSPORTS)('kill -9 of a worker (%s transport)', (transport) => {
  it.each(STATES)('while %s: the next job proceeds, the killed one is lost', async (state) => {
    const {server, rec, home} = await recorderWorld();
    // One worker per job: what this suite kills is one job's process (the server's waiter,
    // which runs many, is killed in test/faults/waiter.test.ts).
    const env = {NUDGE_TRANSPORT: transport, NUDGE_WAITER: '0'};
    const args = (extra: string[]) => submitArgv(server.socket, rec.pane, extra);
    const quick = ['--delay', '0', '--type-delay', '0'];

    // The job ahead of the victim, only when the victim is to be killed while queued: it holds
    // the pane (its delay outlasts the test) until it is cancelled after the kill, however
    // long the victim and the next job take to queue behind it on a loaded machine.
    let holder: string | undefined;
    if (state === 'queued') {
      holder = await submitJob(home, args(['--delay', '600s', '--', 'holder job']), env);
      await waitForEvent(home, holder, 'locked');
    }

    const victimText: Record<KilledIn, string> = {
      queued: 'victim never typed',
      locked: 'victim never typed',
      // Long enough (30 s at 100 ms a character) to be typing still when the next job has
      // queued behind it, however slowly its worker starts.
      typing: `victim typing ${'v'.repeat(300)}`,
      waiting: 'victim waits forever',
      notifying: 'v',
    };
    const victimArgs: Record<KilledIn, string[]> = {
      queued: [...quick, '--notice', 'N-{job}'],
      locked: ['--delay', '60s', '--type-delay', '0', '--notice', 'N-{job}'],
      typing: ['--delay', '0', '--type-delay', '100ms', '--notice', 'N-{job}'],
      // A quiet pane needs 1000 identical captures: the victim stays in `waiting`.
      waiting: [...quick, '--stable-checks', '1000', '--notice', 'N-{job}'],
      // A slow notice: 320 characters at 100 ms.
      notifying: [
        '--delay',
        '0',
        '--type-delay',
        '100ms',
        '--notice',
        `N-{job} ${'n'.repeat(300)}`,
      ],
    };
    const victim = await submitJob(
      home,
      args([...victimArgs[state], '--', victimText[state]]),
      env,
    );
    const victimPid = await workerPid(home, victim);

    // Catch the victim in the state.
    switch (state) {
      case 'queued':
        await waitForEvent(home, victim, 'waiting-for-lock');
        break;
      case 'locked':
        await waitForEvent(home, victim, 'locked');
        break;
      case 'typing':
        await waitForEvent(home, victim, 'typing');
        await rec.waitForLength(CLEAR.length + 3);
        break;
      case 'waiting':
        await waitForEvent(home, victim, 'waiting');
        break;
      case 'notifying': {
        await waitForEvent(home, victim, 'notifying');
        // Its text, Enter, the clear keys and the first characters of the notice.
        const before = jobBytes(victimText.notifying).length;
        await rec.waitForLength(before + CLEAR.length + 3);
        break;
      }
    }

    // The next job queues behind the victim before the kill.
    const nextText = 'next job typed';
    const next = await submitJob(
      home,
      args([...quick, '--notice', 'N-{job}', '--', nextText]),
      env,
    );
    await waitForEvent(home, next, 'waiting-for-lock');

    const killedAt = Date.now();
    process.kill(victimPid, 'SIGKILL');
    // Everything the worker started (the control-mode client) goes with it.
    await waitForGroupGone(victimPid);
    if (holder) {
      const cancelled = await runNudge(['cancel', holder], {NUDGE_HOME: home});
      expect(cancelled.exitCode, cancelled.stderr).toBe(0);
    }

    const finalNext = await expectJobEnd(home, next, 'done', 60_000);
    expect(finalNext.notified).toBe(true);
    const nextEvents = await readJobEvents(home, next);
    const recoveredFrom = holder
      ? eventTime(await readJobEvents(home, holder), 'cancelled')
      : killedAt;
    const recoveryMs = eventTime(nextEvents, 'locked') - recoveredFrom;
    expect(recoveryMs, `next job locked ${recoveryMs} ms after the pane was free`).toBeLessThan(
      RECOVERY_BOUND_MS,
    );
    // The next job's record speaks only of its own text.
    const typing = nextEvents.find((e) => e.event === 'typing');
    expect(typing?.chars).toBe([...nextText].length);

    // The bytes: whatever the victim got out before it died, then the next job's, exactly.
    const nextBytes = jobBytes(nextText, `N-${next}`);
    let victimBytes: Buffer;
    switch (state) {
      case 'queued':
      case 'locked':
        victimBytes = Buffer.alloc(0);
        break;
      case 'typing':
      case 'notifying':
        victimBytes = Buffer.alloc(0); // a prefix, checked below
        break;
      case 'waiting':
        victimBytes = jobBytes(victimText.waiting);
        break;
    }
    const got = await waitFor(
      'the next job to end its bytes',
      async () => {
        const b = await rec.bytes();
        return b.subarray(-nextBytes.length).equals(nextBytes) ? b : undefined;
      },
      {timeoutMs: 10_000, describe: async () => hex(await rec.bytes())},
    ).catch(() => rec.bytes());
    const head = got.subarray(0, got.length - nextBytes.length);
    expect(hex(got.subarray(-nextBytes.length)), got.toString()).toBe(hex(nextBytes));
    if (state === 'typing' || state === 'notifying') {
      // A strict prefix of what the victim was typing, never finished, never repeated.
      const whole =
        state === 'typing'
          ? jobBytes(victimText.typing)
          : jobBytes(victimText.notifying, `N-${victim} ${'n'.repeat(300)}`);
      expect(head.length, head.toString()).toBeGreaterThan(CLEAR.length);
      expect(head.length, head.toString()).toBeLessThan(whole.length - 1);
      expect(hex(head), head.toString()).toBe(hex(whole.subarray(0, head.length)));
    } else {
      expect(hex(head), head.toString()).toBe(hex(victimBytes));
    }
    // No notice typed twice; the victim's notice never completed.
    const victimNotices = got.toString('latin1').split(`N-${victim}`).length - 1;
    expect(victimNotices).toBeLessThanOrEqual(state === 'notifying' ? 1 : 0);
    expect(got.toString('latin1').split(`N-${next}`).length - 1).toBe(1);

    // The victim never recorded an ending, and shows as lost.
    expect(await terminalEvents(home, victim)).toEqual([]);
    const shown = await statusOf(home, victim);
    // `state` is what a script should believe; the record's own state stays beside it.
    expect(shown.state, JSON.stringify(shown)).toBe('lost');
    expect(shown.shown).toBe('lost');
    expect(shown.recordedState).toBe(state);
    if (holder) expect((await statusOf(home, holder)).shown).toBe('cancelled');
    await waitForLocksFree(home);

    recordFigure({
      scenario: `kill -9 while ${state}`,
      transport,
      jobs: holder ? 3 : 2,
      accounted: holder ? 3 : 2,
      recoveryMs,
      bytesVerified: got.length,
    });
  });
});

describe('a dead worker whose pid was reused (as after a reboot)', () => {
  it('shows the job lost, and cancel does not signal the stranger', async () => {
    const {server, rec, home} = await recorderWorld();
    const {id, pid} = await lockHolder(home, server.socket, rec.pane, '60s', {NUDGE_WAITER: '0'});
    process.kill(pid, 'SIGKILL');
    await waitForGroupGone(pid);
    // A stranger now has the pid on record.
    const stranger = spawn('sleep', ['60'], {stdio: 'ignore'});
    onTestFinished(() => void stranger.kill('SIGKILL'));
    const statePath = join(home, 'jobs', id, 'state.json');
    const record = JSON.parse(readFileSync(statePath, 'utf8'));
    writeFileSync(statePath, JSON.stringify({...record, pid: stranger.pid}));

    expect((await statusOf(home, id)).state).toBe('lost');
    const cancel = await runNudge(['cancel', id], {NUDGE_HOME: home});
    expect(cancel.exitCode, cancel.stderr).toBe(0);
    expect(stranger.exitCode).toBe(null);
    expect(() => process.kill(stranger.pid as number, 0)).not.toThrow();
    expect((await statusOf(home, id)).shown).toBe('cancelled');
    recordFigure({scenario: 'dead worker, pid reused by a stranger', jobs: 1, accounted: 1});
  });
});
