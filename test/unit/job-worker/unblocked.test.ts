/**
 * untilAnswered: after a job ended `blocked`, the pane's blocked state is cleared once the
 * person answered (the dialog gone, the composer back, two looks in a row), unless another job
 * took the pane; the job records `unblocked`. Captured Claude Code screens, virtual time.
 */
import {describe, expect, test} from 'vitest';
import type {Profile} from '../../../src/agents/profile.js';
import {PROFILES} from '../../../src/agents/registry.js';
import {untilAnswered} from '../../../src/job-worker/unblocked.js';
import type {QueueEntry} from '../../../src/locks/pane-queue.js';
import type {PaneView} from '../../../src/tmux/view.js';
import {FakeClock} from '../../helpers/fake-clock.js';
import {onePaneMarks} from '../../helpers/pane-marks.js';
import {capturedScreen} from '../../helpers/pane-views.js';

const dialog = capturedScreen('claude-permission-bash');
const idle = capturedScreen('claude-idle-empty');

function world(views: PaneView[], entries: Partial<QueueEntry>[] = []) {
  const {marks, tmux, status, server} = onePaneMarks({
    '@nudge-state': 'blocked',
    '@nudge-job': 'job-1',
    '@nudge-needs': 'Do you want to proceed?',
  });
  const recorded: unknown[] = [];
  const deps = {
    tmux: {...tmux, view: async () => views.shift() ?? idle},
    clock: new FakeClock(),
    lock: {
      withQueue: async <T>(fn: (e: QueueEntry[]) => Promise<T>) => fn(entries as QueueEntry[]),
    },
    record: async (data: unknown) => void recorded.push(data),
  };
  const at = {pane: '%1', jobId: 'job-1', profile: PROFILES.claude as Profile};
  const run = () =>
    untilAnswered(deps, at, {intervalMs: 1_000, forMs: 60_000}, new AbortController().signal);
  server.set('@nudge-status', '#[fg=red,bold]blocked main:0.0#[default]');
  return {marks, recorded, run, status};
}

describe('untilAnswered', () => {
  test('the dialog answered: blocked and its question cleared, unblocked recorded', async () => {
    const w = world([dialog, dialog, idle, idle]);
    expect(await w.run()).toBe(true);
    expect(w.marks.get('@nudge-state')).toBeUndefined();
    expect(w.marks.get('@nudge-needs')).toBeUndefined();
    // The status bar stops naming it too.
    expect(w.status()).toBeUndefined();
    expect(w.recorded).toEqual([{pane: '%1', waitedMs: 4_000}]);
  });

  test('a dialog still there: nothing cleared until the watch ends', async () => {
    const w = world(Array.from({length: 100}, () => dialog));
    expect(await w.run()).toBe(false);
    expect(w.marks.get('@nudge-state')).toBe('blocked');
    expect(w.status()).toBe('#[fg=red,bold]blocked main:0.0#[default]');
  });

  test('another job on the pane (or a visit that cleared it): left as it is', async () => {
    const taken = world([idle, idle], [{jobId: 'job-2', taken: true}]);
    expect(await taken.run()).toBe(false);
    expect(taken.marks.get('@nudge-state')).toBe('blocked');
    const visited = world([idle, idle]);
    visited.marks.set('@nudge-state', 'typing');
    expect(await visited.run()).toBe(false);
    expect(visited.recorded).toEqual([]);
  });
});
