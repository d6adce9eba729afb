import {describe, expect, test} from 'vitest';
import type {FoundDialog} from '../../../src/agents/dialogs.js';
import {LimitWaits} from '../../../src/job-worker/limit.js';
import type {JobRecorder} from '../../../src/jobs/recorder.js';
import type {Change} from '../../../src/notify/tell.js';
import {FakeClock} from '../../helpers/fake-clock.js';

const HOUR = 3_600_000;

function world(onLimit: 'stop' | 'wait') {
  const clock = new FakeClock(0);
  const events: [string, unknown][] = [];
  const told: Change[] = [];
  const recorder = {
    event: async (name: string, data: unknown) => {
      events.push([name, data]);
    },
  } as unknown as JobRecorder;
  const limits = new LimitWaits(
    {clock, recorder, tell: async (c: Change) => void told.push(c)},
    {onLimit, limitMarginMs: 60_000},
  );
  return {clock, events, told, limits};
}

const limit = (resetsAt: number | undefined): FoundDialog =>
  ({
    kind: 'limit',
    question: "You've hit your limit",
    detail: [],
    resets: '3pm',
    resetsAt,
    denyKeys: [],
  }) as FoundDialog;

describe('a usage limit, waited out (--on-limit wait)', () => {
  test('only with --on-limit wait, a reset time the screen said, and fewer than ten so far', async () => {
    expect(world('stop').limits.waitsOut(limit(HOUR))).toBe(false);
    expect(world('wait').limits.waitsOut(limit(undefined))).toBe(false);
    const w = world('wait');
    expect(w.limits.waitsOut({...limit(HOUR), kind: 'permission'} as FoundDialog)).toBe(false);
    for (let i = 0; i < 10; i++) {
      expect(w.limits.waitsOut(limit(w.clock.now() + HOUR))).toBe(true);
      await w.limits.wait('%1', limit(w.clock.now() + HOUR), new AbortController().signal);
    }
    expect(w.limits.waitsOut(limit(w.clock.now() + HOUR))).toBe(false);
  });

  test('until the reset and the margin, on the wall clock; recorded and told once', async () => {
    const w = world('wait');
    await w.limits.wait('%1', limit(HOUR), new AbortController().signal);
    expect(w.clock.now()).toBe(HOUR + 60_000);
    expect(w.events).toEqual([
      [
        'limit',
        {
          pane: '%1',
          question: "You've hit your limit",
          resets: '3pm',
          resetsAt: new Date(HOUR).toISOString(),
          resumesAt: new Date(HOUR + 60_000).toISOString(),
        },
      ],
    ]);
    expect(w.told).toMatchObject([{event: 'limit', state: 'waiting', pane: '%1', kind: 'limit'}]);
  });

  test('a cancel stops the wait', async () => {
    const w = world('wait');
    const stop = new AbortController();
    stop.abort();
    await expect(w.limits.wait('%1', limit(HOUR), stop.signal)).rejects.toThrow();
  });
});
