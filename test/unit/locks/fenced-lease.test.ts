/**
 * A lock and its fence in the tmux server go together: the fence is dropped before the lock is
 * freed (a key sent in between would land under no fence), and a fence that cannot be set
 * frees the lock at once. Pure logic: a fake tmux and lease record the order of calls.
 */
import {describe, expect, test} from 'vitest';
import {fenceLease} from '../../../src/locks/fenced-lease.js';
import type {PaneLease} from '../../../src/locks/pane-lock.js';
import type {Fence} from '../../../src/tmux/fence.js';

function world(takeFails = false) {
  const calls: string[] = [];
  const lease: PaneLease = {
    signal: new AbortController().signal,
    assertHeld: () => void calls.push('assertHeld'),
    release: async () => void calls.push('release lock'),
  };
  const tmux = {
    takeFence: async (pane: string, token: string): Promise<Fence> => {
      calls.push(`take fence ${pane} ${token}`);
      if (takeFails) throw new Error('no server');
      return {pane, option: `@nudge-fence-${token}`};
    },
    dropFence: async (fence: Fence) => void calls.push(`drop fence ${fence.option}`),
  };
  return {calls, lease, tmux};
}

describe('fenceLease', () => {
  test('marks the pane with the token, and on release drops the mark before the lock', async () => {
    const w = world();
    const fenced = await fenceLease(w.tmux, w.lease, '%3', 'job-1');
    expect(fenced.fence).toEqual({pane: '%3', option: '@nudge-fence-job-1'});
    expect(fenced.signal).toBe(w.lease.signal);
    fenced.assertHeld();
    await fenced.release();
    expect(w.calls).toEqual([
      'take fence %3 job-1',
      'assertHeld',
      'drop fence @nudge-fence-job-1',
      'release lock',
    ]);
  });

  test('a fence that cannot be set frees the lock and throws: no key goes to an unfenced pane', async () => {
    const w = world(true);
    await expect(fenceLease(w.tmux, w.lease, '%3', 'job-1')).rejects.toThrow('no server');
    expect(w.calls).toEqual(['take fence %3 job-1', 'release lock']);
  });
});
