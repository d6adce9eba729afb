// The one sanitiser for others' words shown to the person or stored in a tmux option
// (issue 42): no escape sequence or control character passes, no `#[…]` restyles the bar.
import {describe, expect, test} from 'vitest';
import {formatText, plainLine, plainText, unformatText} from '../../../src/base/sanitize.js';

const OSC52 = '\x1b]52;c;SGVsbG8=\x07';

describe('plainText', () => {
  test.each([
    ['OSC 52 (the clipboard), BEL-ended', `a${OSC52}b`, 'ab'],
    ['OSC 0 (the title), ST-ended', 'a\x1b]0;owned\x1b\\b', 'ab'],
    ['CSI 2J (clear the screen) and SGR', 'a\x1b[2J\x1b[31mred\x1b[0mb', 'aredb'],
    ['a DCS string', 'a\x1bP+q544e\x1b\\b', 'ab'],
    ['C1 CSI and OSC', 'a\u009b31mb\u009d52;c;x\u009cc', 'abc'],
    ['a two-byte escape (RIS)', 'a\x1bcb', 'ab'],
    ['an escape cut short', 'a\x1b', 'a'],
    ['an OSC that never ends', 'a\x1b]52;c;SGVsbG8=', 'a'],
    ['C0 but newline and tab, DEL', 'a\x00\x07\x08b\tc\nd\x7f\r', 'ab\tc\nd'],
  ])('%s is removed', (_what, text, plain) => expect(plainText(text)).toBe(plain));

  test('words, Unicode and # stay as they are', () => {
    expect(plainText('ünï ✓ 😀 #[fg=red] #(x)')).toBe('ünï ✓ 😀 #[fg=red] #(x)');
  });

  test('linear: a long run of escapes and brackets takes no time to clean', () => {
    const text = `${'\x1b['.repeat(50_000)}${'\x1b]'.repeat(50_000)}`;
    const started = performance.now();
    expect(plainText(text)).toBe('');
    expect(performance.now() - started).toBeLessThan(2_000);
  });
});

describe('for a tmux format', () => {
  test('one line, every # doubled (shown as written, never a style or a command); read back as written', () => {
    const stored = formatText(`Allow #[fg=red]x\n#(touch /tmp/p) ${OSC52}?`);
    expect(stored).toBe('Allow ##[fg=red]x ##(touch /tmp/p) ?');
    expect(unformatText(stored)).toBe('Allow #[fg=red]x #(touch /tmp/p) ?');
  });

  test('plainLine joins lines and trims', () => {
    expect(plainLine('  a\n\tb  ')).toBe('a b');
  });
});
