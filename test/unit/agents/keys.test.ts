import {describe, expect, test} from 'vitest';
import {keysOfTable, TMUX_KEY_NAME} from '../../../src/agents/keys.js';

describe('keys are keys (issue 42)', () => {
  test.each([
    'C-u',
    'M-x',
    'C-S-Left',
    'Escape',
    'BTab',
    'C-Tab',
    'M-Enter',
    'F12',
    'C-M-a',
    'KPEnter',
  ])('%s is a key tmux names', (key) => expect(TMUX_KEY_NAME.test(key)).toBe(true));

  test.each([
    'e',
    'S-e',
    'S-S-e',
    'S-!',
    'echo',
    'C-',
    'Enter x',
    'C-uu',
    'C-1',
    'C-S-t',
    'Space',
    'KP1',
    'M-;',
  ])('%s is text (tmux types it as a printable character on some version), refused', (key) =>
    expect(TMUX_KEY_NAME.test(key)).toBe(false),
  );

  test('every key a file would send, in file order', () => {
    expect(
      keysOfTable({
        clearKeys: [['Escape'], ['C-u']],
        inputModes: {shell: {name: 'shell', leaveKeys: [['BSpace']]}},
        dialogs: [{kind: 'permission', denyKeys: [['Escape']]}, {kind: 'trust'}],
        queueKey: 'Tab',
      }),
    ).toEqual(['Escape', 'C-u', 'BSpace', 'Escape', 'Tab']);
    expect(keysOfTable({name: 'x'})).toEqual([]);
  });
});
