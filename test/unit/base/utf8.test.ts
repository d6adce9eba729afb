import {describe, expect, test} from 'vitest';
import {firstInvalidUtf8, invalidArgument} from '../../../src/base/utf8.js';

const bytes = (...xs: number[]) => Uint8Array.from(xs);

describe('firstInvalidUtf8', () => {
  test('well-formed UTF-8, ASCII to four-byte sequences: undefined', () => {
    expect(firstInvalidUtf8(new TextEncoder().encode('npm test ✓ ünï 😀'))).toBeUndefined();
    expect(firstInvalidUtf8(bytes())).toBeUndefined();
  });
  test.each([
    ['a lone continuation byte', bytes(0x61, 0x80), 1],
    ['Latin-1 é', bytes(0x63, 0x61, 0x66, 0xe9), 3],
    ['a cut sequence at the end', bytes(0x61, 0xe2, 0x9c), 1],
    ['an overlong slash', bytes(0xc0, 0xaf), 0],
    ['an overlong three-byte', bytes(0xe0, 0x80, 0xaf), 0],
    ['a surrogate', bytes(0xed, 0xa0, 0x80), 0],
    ['above U+10FFFF', bytes(0xf4, 0x90, 0x80, 0x80), 0],
    ['0xff', bytes(0x41, 0x42, 0xff), 2],
  ])('%s: the offset of its first bad byte', (_what, input, offset) => {
    expect(firstInvalidUtf8(input)).toBe(offset);
  });
  test('agrees with a fatal TextDecoder on every two-byte input', () => {
    const decoder = new TextDecoder('utf-8', {fatal: true});
    for (let a = 0; a < 256; a++)
      for (let b = 0; b < 256; b += 7) {
        const input = bytes(a, b);
        let ok = true;
        try {
          decoder.decode(input);
        } catch {
          ok = false;
        }
        expect(firstInvalidUtf8(input) === undefined, `${a} ${b}`).toBe(ok);
      }
  });
});

describe('invalidArgument', () => {
  const cmdline = (...args: Array<string | number[]>) =>
    Buffer.concat(
      args.flatMap((a) => [typeof a === 'string' ? Buffer.from(a) : Buffer.from(a), Buffer.of(0)]),
    );

  test('the first argument of the last `count` whose bytes are not UTF-8, counted from them', () => {
    const line = cmdline('node', [0xff], 'cli.js', 'submit', '--', [0x63, 0x61, 0x66, 0xe9]);
    // The node binary's own arguments are not the person's: only the last four are read.
    expect(invalidArgument(line, 4)).toEqual({index: 3, offset: 3, byte: 0xe9});
    expect(invalidArgument(line, 1)).toEqual({index: 0, offset: 3, byte: 0xe9});
  });

  test('every argument UTF-8 (a true U+FFFD among them), or an empty one last: undefined', () => {
    expect(invalidArgument(cmdline('node', 'cli.js', '\uFFFD ok', ''), 2)).toBeUndefined();
    expect(invalidArgument(new Uint8Array(), 3)).toBeUndefined();
  });
});
