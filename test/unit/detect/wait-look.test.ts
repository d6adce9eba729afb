// What a wait's two loops share: one look at the pane (counted, reaching back when output
// scrolled past), the result it ends with, and the stall watchdog fed with each look.
import {describe, expect, test} from 'vitest';
import {StallWatch} from '../../../src/detect/stall.js';
import {
  ending,
  type LoopState,
  PENDING,
  stallEnds,
  takeView,
} from '../../../src/detect/wait-look.js';
import type {Watcher} from '../../../src/detect/watchers.js';
import {ScriptedPane, VirtualClock} from '../../helpers/virtual-time.js';

const fresh = (): LoopState => ({checks: 0, verdict: PENDING, lastScreen: ''});

describe('takeView', () => {
  test('counts the look and keeps its visible text', async () => {
    const pane = new ScriptedPane(new VirtualClock(), ['$ make', 'done'], 3);
    const state = fresh();
    const watcher: Watcher = {historyRows: 0, observe: () => PENDING};
    await takeView(pane.tmux(), pane.id, watcher, state, undefined);
    expect(state.checks).toBe(1);
    expect(state.lastScreen).toContain('done');
  });

  test('reaches back further when the watcher says rows scrolled past, then prepares once', async () => {
    const pane = new ScriptedPane(new VirtualClock(), ['a', 'b', 'c', 'd', 'e', 'f'], 2);
    const asked: number[] = [];
    const tmux = pane.tmux();
    const view = tmux.view.bind(tmux);
    tmux.view = async (id, rows) => {
      asked.push(rows);
      return view(id, rows);
    };
    let prepared = 0;
    const watcher: Watcher = {
      historyRows: 1,
      missingRows: (v) => (v.firstRow > 2 ? 2 : 0),
      prepare: async () => {
        prepared++;
      },
      observe: () => PENDING,
    };
    const state = fresh();
    const seen = await takeView(tmux, pane.id, watcher, state, undefined);
    expect(asked).toEqual([1, 3]);
    expect(seen.firstRow).toBe(1);
    expect(prepared).toBe(1);
    expect(state.checks).toBe(1);
  });
});

test('ending carries the state, and the stall only when there was one', () => {
  const state = fresh();
  state.checks = 4;
  expect(ending('timeout', state, 'events')).toEqual({
    status: 'timeout',
    verdict: PENDING,
    checks: 4,
    lastScreen: '',
    watchedBy: 'events',
  });
  state.stalled = {n: 1, sinceMs: 0, kind: 'no-change'} as unknown as LoopState['stalled'];
  expect(ending('timeout', state, 'polling')).toHaveProperty('stalled', state.stalled);
});

describe('stallEnds', () => {
  const pane = new ScriptedPane(new VirtualClock(), ['$ work'], 3);
  const opts = {
    intervalMs: 1_000,
    timeoutMs: 60_000,
    clock: pane.clock,
    signal: AbortSignal.abort(),
  };

  test('without the watchdog, never', async () => {
    expect(await stallEnds(opts, pane.view(), fresh(), undefined)).toBe(false);
  });

  test('a stall the hook answers with end ends the wait, saying why', async () => {
    const state = fresh();
    const start = pane.clock.now();
    const watch = new StallWatch(2_000, [], [], start);
    const hook = {
      watch,
      dialogIn: () => false,
      busyIn: () => undefined,
      began: async () => 'end' as const,
      over: async () => {},
    };
    expect(await stallEnds({...opts, stall: hook}, pane.view(), state, undefined)).toBe(false);
    pane.clock.time = start + 5_000;
    expect(await stallEnds({...opts, stall: hook}, pane.view(), state, undefined)).toBe(true);
    expect(state.stalled).toBeDefined();
    expect(state.verdict).toMatchObject({
      status: 'pending',
      why: expect.stringMatching(/^stalled: /),
    });
  });
});
