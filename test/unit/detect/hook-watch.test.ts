import {describe, expect, test} from 'vitest';
import type {HookMark, HookMarkSource, RefusedMark} from '../../../src/agents/hook-marks.js';
import {watchHookMark} from '../../../src/detect/hook-watch.js';

/** Marks set by the test: each set is a file event that wakes a waiting `changed`. */
function marks() {
  let mark: HookMark | undefined;
  let refused: RefusedMark | undefined;
  let version = 0;
  const wakers = new Set<() => void>();
  const source: HookMarkSource = {
    read: async () => mark,
    readNeeds: async () => undefined,
    readRefused: async () => refused,
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
  const refuse = (r: RefusedMark) => {
    refused = r;
    version++;
    for (const wake of [...wakers]) wake();
  };
  return {source, set, refuse};
}

/** Follow pane %1's marks from 1000 ms on; what was told, and a promise of the first refusal. */
function follow(m: ReturnType<typeof marks>) {
  const told: HookMark[] = [];
  const refusals: RefusedMark[] = [];
  let refused: (r: RefusedMark) => void = () => {};
  const firstRefusal = new Promise<RefusedMark>((r) => {
    refused = r;
  });
  const w = watchHookMark(
    m.source,
    '%1',
    1_000,
    new AbortController().signal,
    (mark) => told.push(mark),
    (r) => {
      refusals.push(r);
      refused(r);
    },
  );
  return {w, told, refusals, firstRefusal};
}

describe("following a pane's turn-end hook mark", () => {
  test('a mark older than the start does not count; a new one does, once, and wakes the wait', async () => {
    const m = marks();
    m.set({source: 'claude-stop', atMs: 500, pane: '%1'});
    const {w, told} = follow(m);
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
    const {w} = follow(m);
    w.stop();
    await new Promise((r) => setTimeout(r, 10));
    m.set({source: 'claude-stop', atMs: 2_000, pane: '%1'});
    await new Promise((r) => setTimeout(r, 10));
    expect(w.fresh()).toBe(false);
  });

  test('a hook that claimed the pane and could not prove it marks nothing: told once, the wait goes on', async () => {
    const m = marks();
    const {w, refusals, firstRefusal} = follow(m);
    const refused = {source: 'codex-notify', claimed: '%1', why: 'a shared server', atMs: 2_000};
    m.refuse(refused);
    expect(await firstRefusal).toEqual(refused);
    expect(w.fresh()).toBe(false);
    const woken = w.wake(new AbortController().signal);
    m.set({source: 'codex-notify', atMs: 3_000, pane: '%1'});
    await woken;
    expect(refusals).toHaveLength(1);
    w.stop();
  });
});
