import {describe, expect, test} from 'vitest';
import type {HookMark, HookMarkSource} from '../../../src/agents/hook-marks.js';
import {watchHookMark} from '../../../src/detect/hook-watch.js';

/** Marks set by the test: each set is a file event that wakes a waiting `changed`. */
function marks() {
  let mark: HookMark | undefined;
  let version = 0;
  const wakers = new Set<() => void>();
  const source: HookMarkSource = {
    read: async () => mark,
    readNeeds: async () => undefined,
    version: () => version,
    changed: (signal, _backstop, since) =>
      new Promise<void>((resolve, reject) => {
        if (version !== since) return resolve();
        const wake = () => {
          wakers.delete(wake);
          resolve();
        };
        wakers.add(wake);
        signal.addEventListener('abort', () => reject(new Error('stopped')), {once: true});
      }),
  };
  const set = (m: HookMark) => {
    mark = m;
    version++;
    for (const wake of [...wakers]) wake();
  };
  return {source, set};
}

describe("following a pane's turn-end hook mark", () => {
  test('a mark older than the start does not count; a new one does, once, and wakes the wait', async () => {
    const m = marks();
    m.set({source: 'claude-stop', atMs: 500, pane: '%1'});
    const told: HookMark[] = [];
    const w = watchHookMark(m.source, '%1', 1_000, new AbortController().signal, (mark) =>
      told.push(mark),
    );
    await new Promise((r) => setTimeout(r, 10));
    expect(w.fresh()).toBe(false);
    const woken = w.wake(new AbortController().signal);
    m.set({source: 'claude-stop', atMs: 2_000, pane: '%1'});
    await woken;
    expect(w.fresh()).toBe(true);
    expect(told).toEqual([{source: 'claude-stop', atMs: 2_000, pane: '%1'}]);
    w.stop();
  });

  test('stop ends the following: a later mark is not taken', async () => {
    const m = marks();
    const w = watchHookMark(m.source, '%1', 1_000, new AbortController().signal, () => {});
    w.stop();
    await new Promise((r) => setTimeout(r, 10));
    m.set({source: 'claude-stop', atMs: 2_000, pane: '%1'});
    await new Promise((r) => setTimeout(r, 10));
    expect(w.fresh()).toBe(false);
  });
});
