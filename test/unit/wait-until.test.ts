import {expect, test} from 'vitest';
import {waitUntil} from '../../src/wait-until.js';
import {StableWatcher} from '../../src/watch.js';
import {FakeClock} from '../helpers/fake-clock.js';
import {FakeTmux} from '../helpers/fake-tmux.js';

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
  const result = await waitUntil(tmux, '%1', new StableWatcher(2, opts), {
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
  const result = await waitUntil(tmux, '%1', new StableWatcher(3, opts), {
    intervalMs: 100,
    timeoutMs: 10_000,
    clock,
    signal: new AbortController().signal,
  });
  expect(result).toMatchObject({status: 'done', checks: 4});
});
