/**
 * The pane's state as tmux shows it: which option each step sets, the count of jobs waiting,
 * an ending kept (and not over the next job's state), a cancel cleared. A fake tmux records
 * the marks; the queue is a list of entries.
 */
import {describe, expect, test} from 'vitest';
import type {JobRecorder} from '../../../src/jobs/recorder.js';
import type {QueueEntry} from '../../../src/locks/pane-queue.js';
import {
  paneEndingOf,
  paneStateOf,
  shortNeeds,
  showingPaneState,
  waitingBehind,
} from '../../../src/status-bar/pane-status.js';
import {onePaneMarks} from '../../helpers/pane-marks.js';

const at = '2026-11-26T00:00:00.000Z';

function world(entries: QueueEntry[]) {
  const {marks, tmux, status} = onePaneMarks();
  const recorded: string[] = [];
  const recorder: JobRecorder = {
    transition: async (state) => void recorded.push(state),
    event: async (name) => void recorded.push(name),
    mark: async (patch) => void recorded.push(`mark:${Object.keys(patch).join(',')}`),
    end: async (outcome) => void recorded.push(outcome.state),
  };
  const shown = showingPaneState(recorder, '%1', 'job-a', {
    tmux,
    lock: {
      entries: async () => entries,
      withQueue: async (fn) => fn(entries),
    },
  });
  return {marks, recorded, shown, status};
}

describe('pane status', () => {
  test('the states and endings as the pane shows them', () => {
    expect(paneStateOf('locked')).toBe('typing');
    expect(paneStateOf('waiting')).toBe('waiting');
    // The job's own word, as jobs and top say it.
    expect(paneEndingOf('timeout')).toBe('timeout');
    expect(paneEndingOf('lost')).toBe('lost');
    expect(paneEndingOf('blocked')).toBe('blocked');
    expect(paneEndingOf('cancelled')).toBeUndefined();
    expect(shortNeeds('Do you\nwant   to proceed?')).toBe('Do you want to proceed?');
    expect(shortNeeds('x'.repeat(80))).toHaveLength(60);
    expect(
      waitingBehind(
        [
          {jobId: 'job-a', createdAt: at, taken: true},
          {jobId: 'job-b', createdAt: at},
          {jobId: 'job-c', createdAt: at, dropped: true},
        ],
        'job-a',
      ),
    ).toBe(1);
  });

  test('a step is recorded first, then shown with the count of jobs behind', async () => {
    const w = world([
      {jobId: 'job-a', createdAt: at, taken: true},
      {jobId: 'job-b', createdAt: at},
    ]);
    await w.shown.transition('typing', {
      profile: 'shell',
      profileReason: '',
      program: 'bash',
      chars: 1,
      until: '',
    });
    expect(w.recorded).toEqual(['typing']);
    expect(Object.fromEntries(w.marks)).toEqual({
      '@nudge-state': 'typing',
      '@nudge-job': 'job-a',
      '@nudge-queue': '1',
    });
  });

  test('blocked: the question on the pane; with no job left, no count', async () => {
    const w = world([]);
    await w.shown.end({
      state: 'blocked',
      notified: false,
      blocked: {kind: 'permission', question: 'Do you want to proceed?', pane: '%1', detail: []},
    });
    expect(Object.fromEntries(w.marks)).toEqual({
      '@nudge-state': 'blocked',
      '@nudge-job': 'job-a',
      '@nudge-needs': 'Do you want to proceed?',
    });
  });

  test('an ending never overwrites the state of the job that has the pane now', async () => {
    const w = world([{jobId: 'job-b', createdAt: at, taken: true}]);
    w.marks.set('@nudge-state', 'typing');
    w.marks.set('@nudge-job', 'job-b');
    await w.shown.end({state: 'done', notified: true});
    expect(Object.fromEntries(w.marks)).toEqual({'@nudge-state': 'typing', '@nudge-job': 'job-b'});
  });

  test('a cancelled job with nothing behind it clears the pane', async () => {
    const w = world([]);
    w.marks.set('@nudge-state', 'waiting');
    w.marks.set('@nudge-job', 'job-a');
    await w.shown.end({state: 'cancelled', notified: false});
    expect(w.marks.size).toBe(0);
  });

  test('waiting for the person (a draft, a half line) shows as such, and typing again after', async () => {
    const w = world([{jobId: 'job-a', createdAt: at, taken: true}]);
    await w.shown.event('waiting-for-draft', {pane: '%1', chars: 4});
    expect(w.marks.get('@nudge-state')).toBe('waiting-for-you');
    expect(w.marks.get('@nudge-needs')).toBe('your draft in the input line (send or clear it)');
    await w.shown.event('person-done', {pane: '%1'});
    expect(w.marks.get('@nudge-state')).toBe('typing');
    expect(w.marks.has('@nudge-needs')).toBe(false);
    expect(w.recorded).toEqual([
      'waiting-for-draft',
      'mark:waitingForYou',
      'person-done',
      'mark:waitingForYou',
    ]);
  });

  test("the server's segment (@nudge-status) follows every step: at work, the ending, cleared", async () => {
    const w = world([{jobId: 'job-a', createdAt: at, taken: true}]);
    expect(w.status()).toBeUndefined();
    await w.shown.transition('waiting', {until: 'exit', intervalMs: 1_000});
    expect(w.status()).toBe('1 working');
    await w.shown.mark({stalled: {kind: 'quiet', since: at, count: 1}});
    expect(w.status()).toBe('#[fg=magenta,bold]stalled main:0.0#[default]');
    const ended = world([]);
    await ended.shown.end({state: 'done', notified: true});
    expect(ended.status()).toBe('#[fg=green]done main:0.0#[default]');
    const cancelled = world([]);
    await cancelled.shown.transition('waiting', {until: 'exit', intervalMs: 1_000});
    await cancelled.shown.end({state: 'cancelled', notified: false});
    expect(cancelled.status()).toBeUndefined();
  });
});
