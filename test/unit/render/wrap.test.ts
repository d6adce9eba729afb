import {describe, expect, test} from 'vitest';
import {wrapped} from '../../../src/render/wrap.js';

describe('wrapped', () => {
  test('breaks between words within the width, the lines after the first indented', () => {
    const lines = wrapped(
      'the default tmux server cannot be reached: list-sessions failed with an error',
      40,
      4,
      'ok  ',
    );
    expect(lines).toEqual([
      'ok  the default tmux server cannot be',
      '    reached: list-sessions failed with',
      '    an error',
    ]);
    for (const l of lines) expect(l.length).toBeLessThanOrEqual(40);
  });

  test('a command to paste stays on one line, even past the width', () => {
    const path = '/tmp/nudge-cloned-abcdef/a-repository-with-a-long-name';
    const lines = wrapped(`Trust it first: nudge agents trust ${path}.`, 50, 2);
    expect(lines).toContain(`  nudge agents trust ${path}.`);
    const again = wrapped(
      'Run nudge install codex --scope project again: it takes the rule out.',
      30,
      0,
    );
    expect(again.some((l) => l.includes('nudge install codex --scope project'))).toBe(true);
  });

  test('a word longer than the line is not cut', () => {
    const long = `/${'x'.repeat(60)}`;
    expect(wrapped(`at ${long} now`, 30, 0)).toEqual(['at', long, 'now']);
  });
});
