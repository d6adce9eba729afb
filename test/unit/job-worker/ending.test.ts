import {describe, expect, test} from 'vitest';
import {endingOf, type Stopped, waitedOf} from '../../../src/job-worker/ending.js';
import {NotDelivered, PaneBlocked, PaneFailure} from '../../../src/pane/failures.js';
import {PaneInMode} from '../../../src/tmux/mode-guard.js';
import {TmuxCommandError} from '../../../src/tmux/runner.js';

const AT: Stopped = {
  phase: 'waiting',
  leaseLost: false,
  cancelled: false,
  pane: '%3',
  socketPath: '/tmp/s',
};

describe('an error, by where the job stood, as its ending', () => {
  test('a lost lock outranks everything: failed, saying another job may own the pane', () => {
    const end = endingOf(new PaneFailure('x'), {...AT, leaseLost: true, cancelled: true});
    expect(end.state).toBe('failed');
    expect(end.reason).toMatch(/^Stopped while waiting: the pane lock was lost/);
  });

  test('once cancelled, any error is the cancel, with what was typed and whether it was cleared', () => {
    const end = endingOf(new Error('tmux died'), {
      ...AT,
      phase: 'typing',
      cancelled: true,
      typed: 3,
      length: 9,
      cleared: false,
    });
    expect(end).toMatchObject({state: 'cancelled', cleared: false, notified: false});
    expect(end.reason).toMatch(
      /^Cancelled while typing after typing 3 of 9 characters; they were left/,
    );
  });

  test('a dialog where nudge was to type: blocked, with its question', () => {
    const dialog = {kind: 'permission', question: 'Do you want to proceed?'} as never;
    const end = endingOf(new PaneBlocked('%3', dialog), AT);
    expect(end.state).toBe('blocked');
    expect(end.reason).toBe(
      'Pane %3 waits for a person (permission): Do you want to proceed?; nothing was typed into it.',
    );
  });

  test('not delivered keeps its delivery word; tmux failures each in their own sentence', () => {
    expect(endingOf(new NotDelivered('stayed in the composer', 'not-submitted'), AT)).toMatchObject(
      {
        state: 'failed',
        reason: 'stayed in the composer',
        delivery: 'not-submitted',
      },
    );
    const tmux = (kind: 'no-target' | 'no-server' | 'no-tmux') =>
      endingOf(new TmuxCommandError(kind, '', 'x'), AT).reason;
    expect(tmux('no-target')).toBe('Pane %3 is gone (closed while waiting).');
    // Gone once the whole text was out: the text itself may have ended the shell (issue 62).
    const gone = new TmuxCommandError('no-target', '', 'x');
    expect(endingOf(gone, {...AT, phase: 'typing', typed: 4, length: 9}).reason).toBe(
      'Pane %3 is gone (closed while typing).',
    );
    expect(endingOf(gone, {...AT, phase: 'typing', typed: 9, length: 9}).reason).toBe(
      'Pane %3 is gone: its program ended just after the whole text was typed (the text may have run: a command that ends its shell, such as exit or kill $$, closes the pane).',
    );
    expect(tmux('no-server')).toBe('The tmux server at /tmp/s stopped while waiting.');
    expect(tmux('no-tmux')).toBe('tmux is no longer on PATH.');
    expect(endingOf(new PaneInMode('%3'), AT).reason).toMatch(/entered copy mode while waiting/);
    expect(endingOf(new Error('boom'), AT).reason).toBe('Internal error while waiting: boom');
  });
});

describe('waitedOf: a wait that ended with no dialog', () => {
  const base = {waitedMs: 1200, checks: 3, why: 'exit 0'};
  test('a fail pattern fails the job, naming the line; the event says fail-pattern', () => {
    const failed = {pattern: 'ERROR', line: '  ERROR: boom '};
    const r = waitedOf({...base, status: 'failed', match: 'ERROR', failed}, 'submitted');
    expect(r.event).toBe('fail-pattern');
    expect(r.failed).toBe(true);
    expect(r.waited).toMatchObject({
      state: 'failed',
      reason: 'The fail pattern /ERROR/ matched: ERROR: boom',
    });
  });

  test('done with its exit status; a timeout stopped by a stall says so', () => {
    const done = waitedOf({...base, status: 'done', exitCode: 0}, 'submitted');
    expect(done).toMatchObject({
      event: 'condition-met',
      failed: false,
      waited: {state: 'done', exitCode: 0},
    });
    const stalled = {kind: 'quiet', quietMs: 60_000, count: 1, sinceMs: 0} as never;
    const timeout = waitedOf({...base, status: 'timeout', stalled}, 'submitted');
    expect(timeout.event).toBe('wait-timeout');
    expect(timeout.waited.reason).toMatch(/^Stalled \(.*\): --on-stall cancel ended the wait\.$/);
  });
});
