import {expect, test} from 'vitest';
import {realClock} from '../../../src/base/clock.js';
import {waitUntil} from '../../../src/detect/wait-until.js';
import {PromptWatcher, StableWatcher} from '../../../src/detect/watchers.js';
import {FakeClock} from '../../helpers/fake-clock.js';
import {FakeTmux} from '../../helpers/fake-tmux.js';

const opts = {baselineKey: undefined, graceChecks: 0, ignore: [], shellPane: false};

test('a spinner times out at the deadline, never "stable" from a last-moment check', async () => {
  const tmux = new FakeTmux();
  const clock = new FakeClock();
  // The spinner redraws every 100 ms of virtual time: screens follow the clock, not calls.
  const start = clock.now();
  tmux.view = async () => {
    const frame = Math.floor((clock.now() - start) / 100);
    const rows = [`working ${'|/-\\'[frame % 4]} ${frame}`];
    return {
      rows,
      firstRow: 0,
      historySize: 0,
      historyLimit: 2000,
      height: 1,
      width: 80,
      cursorX: 0,
      cursorY: 0,
      dead: false,
      alternateOn: false,
      currentCommand: 'node',
    };
  };
  const result = await waitUntil(tmux, '%1', new StableWatcher(1, opts), {
    intervalMs: 100,
    timeoutMs: 1_050,
    clock,
    signal: new AbortController().signal,
  });
  expect(result.status).toBe('timeout');
  expect(clock.now() - start).toBe(1_050);
});

test('a quiet pane is done after the stable checks', async () => {
  const tmux = new FakeTmux();
  tmux.screens = ['a', 'b', 'b', 'b'];
  await tmux.pressKeys('%1', ['Enter']); // the scripted screens play after an Enter
  const clock = new FakeClock();
  const result = await waitUntil(tmux, '%1', new StableWatcher(2, opts), {
    intervalMs: 100,
    timeoutMs: 10_000,
    clock,
    signal: new AbortController().signal,
  });
  expect(result).toMatchObject({status: 'done', checks: 4});
});

test('a turn-end hook decides at once: the wake cuts the interval short and one look is enough', async () => {
  const tmux = new FakeTmux();
  tmux.screens = ['working', 'working'];
  await tmux.pressKeys('%1', ['Enter']);
  let fresh = false;
  const watcher = new PromptWatcher(
    () => false, // the screen never shows the idle prompt
    opts,
    2,
    {decisive: () => fresh},
  );
  const started = Date.now();
  const result = await waitUntil(tmux, '%1', watcher, {
    intervalMs: 60_000,
    timeoutMs: 600_000,
    clock: realClock,
    signal: AbortSignal.timeout(30_000),
    // The hook reports 50 ms into the first minute-long sleep.
    wake: (signal) =>
      new Promise<void>((resolve) => {
        const t = setTimeout(() => {
          fresh = true;
          resolve();
        }, 50);
        signal.addEventListener('abort', () => clearTimeout(t));
      }),
  });
  expect(result).toMatchObject({status: 'done', checks: 2});
  expect(Date.now() - started).toBeLessThan(30_000);
});
