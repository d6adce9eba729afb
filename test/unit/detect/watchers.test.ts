import {describe, expect, test} from 'vitest';
import {shellPromptVisible} from '../../../src/detect/idle.js';
import {
  CHANGING,
  maskScreen,
  NOT_STILL_YET,
  PromptWatcher,
  StableWatcher,
  viewKey,
} from '../../../src/detect/watchers.js';
import type {PaneView} from '../../../src/tmux/view.js';
import {screenOf} from '../../helpers/pane-views.js';

const screen = screenOf;

const opts = {baselineKey: undefined, graceChecks: 2, ignore: [], shellPane: false};
const run = (w: {observe(v: PaneView): {status: string}}, views: PaneView[]) =>
  views.map((v) => w.observe(v).status);

describe('StableWatcher', () => {
  test('"changing" only when two looks differed; a still screen short of the window says so', () => {
    const w = new StableWatcher(3, opts);
    const why = (v: PaneView) => (w.observe(v) as {why?: string}).why;
    expect(why(screen('$'))).toBe(NOT_STILL_YET);
    expect(why(screen('$'))).toBe(NOT_STILL_YET);
    expect(why(screen('$ x'))).toBe(CHANGING);
    expect(why(screen('$ x'))).toBe(NOT_STILL_YET);
  });

  test('done after N identical views', () => {
    const w = new StableWatcher(2, opts);
    expect(run(w, [screen('a'), screen('b'), screen('b'), screen('b')])).toEqual([
      'pending',
      'pending',
      'pending',
      'done',
    ]);
  });

  test('waits for the pane to react to Enter before counting', () => {
    const before = screen('$ sleep 5');
    const w = new StableWatcher(1, {...opts, baselineKey: viewKey(before, [])});
    // Unchanged screen: gated for the grace checks, then counted.
    expect(run(w, [before, before, before, before])).toEqual([
      'pending',
      'pending',
      'pending',
      'done',
    ]);
    const w2 = new StableWatcher(1, {...opts, baselineKey: viewKey(before, [])});
    expect(run(w2, [before, screen('$ sleep 5\n'), screen('$ sleep 5\n')])).toEqual([
      'pending',
      'pending',
      'done',
    ]);
  });

  test('an --ignore mask makes a ticking clock stable; a spinner stays busy', () => {
    const clock = ['clock 10:00:01', 'clock 10:00:02', 'clock 10:00:03'].map((t) =>
      screen(`$ \n${t}`, {cursorY: 0, cursorX: 2}),
    );
    expect(run(new StableWatcher(2, opts), clock)).toEqual(['pending', 'pending', 'pending']);
    expect(run(new StableWatcher(2, {...opts, ignore: [/clock \d\d:\d\d:\d\d/]}), clock)).toEqual([
      'pending',
      'pending',
      'done',
    ]);
    const spinner = ['|', '/', '-', '\\', '|'].map((f) => screen(`${f} working`));
    expect(run(new StableWatcher(1, {...opts, ignore: [/clock/]}), spinner)).not.toContain('done');
  });

  test('a shell pane is not done while another command is in the foreground', () => {
    const w = new StableWatcher(1, {...opts, shellPane: true});
    const busy = screen('$ make', {currentCommand: 'make'});
    const idle = screen('$ make', {currentCommand: 'bash'});
    expect(run(w, [busy, busy, busy, idle])).toEqual(['pending', 'pending', 'pending', 'done']);
  });
});

test('maskScreen blanks every match', () => {
  expect(maskScreen('a 1s b 22s', [/\d+s/])).toBe('a  b ');
});

describe('PromptWatcher', () => {
  test('needs the shell prompt on two consecutive checks', () => {
    const w = new PromptWatcher(shellPromptVisible, opts);
    expect(run(w, [screen('$ '), screen('output'), screen('$ '), screen('$ ')])).toEqual([
      'pending',
      'pending',
      'pending',
      'done',
    ]);
  });
  test('a prompt with text after the cursor is not idle', () => {
    expect(shellPromptVisible(screen('$ ', {cursorX: 0}))).toBe(false);
    expect(shellPromptVisible(screen('$ '))).toBe(true);
    expect(shellPromptVisible(screen('$ make'))).toBe(false);
  });
});
