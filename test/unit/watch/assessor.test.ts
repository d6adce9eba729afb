// What an assessor's line may not start with unless the watcher has --allow-commands (issue
// 42): a control or invisible character before `!` does not hide it.
import {describe, expect, test} from 'vitest';
import {commandPrefixOf} from '../../../src/watch/assessor.js';

describe("an assessor's line, as a command", () => {
  test.each([
    ['!rm -rf ~', '!'],
    ['  /model x', '/'],
    ['$(touch x)', '$'],
    ['\x01!rm -rf ~', '!'],
    ['\x1b!cmd', '!'],
    ['\u200b\ufeff!cmd', '!'],
    ['\t\u0085/clear', '/'],
  ])('%j starts with %s', (line, prefix) => expect(commandPrefixOf(line)).toBe(prefix));

  test.each(['Run the tests.', 'a ! later', 'x/y'])('%j is no command', (line) =>
    expect(commandPrefixOf(line)).toBeUndefined(),
  );
});
