import {describe, expect, test} from 'vitest';
import {describeUntil, parseUntil} from '../../../src/detect/until.js';

describe('parseUntil', () => {
  test.each([
    ['stable', {kind: 'stable'}],
    ['exit', {kind: 'exit'}],
    ['regex:listening on \\d+', {kind: 'regex', pattern: 'listening on \\d+'}],
    ['prompt', {kind: 'prompt', profile: undefined, pattern: undefined}],
    ['prompt:shell', {kind: 'prompt', profile: 'shell', pattern: undefined}],
    ['prompt:^> $', {kind: 'prompt', profile: undefined, pattern: '^> $'}],
  ])('%j', (text, spec) => {
    expect(parseUntil(text)).toEqual(spec);
    expect(describeUntil(parseUntil(text))).toBe(text);
  });

  test.each([
    ['idle', /not a condition/],
    ['regex:', /needs a pattern/],
    ['regex:(', /invalid regex "\(": missing closing \)/],
    ['prompt:', /needs a profile name or a regex/],
    ['prompt:[', /invalid regex/],
  ])('refuses %j with exit 2', (text, message) => {
    expect(() => parseUntil(text)).toThrow(
      expect.objectContaining({name: 'NudgeError', exitCode: 2}),
    );
    expect(() => parseUntil(text)).toThrow(message);
  });
});
