/** What a text sent to an agent is meant to be, and how often it shows in the transcript. */
import {expect, test} from 'vitest';
import {countEchoes, echoKindOf} from '../../../src/agents/echoes.js';
import {PROFILES} from '../../../src/agents/registry.js';
import {paneViewOf} from '../../helpers/pane-views.js';

test('a text that starts with the shell prefix is for the shell mode; any other is a prompt', () => {
  const p = PROFILES.opencode!;
  expect(echoKindOf(p, '!make test')).toBe('shell');
  expect(echoKindOf(p, 'make test!')).toBe('prompt');
  expect(echoKindOf(PROFILES.raw, '!make test')).toBe('prompt');
});

test('echoes are counted above the composer only, joined across wrapped rows', () => {
  const rows = [
    '❯ fix the parser and then run all of the',
    '  tests again please',
    '● Done.',
    '❯ fix the parser',
    '● Done.',
    '─'.repeat(40),
    '❯ fix the parser and then run all of the tests again please',
    '─'.repeat(40),
  ];
  const v = paneViewOf(rows, {cursorY: 6, cursorX: 0, width: 120, currentCommand: 'claude'});
  const p = PROFILES.claude!;
  expect(
    countEchoes(p, v, 'fix the parser and then run all of the tests again please', 'prompt'),
  ).toBe(1);
  expect(countEchoes(p, v, 'fix the parser', 'prompt')).toBe(1);
  expect(countEchoes(p, v, 'fix', 'prompt')).toBe(0);
});
