import {describe, expect, test} from 'vitest';
import {PROFILES} from '../../../src/agents/registry.js';
import {clearLine, type PaneIo, pressGroups, typeText} from '../../../src/pane/keys.js';
import {FakeClock} from '../../helpers/fake-clock.js';
import {FakeTmux} from '../../helpers/fake-tmux.js';

function io(guard: () => void = () => {}) {
  const tmux = new FakeTmux();
  const clock = new FakeClock(0);
  const value: PaneIo = {tmux, clock, note: async () => {}, guard};
  return {tmux, clock, io: value};
}
const go = () => new AbortController().signal;

describe('keys into a pane', () => {
  test('typed one key event a character, paced from a fixed schedule; a newline is Enter after its delay', async () => {
    const w = io();
    let count = 0;
    await typeText(
      w.io,
      '%1',
      'ab\nc',
      {
        typeDelayMs: 20,
        enterDelayMs: 500,
        typed: (n) => {
          count += n;
        },
      },
      go(),
    );
    expect(w.tmux.calls.filter((c) => c[0] !== 'view')).toEqual([
      ['type', 'a'],
      ['type', 'b'],
      ['keys', 'Enter'],
      ['type', 'c'],
    ]);
    expect(count).toBe(4);
    expect(w.clock.now()).toBe(20 + 500);
  });

  test('a type delay of 0: each line in one call', async () => {
    const w = io();
    await typeText(w.io, '%1', 'hello world', {typeDelayMs: 0, enterDelayMs: 0}, go());
    expect(w.tmux.calls).toEqual([['type', 'hello world']]);
  });

  test('the guard is asked before every key: a lost lease stops the next one', async () => {
    let left = 2;
    const w = io(() => {
      if (left-- <= 0) throw new Error('lease lost');
    });
    await expect(
      typeText(w.io, '%1', 'abcd', {typeDelayMs: 10, enterDelayMs: 0}, go()),
    ).rejects.toThrow('lease lost');
    expect(w.tmux.typed()).toBe('ab');
  });

  test('clearing while the agent is busy leaves out the keys that would cancel its turn (Escape)', async () => {
    const busy = io();
    await clearLine(busy.io, '%1', PROFILES.claude!, go(), true);
    expect(busy.tmux.calls.flat()).not.toContain('Escape');
    const idle = io();
    await pressGroups(idle.io, '%1', [['Escape'], ['C-u']], go());
    expect(idle.tmux.calls).toEqual([
      ['keys', 'Escape'],
      ['keys', 'C-u'],
    ]);
    // A program that times Escape apart from what follows gets longer after it.
    expect(idle.clock.now()).toBe(250 + 60);
  });
});
