// The two clocks (issue 62, item 3): durations on the monotonic one, counted from the wall time
// the process started; the wall clock only shown or shared.
import {describe, expect, test} from 'vitest';
import {realClock, wallOf} from '../../../src/base/clock.js';
import {FakeClock} from '../../helpers/fake-clock.js';

describe('the clocks', () => {
  test('now() starts at the wall time the process started and never runs backwards', () => {
    expect(Math.abs(realClock.now() - realClock.wall())).toBeLessThan(1_000);
    let last = realClock.now();
    for (let i = 0; i < 10_000; i++) {
      const t = realClock.now();
      expect(t).toBeGreaterThanOrEqual(last);
      last = t;
    }
  });

  test('wallOf: a moment on now() as the wall clock shows it, once the two have drifted apart', () => {
    const clock = {
      now: () => 5_000,
      wall: () => 3_605_000, // the wall clock stepped an hour ahead
      sleep: new FakeClock().sleep,
    };
    expect(wallOf(clock, 4_000)).toBe(3_604_000);
    expect(wallOf(new FakeClock(100), 40)).toBe(40);
  });
});
