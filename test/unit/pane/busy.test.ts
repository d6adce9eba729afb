import {describe, expect, test} from 'vitest';
import {busyWith, noDoor, readPaneFacts} from '../../../src/pane/busy.js';
import type {PaneMemory} from '../../../src/pane/memory.js';
import {fakePane} from '../../helpers/fake-tmux.js';
import {capturedScreen} from '../../helpers/pane-views.js';

const noMemory = {recall: async () => undefined, remember: async () => {}} as PaneMemory;

describe('busyWith (--if-busy refuse)', () => {
  test('a shell running a command is busy; at its prompt it is not', async () => {
    let input: 'running' | 'idle' = 'running';
    const p = fakePane({
      input: () =>
        input === 'running'
          ? {kind: 'running', program: 'sleep'}
          : {kind: 'waiting-for-input', program: 'bash'},
    });
    const deps = {...p, paneMemory: noMemory};
    expect(busyWith(await readPaneFacts(deps, p.tmux.info, 'auto'))).toBe('still running: sleep');
    input = 'idle';
    expect(busyWith(await readPaneFacts(deps, p.tmux.info, 'auto'))).toBeUndefined();
  });

  test('an agent at work is busy, named; at its prompt it is not', async () => {
    let screen = 'claude-busy';
    const p = fakePane({
      input: () => ({kind: 'unknown', why: 'a fake pane'}),
      info: {currentCommand: 'claude'},
      screen: () => capturedScreen(screen),
    });
    const deps = {...p, paneMemory: noMemory};
    expect(busyWith(await readPaneFacts(deps, p.tmux.info, 'auto'))).toBe(
      'claude: the agent is busy',
    );
    screen = 'claude-idle-empty';
    expect(busyWith(await readPaneFacts(deps, p.tmux.info, 'auto'))).toBeUndefined();
  });
});

describe('the facts are read once; the checks are functions of them', () => {
  test('one look at the screen makes every answer of one submit', async () => {
    let looks = 0;
    const p = fakePane({
      input: () => ({kind: 'unknown', why: 'a fake pane'}),
      info: {currentCommand: 'claude'},
      screen: () => {
        looks++;
        return capturedScreen('claude-busy');
      },
    });
    const facts = await readPaneFacts({...p, paneMemory: noMemory}, p.tmux.info, 'auto');
    expect(facts.profile.name).toBe('claude');
    expect(busyWith(facts)).toBe('claude: the agent is busy');
    expect(noDoor(facts.profile, '%1')).toBeUndefined();
    expect(busyWith(facts)).toBe('claude: the agent is busy');
    expect(looks).toBe(1);
  });

  test('a program without a door is named, with those that have one', () => {
    const shell = {name: 'shell', kind: 'shell', clearKeys: [], minEnterDelayMs: 0, busy: []};
    expect(noDoor(shell as never, '%4')).toMatch(/^Pane %4 runs shell, which has no door .*claude/);
  });
});
