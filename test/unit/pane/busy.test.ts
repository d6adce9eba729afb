import {describe, expect, test} from 'vitest';
import {busyWith} from '../../../src/pane/busy.js';
import type {PaneMemory} from '../../../src/pane/memory.js';
import {fakePane} from '../../helpers/fake-tmux.js';
import {capturedScreen} from '../../helpers/pane-views.js';

const noMemory = {recall: async () => undefined, remember: async () => {}} as PaneMemory;

describe('busyWith (--if-busy refuse)', () => {
  test('jobs of nudge on the pane: busy, naming them', async () => {
    const p = fakePane({input: () => ({kind: 'waiting-for-input', program: 'bash'})});
    const deps = {...p, paneMemory: noMemory};
    expect(await busyWith(deps, p.tmux.info, 'auto', ['j1', 'j2'])).toBe(
      'nudge has 2 jobs on it or waiting for it (j1, j2)',
    );
  });

  test('a shell running a command is busy; at its prompt it is not', async () => {
    let input: 'running' | 'idle' = 'running';
    const p = fakePane({
      input: () =>
        input === 'running'
          ? {kind: 'running', program: 'sleep'}
          : {kind: 'waiting-for-input', program: 'bash'},
    });
    const deps = {...p, paneMemory: noMemory};
    expect(await busyWith(deps, p.tmux.info, 'auto', [])).toBe('still running: sleep');
    input = 'idle';
    expect(await busyWith(deps, p.tmux.info, 'auto', [])).toBeUndefined();
  });

  test('an agent at work is busy, named; at its prompt it is not', async () => {
    let screen = 'claude-busy';
    const p = fakePane({
      input: () => ({kind: 'unknown', why: 'a fake pane'}),
      info: {currentCommand: 'claude'},
      screen: () => capturedScreen(screen),
    });
    const deps = {...p, paneMemory: noMemory};
    expect(await busyWith(deps, p.tmux.info, 'auto', [])).toBe('claude: the agent is busy');
    screen = 'claude-idle-empty';
    expect(await busyWith(deps, p.tmux.info, 'auto', [])).toBeUndefined();
  });
});
