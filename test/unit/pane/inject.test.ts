/**
 * injectLine, how nudge's own lines (a watcher's decision, a run's notice) go into a pane: the
 * pane's lock is queued for and the pane fenced only while the line is typed, the pane checked
 * first, the line typed and Enter pressed and its arrival read back; whatever happens, the
 * fence is dropped and the lock freed, in that order. A shell's one-line editor in memory
 * (test/helpers/fake-tmux.ts), a fake lock, virtual time.
 */
import {describe, expect, test} from 'vitest';
import {err, ok} from '../../../src/base/result.js';
import type {PaneLease} from '../../../src/locks/pane-lock.js';
import {PaneFailure} from '../../../src/pane/failures.js';
import {injectLine} from '../../../src/pane/inject.js';
import type {PaneMemory} from '../../../src/pane/memory.js';
import {OWN_LINE_WAITS} from '../../../src/pane/own-line.js';
import {FakeClock} from '../../helpers/fake-clock.js';
import {FakeTmux, fakeForeground} from '../../helpers/fake-tmux.js';

function world(lock: 'free' | 'taken' = 'free') {
  const tmux = new FakeTmux();
  const order: string[] = [];
  const lease: PaneLease = {
    signal: new AbortController().signal,
    assertHeld: () => {},
    release: async () => void order.push('lock released'),
  };
  const drop = tmux.dropFence.bind(tmux);
  tmux.dropFence = async (fence) => {
    order.push('fence dropped');
    return drop(fence);
  };
  const notes: string[] = [];
  const deps = {
    tmux,
    clock: new FakeClock(),
    note: async (event: string) => void notes.push(event),
    foreground: fakeForeground(() => ({kind: 'waiting-for-input', program: 'bash'})),
    paneMemory: {recall: async () => undefined, remember: async () => {}} as PaneMemory,
    lock: {
      acquire: async () =>
        lock === 'free' ? ok(lease) : err({reason: 'lock-timeout' as const, holder: 'job-ahead'}),
    },
    pid: 4242,
  };
  const inject = (line: string, serverPid = 42) =>
    injectLine(
      deps,
      '%1',
      line,
      {ticket: 'ticket-1', serverPid, enter: true, waits: OWN_LINE_WAITS.watcher},
      new AbortController().signal,
    );
  return {tmux, order, notes, inject};
}

describe('injectLine', () => {
  test('types the line and Enter under a fence, confirms it, then drops the fence and frees the lock', async () => {
    const w = world();
    expect(await w.inject('continue with step 2')).toBe('submitted');
    // The pane is a shell at its prompt: the line goes as a comment it does not run.
    expect(w.tmux.typed()).toBe('# continue with step 2\r');
    expect(w.tmux.fences).toEqual(['+%1 @nudge-fence-ticket-1', '-%1 @nudge-fence-ticket-1']);
    expect(w.order).toEqual(['fence dropped', 'lock released']);
  });

  test('a lock not had in time: one sentence naming the holder; nothing typed, nothing fenced', async () => {
    const w = world('taken');
    await expect(w.inject('continue')).rejects.toThrow(
      "Waited 10m00s for pane %1's lock (job job-ahead holds it); nothing was typed.",
    );
    expect(w.tmux.typed()).toBe('');
    expect(w.tmux.fences).toEqual([]);
  });

  test('a pane that fails its check (the server restarted): nothing typed, fence and lock let go', async () => {
    const w = world();
    const failure = await w.inject('continue', 41).catch((e: unknown) => e);
    expect(failure).toBeInstanceOf(PaneFailure);
    expect((failure as Error).message).toMatch(/The tmux server restarted/);
    expect(w.tmux.typed()).toBe('');
    expect(w.order).toEqual(['fence dropped', 'lock released']);
  });
});
