import {describe, expect, test} from 'vitest';
import {SlotsBusy, takeSlot, withLock} from '../../../src/locks/session-slots.js';
import {useTempDir} from '../../helpers/temp-dir.js';

describe('slots: a counting semaphore over lock files', () => {
  test('count slots can be held at once; the next waits until one is given back', async () => {
    const dir = useTempDir('nudge-slots-');
    const signal = new AbortController().signal;
    const far = Date.now() + 10_000;
    const a = await takeSlot(dir, 'k', 2, {deadlineMs: far, signal});
    const b = await takeSlot(dir, 'k', 2, {deadlineMs: far, signal});
    expect(new Set([a.index, b.index]).size).toBe(2);
    await expect(takeSlot(dir, 'k', 2, {deadlineMs: Date.now() + 100, signal})).rejects.toThrow(
      SlotsBusy,
    );
    const waiting = takeSlot(dir, 'k', 2, {deadlineMs: far, signal});
    await a.release();
    expect((await waiting).index).toBe(a.index);
    await b.release();
  });

  test('a wait for a slot ends when its signal does', async () => {
    const dir = useTempDir('nudge-slots-');
    const far = Date.now() + 10_000;
    const held = await takeSlot(dir, 'k', 1, {
      deadlineMs: far,
      signal: new AbortController().signal,
    });
    const stop = new AbortController();
    const waiting = takeSlot(dir, 'k', 1, {deadlineMs: far, signal: stop.signal});
    stop.abort();
    await expect(waiting).rejects.toThrow();
    await held.release();
  });

  test('withLock runs one holder at a time', async () => {
    const dir = useTempDir('nudge-slots-');
    const order: string[] = [];
    let inside = 0;
    const run = (name: string) =>
      withLock(dir, 'setup', async () => {
        inside++;
        expect(inside).toBe(1);
        order.push(name);
        await new Promise((r) => setTimeout(r, 30));
        inside--;
      });
    await Promise.all([run('a'), run('b'), run('c')]);
    expect(order.sort()).toEqual(['a', 'b', 'c']);
  });
});
