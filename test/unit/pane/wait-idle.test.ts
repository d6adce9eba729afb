/**
 * waitPaneIdle, the verdicts of `nudge wait`: a shell at its prompt is idle; a quiet command
 * running in a shell's pane keeps it busy (the foreground says so, not the still screen); an
 * agent that asks a person is `blocked` at once; where the system cannot say what the
 * foreground does, the result says so. A pane in memory, in virtual time; screens of the
 * real agents from test/fixtures/screens.
 */
import {describe, expect, test} from 'vitest';
import {parseUntil} from '../../../src/detect/until.js';
import {type WaitIdleOptions, waitPaneIdle} from '../../../src/pane/wait-idle.js';
import type {InputState} from '../../../src/process/foreground.js';
import type {PaneInfo} from '../../../src/tmux/tmux.js';
import type {PaneView} from '../../../src/tmux/view.js';
import {fakePane} from '../../helpers/fake-tmux.js';
import {capturedScreen} from '../../helpers/pane-views.js';

function world(o: {info?: Partial<PaneInfo>; input: InputState; screen?: () => PaneView}) {
  const deps = fakePane({...o, input: () => o.input});
  const {tmux} = deps;
  const wait = (until: string, over: Partial<WaitIdleOptions> = {}) =>
    waitPaneIdle(
      deps,
      tmux.info,
      {
        until: parseUntil(until) as WaitIdleOptions['until'],
        intervalMs: 500,
        timeoutMs: 30_000,
        stableChecks: 3,
        ignore: [],
        lines: 100,
        ...over,
      },
      new AbortController().signal,
    );
  return {tmux, wait};
}

describe('waitPaneIdle', () => {
  test('a shell at its prompt, waiting for input: idle within a few checks', async () => {
    const w = world({input: {kind: 'waiting-for-input', program: 'bash'}});
    const got = await w.wait('stable');
    expect(got).toMatchObject({status: 'idle', pane: '%1', until: 'stable'});
    expect(got.durationMs).toBeLessThan(5_000);
    expect(got.inputState).toBeUndefined();
  });

  test('a quiet command running in a shell’s pane keeps it busy however still its screen', async () => {
    const w = world({input: {kind: 'running', program: 'sleep'}});
    const got = await w.wait('stable');
    expect(got.status).toBe('timeout');
    expect(got.durationMs).toBeGreaterThanOrEqual(30_000);
    expect(got.reason).toMatch(/sleep/);
  });

  test('where the foreground cannot be read, the result says so', async () => {
    const w = world({input: {kind: 'unknown', why: 'no /proc'}});
    const got = await w.wait('stable');
    expect(got.status).toBe('idle');
    expect(got.inputState).toBe('unknown: no /proc');
  });

  test('an agent asking a person is blocked at once, with its question', async () => {
    const w = world({
      info: {currentCommand: 'node'},
      input: {kind: 'waiting-for-input', program: 'node'},
      screen: () => capturedScreen('claude-permission-bash'),
    });
    const got = await w.wait('stable');
    expect(got.status).toBe('blocked');
    expect(got.blocked).toMatchObject({pane: '%1', kind: 'permission'});
    expect(got.reason).toMatch(/^waiting for a person: permission \(/);
    expect(got.durationMs).toBeLessThan(2_000);
  });

  test('--until prompt on a program no profile knows (started without a shell) is refused before any look', async () => {
    const w = world({
      input: {kind: 'waiting-for-input', program: 'htop'},
      info: {currentCommand: 'htop', startCommand: 'htop'},
    });
    const looks = () => w.tmux.calls.filter((c) => c[0] === 'view').length;
    await expect(w.wait('prompt')).rejects.toThrow(/no prompt profile knows "htop"/);
    expect(looks()).toBe(0);
  });
});
