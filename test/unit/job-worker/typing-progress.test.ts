// typingProgress: a job typing a long text says in its record how far it got, at most every
// 2 s, with about how long the rest takes at the pace so far; the typing never waits on it.
import {describe, expect, test} from 'vitest';
import {typingProgress} from '../../../src/job-worker/typing-progress.js';
import {FakeClock} from '../../helpers/fake-clock.js';

function world() {
  const clock = new FakeClock();
  const marks: unknown[] = [];
  const recorder = {mark: async (patch: unknown) => void marks.push(patch)};
  let counted = 0;
  const deps = {clock, recorder} as unknown as Parameters<typeof typingProgress>[0];
  const count = typingProgress(deps, 1_000, (n) => {
    counted += n;
  });
  return {clock, marks, count, counted: () => counted};
}

describe('typingProgress', () => {
  test('every 2 s: how many went out, and the rest at the pace so far', () => {
    const w = world();
    // 50 characters a second, one every 20 ms.
    for (let i = 0; i < 150; i++) {
      w.clock.time += 20;
      w.count(1);
    }
    expect(w.counted()).toBe(150);
    // 3 s of typing: one mark, at 2 s (100 typed; 900 left at 50 a second: 18 s).
    expect(w.marks).toEqual([{typed: 100, typingLeftMs: 18_000}]);
  });

  test('nothing said for the last character: the job has moved on by then', () => {
    const w = world();
    w.clock.time += 5_000;
    w.count(1_000);
    expect(w.marks).toEqual([]);
    expect(w.counted()).toBe(1_000);
  });
});
