import {describe, expect, test} from 'vitest';
import {chunkForArgv} from '../../../src/tmux/tmux.js';
import {findUntypable, literalArgument, planTyping} from '../../../src/tmux/typing.js';
import {eachMapsTo} from '../../helpers/maps-each.js';

describe('planTyping', () => {
  test('one line is one run of characters', () => {
    expect(planTyping('npm test')).toEqual([{kind: 'chars', chars: [...'npm test']}]);
  });
  test('a newline (LF, CRLF or CR) presses Enter', () => {
    expect(planTyping('a\nb\r\nc\rd')).toEqual([
      {kind: 'chars', chars: ['a']},
      {kind: 'enter'},
      {kind: 'chars', chars: ['b']},
      {kind: 'enter'},
      {kind: 'chars', chars: ['c']},
      {kind: 'enter'},
      {kind: 'chars', chars: ['d']},
    ]);
    expect(planTyping('x\n\n')).toEqual([
      {kind: 'chars', chars: ['x']},
      {kind: 'enter'},
      {kind: 'enter'},
    ]);
  });
  test('characters are code points: an emoji is one step, not two halves', () => {
    expect(planTyping('é😀')[0]).toEqual({kind: 'chars', chars: ['é', '😀']});
  });
});

describe('literalArgument', () => {
  eachMapsTo(
    literalArgument,
    [
      [';', '\\;'],
      ['a;', 'a\\;'],
      ['a\\;', 'a\\\\;'],
      ['a;b', 'a;b'],
      ['-', '-'],
      ['Enter', 'Enter'],
    ],
    '%j becomes %j',
  );
});

test('NUL cannot be typed', () => {
  expect(findUntypable('a\0b')).toBe('a NUL character');
  expect(findUntypable('a\tb\x1b')).toBeUndefined();
});

test('chunkForArgv splits on character boundaries under the byte limit', () => {
  const text = `${'a'.repeat(10)}😀${'é'.repeat(5)}`;
  const chunks = chunkForArgv(text, 12);
  expect(chunks.join('')).toBe(text);
  for (const c of chunks) expect(Buffer.byteLength(c)).toBeLessThanOrEqual(12);
  expect(chunks).toEqual(['aaaaaaaaaa', '😀éééé', 'é']);
});
