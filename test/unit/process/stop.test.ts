// The one way nudge stops a process: SIGTERM, the grace period, then SIGKILL.
import {describe, expect, test} from 'vitest';
import {stopGracefully} from '../../../src/process/stop.js';
import {FakeClock} from '../../helpers/fake-clock.js';

function target(goesAfterMs: number | undefined, clock: FakeClock, running = true) {
  const sent: string[] = [];
  const start = clock.now();
  return {
    sent,
    send: (signal: NodeJS.Signals) => {
      if (!running) return false;
      sent.push(signal);
      return true;
    },
    alive: () => goesAfterMs === undefined || clock.now() - start < goesAfterMs,
  };
}

describe('stopGracefully', () => {
  test('a process that goes after SIGTERM is not killed', async () => {
    const clock = new FakeClock();
    const t = target(300, clock);
    expect(await stopGracefully({...t, clock, graceMs: 2_000})).toBe('terminated');
    expect(t.sent).toEqual(['SIGTERM']);
  });

  test('one that stays is killed once the grace period is over, not before', async () => {
    const clock = new FakeClock();
    const t = target(undefined, clock);
    const start = clock.now();
    expect(await stopGracefully({...t, clock, graceMs: 2_000})).toBe('killed');
    expect(t.sent).toEqual(['SIGTERM', 'SIGKILL']);
    expect(clock.now() - start).toBeGreaterThanOrEqual(2_000);
  });

  test("the caller's own sign of the end counts as stopped", async () => {
    const clock = new FakeClock();
    const t = target(undefined, clock);
    let polls = 0;
    const done = async () => ++polls >= 3;
    expect(await stopGracefully({...t, clock, graceMs: 5_000, done})).toBe('terminated');
    expect(t.sent).toEqual(['SIGTERM']);
  });

  test('nothing running: no signal, not-running', async () => {
    const clock = new FakeClock();
    const t = target(undefined, clock, false);
    expect(await stopGracefully({...t, clock, graceMs: 1_000})).toBe('not-running');
    expect(t.sent).toEqual([]);
  });
});
