// `nudge cancel`: a queued job never types; a running one stops and frees the pane at once.
import {describe, expect, it} from 'vitest';
import {cancelHandoverRound} from '../helpers/cancel-handover.js';
import {submitJob, waitForEvent} from '../helpers/faults.js';
import {
  expectJobEnd,
  jobEventLines,
  jobEventNames,
  readJobState,
  waitForJobState,
} from '../helpers/job-files.js';
import {serverWorld, useNudgeHome} from '../helpers/nudge-home.js';
import {isAlive} from '../helpers/process-view.js';
import {hex, recorderWorld, startRecorder} from '../helpers/recorder-pane.js';
import {runNudge, type SubmitFlags, submitArgv, submitTo} from '../helpers/run-nudge.js';
import {startTmuxServer} from '../helpers/tmux-server.js';
import {waitFor} from '../helpers/wait-for.js';

/** `nudge cancel ID --json`, which must succeed: its answer. */
async function cancelAnswer(home: string, id: string): Promise<Record<string, unknown>> {
  const r = await runNudge(['cancel', id, '--json'], {NUDGE_HOME: home});
  expect(r.exitCode, r.stderr).toBe(0);
  return JSON.parse(r.stdout);
}

describe('nudge cancel', () => {
  it('cancels a queued job (never typed) and a running one (the next job starts promptly)', async () => {
    const {server, rec, home} = await recorderWorld();
    const fast = {clear: false, typeDelay: '1ms'};

    // A holds the pane (a long --delay); B and C queue behind it.
    const a = await submitJob(
      home,
      submitArgv(server.socket, rec.pane, {...fast, notice: false, delay: '20s'}, 'A never typed'),
    );
    await waitForJobState(home, a, ['locked']);
    const b = await submitJob(
      home,
      submitArgv(server.socket, rec.pane, {...fast, notice: false, delay: '0'}, 'B never typed'),
    );
    await waitForEvent(home, b, 'waiting-for-lock');
    const c = await submitJob(
      home,
      submitArgv(server.socket, rec.pane, {...fast, notice: false, delay: '0'}, 'C typed'),
    );
    await waitForEvent(home, c, 'waiting-for-lock');

    // Cancel the queued one.
    const cancelB = await runNudge(['cancel', b], {NUDGE_HOME: home});
    expect(cancelB.exitCode, cancelB.stderr).toBe(0);
    expect(cancelB.stdout).toContain(`Cancelled job ${b}`);
    const stateB = await readJobState(home, b);
    expect(stateB.state, JSON.stringify(stateB)).toBe('cancelled');
    expect(await jobEventNames(home, b)).not.toContain('locked');
    // A still holds the pane.
    expect((await readJobState(home, a)).state).toBe('locked');

    // Cancel the running one: C must get the pane well before the lock would go stale (8 s).
    const cancelledAt = Date.now();
    expect(await cancelAnswer(home, a)).toMatchObject({
      job: a,
      result: 'cancelled',
      state: 'cancelled',
    });
    const stateA = await readJobState(home, a);
    expect(stateA.state, JSON.stringify(stateA)).toBe('cancelled');
    const lockedC = await waitForEvent(home, c, 'locked', 30_000);
    expect(Date.parse(lockedC.t) - cancelledAt).toBeLessThan(6_000);

    await expectJobEnd(home, c, 'done', 30_000);
    // Only C's text ever reached the pane.
    const expected = Buffer.from('C typed\r');
    const got = await rec.waitForLength(expected.length, 5_000).catch(() => rec.bytes());
    expect(hex(got), got.toString()).toBe(hex(expected));
    expect(await readJobState(home, b)).toMatchObject({state: 'cancelled'});
  });

  it('cancels a job while it types into a program nudge does not know: typing stops, and no key it could misread (Escape, C-u) is sent', async () => {
    const {server, rec, home} = await recorderWorld();
    const text = `echo ${'x'.repeat(600)}`; // 3 s or more at 5 ms per character

    const id = await submitJob(
      home,
      submitArgv(server.socket, rec.pane, {notice: false, delay: '0', typeDelay: '5ms'}, text),
    );
    // The first characters of the text: the worker is typing.
    await rec.waitForLength(8, 20_000);
    const cancel = await runNudge(['cancel', id], {NUDGE_HOME: home});
    const state = await readJobState(home, id);
    const seen = `${cancel.stdout}${cancel.stderr}\n${JSON.stringify(state)}\n${await jobEventLines(home, id)}`;
    expect(cancel.exitCode, seen).toBe(0);
    expect(cancel.stdout, seen).toContain(`Cancelled job ${id}`);
    expect(state.state, JSON.stringify(state)).toBe('cancelled');
    expect(state.reason).toMatch(/typing/);
    await waitFor(
      `worker ${state.pid} to exit`,
      async () => (isAlive(state.pid as number) ? undefined : true),
      {timeoutMs: 10_000},
    );

    // The worker is gone: the recording is a strict prefix of the text and nothing else — no
    // Enter, and no clearing key (a program nudge does not know is never cleared: C-u or
    // Escape could mean anything there). A program with a profile that clears is cleared:
    // the next test.
    const got = await rec.bytes();
    const typed = got.toString('utf8');
    expect(hex(got)).not.toMatch(/\b(1b|15|0d)\b/);
    expect(typed.length).toBeGreaterThan(0);
    expect(typed.length).toBeLessThan(text.length);
    expect(text.startsWith(typed), JSON.stringify(typed)).toBe(true);
  });

  it("a job cancelled while it types clears its line before the next job queued on the pane starts; the next job's text arrives whole", async () => {
    const server = await startTmuxServer();
    const rec = await startRecorder(server);
    await cancelHandoverRound(useNudgeHome(), server.socket, rec, 1);
  });

  it('cancel of a job that already ended exits 0 and says so', async () => {
    const {server, rec, home} = await recorderWorld();
    const {id, ...r} = await submitTo(
      server.socket,
      rec.pane,
      'quick',
      {notice: false, clear: false, wait: true},
      {NUDGE_HOME: home},
    );
    expect(r.exitCode, r.stderr).toBe(0);
    expect((await readJobState(home, id)).state).toBe('done');

    const cancel = await runNudge(['cancel', id], {NUDGE_HOME: home});
    expect(cancel.exitCode, cancel.stderr).toBe(0);
    expect(cancel.stdout).toMatch(/already ended \(done\)/);
    expect(await cancelAnswer(home, id)).toMatchObject({
      job: id,
      result: 'already-ended',
      state: 'done',
    });
    // Still done: cancel changed nothing.
    expect((await readJobState(home, id)).state).toBe('done');
    expect(await jobEventNames(home, id)).not.toContain('cancelled');
  });
});

describe('a half line nudge cannot clear (a program without a profile)', () => {
  it('a cancelled job leaves it, says so (cleared: false), and the queued job never types onto it: it waits for the person, then fails; once the person clears it, the next job types alone', async () => {
    const {server, home} = await serverWorld();
    // cat in a cooked tty: nudge has no profile for it (raw), the tty echoes what is typed
    // and prints a line back once Enter sends it.
    const pane = await server.newPane(['cat']);
    const submit = (flags: SubmitFlags, text: string) =>
      submitJob(home, submitArgv(server.socket, pane, {notice: false, delay: '0', ...flags}, text));
    const first = await submit({typeDelay: '40ms'}, 'c'.repeat(300));
    const queued = await submit({draftWait: '3s'}, 'queued-after-cancel');
    await server.waitForScreen(pane, /c{8}/);
    expect(await cancelAnswer(home, first)).toMatchObject({result: 'cancelled', cleared: false});
    const state = await readJobState(home, first);
    expect(state.reason).toMatch(
      /^Cancelled while typing after typing \d+ of 300 characters; they were left in the input line/,
    );
    const second = await expectJobEnd(home, queued, 'failed', 60_000);
    expect(second.reason).toMatch(
      new RegExp(
        `^A cancelled job \\(${first}\\) left \\d+ characters in pane ${pane}'s input line, which nudge cannot clear`,
      ),
    );
    const screen = await server.capture(pane);
    expect(screen).not.toContain('queued');
    expect(screen.trim()).toMatch(/^[c\n]+$/);

    // The person clears the line (the tty's kill character): the next job types alone.
    const third = await submit({draftWait: '20s'}, 'after-clear');
    await waitForEvent(home, third, 'waiting-for-half-line');
    await server.tmux('send-keys', '-t', pane, 'C-u');
    await expectJobEnd(home, third, 'done', 60_000);
    // cat prints the line it was sent: only the new text, none of the c's (its echo may sit
    // after what is left of the c's on the screen; its output is a row of its own).
    await server.waitForScreen(pane, /^after-clear$/m);
    expect(
      (await server.capture(pane)).split('\n').filter((l) => l === 'after-clear').length,
    ).toBeGreaterThan(0);
  });
});
