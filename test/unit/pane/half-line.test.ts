// A half line (issues 29 and 62): every line is marked before its first key, so a typer that
// dies mid-line leaves the mark; the next line waits for the person or types alone.
import {describe, expect, test} from 'vitest';
import {PROFILES} from '../../../src/agents/registry.js';
import {leaveLine, lineEnded, markTyping, waitOutHalfLine} from '../../../src/pane/half-line.js';
import type {PaneIo} from '../../../src/pane/keys.js';
import {FakeClock} from '../../helpers/fake-clock.js';
import {FakeTmux} from '../../helpers/fake-tmux.js';

const OPTION = '@nudge-half-line';
const never = new AbortController().signal;

function io(tmux: FakeTmux, held = true) {
  const notes: string[] = [];
  const value: PaneIo = {
    tmux,
    clock: new FakeClock(),
    note: async (event) => void notes.push(event),
    guard: () => {
      if (!held) throw new Error('the lock was lost');
    },
  };
  return {io: value, notes};
}

/** J1 typed `chars` and its worker died before Enter: only the write-ahead mark tells. */
async function diedTyping(tmux: FakeTmux, chars: string) {
  await markTyping(io(tmux).io, '%1', 'J1');
  await tmux.typeLiteral('%1', chars);
}

describe('a half line', () => {
  test('a cancelled job: a shell clears it (its clearing keys) and the mark goes; a program nudge has no profile for keeps it', async () => {
    const tmux = new FakeTmux();
    await diedTyping(tmux, 'half typ');
    await lineEnded(io(tmux).io, '%1', 'J1', 8, 'cancelled');
    expect(await leaveLine(io(tmux).io, '%1', 'J1', PROFILES.shell, 8)).toBe(true);
    expect(tmux.input).toBe('');
    expect(await tmux.paneMark('%1', OPTION)).toBeUndefined();
    const raw = new FakeTmux();
    await diedTyping(raw, 'half typ');
    await lineEnded(io(raw).io, '%1', 'J1', 8, 'cancelled');
    expect(await leaveLine(io(raw).io, '%1', 'J1', PROFILES.raw, 8)).toBe(false);
    expect(await raw.paneMark('%1', OPTION)).toMatch(/^J1 8 \d+,\d+ cancelled$/);
  });

  test('the next line waits until the person deals with it, or fails after --draft-wait typing nothing', async () => {
    const tmux = new FakeTmux();
    await diedTyping(tmux, 'half typ');
    await lineEnded(io(tmux).io, '%1', 'J1', 8, 'cancelled');
    const w = io(tmux);
    await expect(waitOutHalfLine(w.io, '%1', 'J2', 1_000, never)).rejects.toThrow(
      /^A cancelled job \(J1\) left 8 characters in pane %1's input line, which nudge cannot clear/,
    );
    expect(w.notes).toEqual(['waiting-for-half-line']);
    expect(tmux.typed()).toBe('half typ');
  });

  test('the mark is where the cursor comes to rest: an echo that trails the last key is not the person clearing the line', async () => {
    const tmux = new FakeTmux();
    await diedTyping(tmux, 'half ty');
    // The last key's echo arrives after the first look (a loaded machine's tty).
    const view = tmux.view.bind(tmux);
    let looks = 0;
    tmux.view = async () => {
      const seen = await view();
      if (++looks === 1) await tmux.typeLiteral('%1', 'p');
      return seen;
    };
    await lineEnded(io(tmux).io, '%1', 'J1', 8, 'cancelled');
    const w = io(tmux);
    await expect(waitOutHalfLine(w.io, '%1', 'J2', 1_000, never)).rejects.toThrow(
      /^A cancelled job \(J1\) left 8 characters/,
    );
    expect(w.notes).toEqual(['waiting-for-half-line']);
  });

  test('a job that failed while typing says so', async () => {
    const tmux = new FakeTmux();
    await diedTyping(tmux, 'abc');
    await lineEnded(io(tmux).io, '%1', 'J1', 3, 'failed');
    await expect(waitOutHalfLine(io(tmux).io, '%1', 'J2', 1_000, never)).rejects.toThrow(
      /^A job that failed while typing \(J1\) left 3 characters in pane %1's input line without its Enter/,
    );
  });

  test('a typer killed mid-line (its mark still says typing): the next line waits for the person; their clearing it lets it type', async () => {
    const tmux = new FakeTmux();
    await diedTyping(tmux, 'xxxxxxxx');
    const w = io(tmux);
    await expect(waitOutHalfLine(w.io, '%1', 'J2', 1_000, never)).rejects.toThrow(
      /^A job \(J1\) stopped while typing \(its worker or waiter ended without a word\) and left what it typed in pane %1's input line, and it was still there after 1.0s; nothing was typed/,
    );
    // The person clears the line: the cursor moves, the mark goes.
    await tmux.pressKeys('%1', ['C-u']);
    expect(await waitOutHalfLine(io(tmux).io, '%1', 'J3', 1_000, never)).toBe(true);
    expect(await tmux.paneMark('%1', OPTION)).toBeUndefined();
  });

  test('a typer killed before its first key (the cursor where the line started): nothing to wait for', async () => {
    const tmux = new FakeTmux();
    await diedTyping(tmux, '');
    const w = io(tmux);
    expect(await waitOutHalfLine(w.io, '%1', 'J2', 1_000, never)).toBe(false);
    expect(w.notes).toEqual([]);
    expect(await tmux.paneMark('%1', OPTION)).toBeUndefined();
  });

  test('a typer killed at its Enter: the cursor moved, the line was sent (the next types); still where the line ended, it was not (the next waits)', async () => {
    const sent = new FakeTmux();
    await diedTyping(sent, 'abc');
    await markTyping(io(sent).io, '%1', 'J1', await sent.view());
    await sent.pressKeys('%1', ['C-u']);
    expect(await waitOutHalfLine(io(sent).io, '%1', 'J2', 1_000, never)).toBe(false);
    expect(await sent.paneMark('%1', OPTION)).toBeUndefined();
    const unsent = new FakeTmux();
    await diedTyping(unsent, 'abc');
    await markTyping(io(unsent).io, '%1', 'J1', await unsent.view());
    await expect(waitOutHalfLine(io(unsent).io, '%1', 'J2', 1_000, never)).rejects.toThrow(
      /^A job \(J1\) stopped while typing/,
    );
  });

  test("a typer's own mark is not waited for; a line submitted takes it off", async () => {
    const tmux = new FakeTmux();
    await diedTyping(tmux, 'abc');
    expect(await waitOutHalfLine(io(tmux).io, '%1', 'J1', 1_000, never)).toBe(false);
    await lineEnded(io(tmux).io, '%1', 'J1', 0, 'failed');
    expect(await tmux.paneMark('%1', OPTION)).toBeUndefined();
  });

  test("another typer's mark, or a lock lost, is never changed", async () => {
    const tmux = new FakeTmux();
    await diedTyping(tmux, 'abc');
    await lineEnded(io(tmux).io, '%1', 'J9', 0, 'failed');
    await lineEnded(io(tmux, false).io, '%1', 'J1', 0, 'failed');
    expect(await tmux.paneMark('%1', OPTION)).toMatch(/^J1 \? \d+,\d+ typing$/);
  });

  test('no mark: nothing to wait for', async () => {
    const w = io(new FakeTmux());
    expect(await waitOutHalfLine(w.io, '%1', 'J1', 1_000, never)).toBe(false);
    expect(w.notes).toEqual([]);
  });
});
