// A control client hears every pane of its session; a job pays only for the panes it watches.
import {describe, expect, test} from 'vitest';
import {OutputListeners} from '../../../src/tmux/control-output.js';

function world(watched: string[]) {
  const calls: string[] = [];
  let fail = false;
  const out = new OutputListeners(watched, async (pane, on) => {
    calls.push(`${pane}:${on ? 'on' : 'off'}`);
    if (fail) throw new Error('client gone');
  });
  return {out, calls, failNext: () => (fail = true)};
}

describe('output listeners', () => {
  test("a pane nobody watches is turned off at its first output, once; the job's pane is heard", () => {
    const w = world(['%1']);
    const heard: string[] = [];
    w.out.add((pane) => void heard.push(pane), '%1');
    w.out.emit('%1', 10);
    w.out.emit('%2', 11);
    w.out.emit('%2', 12);
    expect(w.calls).toEqual(['%2:off']);
    expect(heard).toEqual(['%1']);
    expect(w.out.lastOutputAt('%1')).toBe(10);
    expect(w.out.lastOutputAt('%2')).toBeUndefined();
  });

  test('watched later: turned on again, and counted as having printed just now', async () => {
    const w = world(['%1']);
    w.out.emit('%2', 11);
    expect(await w.out.watch('%2', 50)).toBe(true);
    expect(w.calls).toEqual(['%2:off', '%2:on']);
    // Its silence while off is never taken for quiet.
    expect(w.out.lastOutputAt('%2')).toBe(50);
    w.out.emit('%2', 60);
    expect(w.out.lastOutputAt('%2')).toBe(60);
    // A pane never turned off needs no call.
    expect(await w.out.watch('%3', 70)).toBe(true);
    expect(w.calls).toEqual(['%2:off', '%2:on']);
  });

  test('turning it on again fails: its output does not reach us, and the wait must poll', async () => {
    const w = world([]);
    w.out.emit('%2', 11);
    w.failNext();
    expect(await w.out.watch('%2', 50)).toBe(false);
  });

  test('a listener of every pane, or no way to turn panes off: every pane is heard', () => {
    const all = world([]);
    all.out.add(() => {});
    all.out.emit('%2', 11);
    expect(all.calls).toEqual([]);
    expect(all.out.lastOutputAt('%2')).toBe(11);
    const plain = new OutputListeners();
    plain.emit('%2', 12);
    expect(plain.lastOutputAt('%2')).toBe(12);
  });
});
