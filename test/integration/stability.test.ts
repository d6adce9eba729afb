// "Done" detection by screen stability, the notice typed afterwards, and the timeout notice.
import {join} from 'node:path';
import {describe, expect, it} from 'vitest';
import {expectJobEnd, jobEventNames, readJobEvents, waitForJobEnd} from '../helpers/job-files.js';
import {serverWorld} from '../helpers/nudge-home.js';
import {recorderWorld, startRecorder} from '../helpers/recorder-pane.js';
import {FIXTURES, flagWords, runNudge, submitArgs, submitJob} from '../helpers/run-nudge.js';
import {shellAtPrompt} from '../helpers/shell-pane.js';
import {waitFor} from '../helpers/wait-for.js';

const DEFAULT_NOTICE = '[SYSTEM COMMAND] Command complete. Resume.';

describe('waiting until the pane is stable', () => {
  it('types the notice only after a program that prints for a while has gone quiet', async () => {
    const {server, home} = await shellAtPrompt();
    const pane = '%0'; // bash

    const id = await submitJob(
      submitArgs(server.socket, pane, [], `node ${join(FIXTURES, 'chatty.mjs')} 2000`),
      {NUDGE_HOME: home},
    );

    const final = await expectJobEnd(home, id, 'done', 40_000);
    expect(final.notified).toBe(true);
    // bash got the notice as a command line: it shows on screen.
    const screen = await server.waitForScreen(
      pane,
      /^(?=[\s\S]*CHATTY DONE)(?=[\s\S]*Command complete\. Resume\.)/,
      10_000,
    );
    const doneAt = screen.indexOf('CHATTY DONE');
    const noticeAt = screen.indexOf(DEFAULT_NOTICE);
    expect(doneAt, screen).toBeGreaterThan(-1);
    expect(screen).toMatch(/chatty line 1\b/);
    // The first appearance of the notice comes after the program's last line: nothing was
    // typed (and echoed) while it was still printing.
    expect(noticeAt, screen).toBeGreaterThan(doneAt);

    // The wait ended because the condition was met, not at the timeout; the notice came
    // after it. (The name of the "condition met" event is not pinned here: it was "stable"
    // and is "condition-met" since --until.)
    const events = await jobEventNames(home, id);
    expect(events).toEqual(
      expect.arrayContaining(['typed', 'waiting', 'notifying', 'notified', 'done']),
    );
    const waitEnd = events.indexOf('waiting') + 1;
    expect(['stable', 'condition-met'], events.join(' ')).toContain(events[waitEnd]);
    expect(waitEnd).toBeLessThan(events.indexOf('notified'));
    expect(events).not.toContain('wait-timeout');
  });

  it('a program that never goes quiet: the job times out at --timeout; the notice is held back while it holds the pane', async () => {
    const {server, home} = await shellAtPrompt();
    const pane = '%0'; // bash

    const id = await submitJob(
      submitArgs(server.socket, pane, {timeout: '2s'}, `node ${join(FIXTURES, 'spinner.mjs')}`),
      {NUDGE_HOME: home},
    );

    const final = await waitForJobEnd(home, id, 40_000);
    expect(final.state, JSON.stringify(final)).toBe('timeout');
    expect(final.waitedMs as number).toBeGreaterThanOrEqual(2000);
    // The spinner holds the pane's terminal, not the shell the job typed into: the notice
    // would go to the spinner, so it is held back, and the record says why.
    expect(final.notified, JSON.stringify(final)).toBe(false);
    expect(String(final.noticeHeld)).toMatch(/held back: node holds pane %0 now, not bash/);
    expect(final.verdict).toBe('the screen is still changing');
    const screen = await server.capture(pane);
    expect(screen).toMatch(/SPINNER START/);
    expect(screen).not.toMatch(/Timed out after|Command complete/);

    const events = await jobEventNames(home, id);
    expect(events).toEqual(
      expect.arrayContaining(['waiting', 'wait-timeout', 'notice-held', 'timeout']),
    );
    expect(events).not.toContain('notified');
    expect(events).not.toContain('condition-met');
  });

  it('a program that never goes quiet, with --notify-pane: the timeout notice still goes out, there', async () => {
    const {server, home} = await shellAtPrompt();
    const pane = '%0'; // bash
    const rec = await startRecorder(server);

    const r = await runNudge(
      submitArgs(
        server.socket,
        pane,
        {timeout: '2s', notifyPane: rec.pane},
        `node ${join(FIXTURES, 'spinner.mjs')}`,
      ),
      {NUDGE_HOME: home},
    );
    expect(r.exitCode, r.stderr).toBe(0);
    const final = await waitForJobEnd(home, r.stdout.trim(), 40_000);
    expect(final.state, JSON.stringify(final)).toBe('timeout');
    expect(final.notified, JSON.stringify(final)).toBe(true);
    await waitFor(
      'the timeout notice at the notify pane',
      async () => (await rec.bytes()).toString().includes('Timed out after') || undefined,
    );
  });

  it('a spinner that is the pane program itself (no shell to say it is busy) never looks stable', async () => {
    const {server, home} = await serverWorld();
    // The spinner redraws every 100 ms; captures 200 ms apart must never look identical.
    const pane = await server.newPane([process.execPath, join(FIXTURES, 'spinner.mjs')]);
    await server.waitForScreen(pane, /SPINNER START/);

    const id = await submitJob(
      submitArgs(server.socket, pane, {stableChecks: '2', timeout: '2s'}, 'go'),
      {NUDGE_HOME: home},
    );

    const final = await waitForJobEnd(home, id, 40_000);
    const events = (await readJobEvents(home, id)).map(
      (e) => `${e.event}${e.checks ? `(${e.checks} checks)` : ''}`,
    );
    expect(final.state, `${JSON.stringify(final)}\n${events.join(' ')}`).toBe('timeout');
    expect(final.notified).toBe(true);
    // The spinner does not read its input: the tty echoes the notice onto the screen.
    await server.waitForScreen(pane, /Timed out after/, 10_000);
  });

  it('renders a custom --notice template with {job}, {status} and {elapsed}', async () => {
    const {server, rec, home} = await recorderWorld();
    const r = await runNudge(
      submitArgs(
        server.socket,
        rec.pane,
        [
          '--interval',
          '100ms',
          '--stable-checks',
          '2',
          ...flagWords({clear: false, notice: 'job {job} {status} in {elapsed};'}),
        ],
        'make it so',
      ),
      {NUDGE_HOME: home},
    );
    expect(r.exitCode, r.stderr).toBe(0);
    const id = r.stdout.trim();
    await expectJobEnd(home, id, 'done', 30_000);

    // The job is done, so the notice has been sent; wait for its last byte to land.
    let recorded = '';
    await waitFor(
      'the notice and its Enter in the recording',
      async () => {
        recorded = (await rec.bytes()).toString('utf8');
        return recorded.endsWith(';\r') || undefined;
      },
      {timeoutMs: 5_000, describe: () => JSON.stringify(recorded)},
    ).catch(() => {});
    const match = /^make it so\rjob (\S+) done in (\d+(?:\.\d+)?(?:ms|s));\r$/.exec(recorded);
    expect(match, JSON.stringify(recorded)).not.toBeNull();
    expect(match?.[1]).toBe(id);
  });
});
