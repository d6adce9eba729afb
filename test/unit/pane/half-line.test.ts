import {describe, expect, test} from 'vitest';
import {PROFILES} from '../../../src/agents/registry.js';
import {leaveLine, waitOutHalfLine} from '../../../src/pane/half-line.js';
import type {PaneIo} from '../../../src/pane/keys.js';
import {FakeClock} from '../../helpers/fake-clock.js';
import {FakeTmux} from '../../helpers/fake-tmux.js';

function io(tmux: FakeTmux) {
  const notes: string[] = [];
  const value: PaneIo = {
    tmux,
    clock: new FakeClock(),
    note: async (event) => void notes.push(event),
    guard: () => {},
  };
  return {io: value, notes};
}

describe('a half line a cancelled job could not clear', () => {
  test('a shell clears it (its clearing keys); a program nudge has no profile for is marked', async () => {
    const tmux = new FakeTmux();
    tmux.input = 'half typ';
    const shell = io(tmux);
    expect(await leaveLine(shell.io, '%1', 'J1', PROFILES.shell, 8)).toBe(true);
    expect(tmux.input).toBe('');
    expect(await tmux.paneMark('%1', '@nudge-half-line')).toBeUndefined();
    const raw = new FakeTmux();
    expect(await leaveLine(io(raw).io, '%1', 'J1', PROFILES.raw, 8)).toBe(false);
    expect(await raw.paneMark('%1', '@nudge-half-line')).toMatch(/^J1 8 \d+,\d+$/);
  });

  test('the next line waits until the person deals with it, or fails after --draft-wait typing nothing', async () => {
    const tmux = new FakeTmux();
    await leaveLine(io(tmux).io, '%1', 'J1', PROFILES.raw, 8);
    const w = io(tmux);
    await expect(waitOutHalfLine(w.io, '%1', 1_000, new AbortController().signal)).rejects.toThrow(
      /A cancelled job \(J1\) left 8 characters in pane %1's input line/,
    );
    expect(w.notes).toEqual(['waiting-for-half-line']);
    expect(tmux.typed()).toBe('');
  });

  test('no mark: nothing to wait for', async () => {
    const w = io(new FakeTmux());
    await waitOutHalfLine(w.io, '%1', 1_000, new AbortController().signal);
    expect(w.notes).toEqual([]);
  });
});
