import {describe, expect, test} from 'vitest';
import {firstInvalidUtf8} from '../../../src/base/utf8.js';

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
