// What the program drew of a typed text: a line read back holds only the text's visible end
// (whitespace aside: it may wrap or reflow), and a shell-mode command is shown without its
// prefix once the prompt character says the mode.
import {describe, expect, test} from 'vitest';
import type {Profile} from '../../../src/agents/profile.js';
import {PROFILES} from '../../../src/agents/registry.js';
import type {ComposerState} from '../../../src/agents/screens.js';
import {holdsOnly, shownIn} from '../../../src/pane/drawn.js';

describe('what was drawn', () => {
  test('a line holding the end of the text, wrapped or reflowed, holds only it', () => {
    expect(holdsOnly('run   the tests', 'please run the tests')).toBe(true);
    expect(holdsOnly('the tests and more', 'please run the tests')).toBe(false);
    expect(holdsOnly('', 'anything')).toBe(true);
  });

  test('a shell-mode command is shown without its prefix once the line is in that mode', () => {
    const agent = {...PROFILES.shell, shellPrefix: '!'} as Profile;
    const shell = {name: 'shell', leaveKeys: [['Escape']]};
    const inShellMode: ComposerState = {text: 'ls -la', mode: shell, index: 0};
    const asPrompt: ComposerState = {text: '!ls -la', index: 0};
    expect(shownIn(agent, inShellMode, '!ls -la')).toBe('ls -la');
    expect(shownIn(agent, asPrompt, '!ls -la')).toBe('!ls -la');
    expect(shownIn(PROFILES.shell, inShellMode, '!x')).toBe('!x');
  });
});
