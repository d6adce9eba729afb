import {expect, test} from 'vitest';
import {INITIAL_STABILITY, isStable, observeSnapshot, snapshotKey} from '../../src/screen.js';

const fold = (keys: string[]) => keys.reduce(observeSnapshot, INITIAL_STABILITY);

test('stable after N identical captures in a row', () => {
  expect(isStable(fold(['a', 'a']), 3)).toBe(false);
  expect(isStable(fold(['a', 'a', 'a']), 3)).toBe(true);
  expect(isStable(fold(['a', 'a', 'b', 'b', 'b']), 3)).toBe(true);
  expect(isStable(fold(['a', 'b', 'a', 'b', 'a']), 2)).toBe(false);
});

test('a spinner never looks stable', () => {
  const frames = Array.from({length: 50}, (_, i) => `working ${'|/-\\'[i % 4]}`);
  expect(isStable(fold(frames), 2)).toBe(false);
});

test('the cursor position is part of the comparison', () => {
  const a = snapshotKey({text: '$ ', cursorX: 2, cursorY: 0});
  const b = snapshotKey({text: '$ ', cursorX: 3, cursorY: 0});
  expect(a).not.toBe(b);
});
