import type {Fence} from '../tmux/fence.js';
import type {Tmux} from '../tmux/tmux.js';
import type {PaneLease} from './pane-lock.js';

/** A pane lock held, and the pane marked in the tmux server as its holder's (src/tmux/fence.ts):
 * keys sent through `tmux.fenced(() => lease.fence)` land only while the mark is ours. */
export interface FencedLease extends PaneLease {
  readonly fence: Fence;
}

/**
 * Mark `pane` as held by `token` under the lock just taken; the release removes the mark
 * first, then frees the lock. If the mark cannot be set, the lock is freed and the error
 * thrown: no key goes to a pane nudge could not fence.
 */
export async function fenceLease(
  tmux: Pick<Tmux, 'takeFence' | 'dropFence'>,
  lease: PaneLease,
  pane: string,
  token: string,
): Promise<FencedLease> {
  let fence: Fence;
  try {
    fence = await tmux.takeFence(pane, token);
  } catch (error) {
    await lease.release();
    throw error;
  }
  return {
    fence,
    signal: lease.signal,
    assertHeld: () => lease.assertHeld(),
    release: async () => {
      await tmux.dropFence(fence);
      await lease.release();
    },
  };
}
