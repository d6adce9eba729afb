import {describe, expect, test} from 'vitest';
import {checkProfileFile} from '../../../src/agents/schema.js';

describe('a profile file, checked', () => {
  const least = {name: 'tool', kind: 'agent', clearKeys: [['C-u']], minEnterDelayMs: 0, busy: []};

  test('the least profile: a name, a kind, how to clear, the pause before Enter, busy markers', () => {
    const r = checkProfileFile({...least, busy: ['working…'], composerLine: '^> (.*)$'}, 'f.toml');
    expect(r.ok).toBe(true);
    if (r.ok) {
      expect(r.value.busy[0]?.test('working…')).toBe(true);
      expect(r.value.composerLine?.exec('> hi')?.[1]).toBe('hi');
    }
  });

  test.each([
    [
      {...least, busyy: []},
      'f.toml: (the file) is not valid: expected no field "busyy" (unknown).',
    ],
    [
      {...least, busy: ['[']},
      'f.toml: busy.0 is not valid: expected a regular expression (Invalid regular expression: /[/: Unterminated character class).',
    ],
    [{...least, minEnterDelayMs: '5'}, 'f.toml: minEnterDelayMs is not valid: expected number.'],
    [
      {...least, kind: 'robot'},
      'f.toml: kind is not valid: expected one of "agent", "shell", "raw".',
    ],
    [
      {...least, name: 'My Tool'},
      'f.toml: name is not valid: expected a lower-case name (letters, digits, -).',
    ],
    [{...least, clearKeys: [[]]}, 'f.toml: clearKeys.0 is not valid: expected at least 1 item(s).'],
    [
      {...least, minEnterDelayMs: 20_000},
      'f.toml: minEnterDelayMs is not valid: expected a number at most 10000.',
    ],
  ])('%j is refused with one sentence naming the file and the field', (value, sentence) => {
    expect(checkProfileFile(value, 'f.toml')).toEqual({ok: false, error: sentence});
  });
});

describe('a key field holds keys (issue 42)', () => {
  test('a profile of "key names" S-e S-c S-h S-o (which tmux types as echo) is refused', () => {
    const r = checkProfileFile(
      {
        name: 'tool',
        kind: 'agent',
        clearKeys: [['S-e', 'S-c', 'S-h', 'S-o']],
        minEnterDelayMs: 0,
        busy: [],
      },
      'f.toml',
    );
    expect(r).toEqual({
      ok: false,
      error:
        'f.toml: clearKeys.0.0 is not valid: expected a tmux key name (C-u, Escape, Enter, BSpace, Tab, …), not text.',
    });
  });
});
