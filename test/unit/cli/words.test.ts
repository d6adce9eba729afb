import {describe, expect, test} from 'vitest';
import {checkFlagValues, checkWords, helpWords, usageSentence} from '../../../src/cli/words.js';

describe("usageSentence: yargs' wording as one sentence with the fix", () => {
  test.each([
    [
      'Unknown argument: bogus',
      ['submit', '--bogus'],
      'nudge submit has no option --bogus; see nudge submit --help.',
    ],
    [
      'Unknown arguments: x, yy',
      ['agents', 'list', '-x', '--yy'],
      'nudge agents list has no option -x, --yy; see nudge agents list --help.',
    ],
    [
      'Unknown argument: yy',
      ['queue', '--yy'],
      'nudge queue show has no option --yy; see nudge queue show --help.',
    ],
    [
      'Unknown argument: frobnicate',
      ['frobnicate'],
      'nudge frobnicate is not a command; see nudge --help for the list.',
    ],
    [
      'Did you mean logs?',
      ['logz'],
      'nudge logz is not a command; did you mean nudge logs? See nudge --help.',
    ],
    [
      'Give a command',
      ['--bogus'],
      'Unknown option --bogus; give a command first (see nudge --help for the list).',
    ],
    [
      'Not enough non-option arguments: got 0, need at least 1',
      ['cancel'],
      'nudge cancel needs <job> (a job id, or HOST:ID); see nudge cancel --help.',
    ],
    [
      // A word where the command takes none is not an option (issue 65).
      'Unknown argument: extra',
      ['doctor', 'extra'],
      'nudge doctor takes no word like "extra"; see nudge doctor --help.',
    ],
    [
      'Did you mean jobs?',
      ['completion', 'frob'],
      'nudge completion takes bash, zsh or fish (got "frob"); see nudge completion --help.',
    ],
    [
      // A positional's choices are no flag's.
      'Invalid values:\n  Argument: agent, Given: "vim", Choices: "claude", "gemini"',
      ['install', 'vim'],
      '<agent> takes one of "claude", "gemini" (got "vim"); see nudge install --help.',
    ],
    [
      'Invalid values:\n  Argument: via, Given: "x", Choices: "auto", "keys"',
      ['submit', '--via', 'x'],
      '--via takes one of "auto", "keys" (got "x"); see nudge submit --help.',
    ],
  ])('%j', (message, argv, sentence) => {
    const said = usageSentence(message, argv);
    expect(said).toBe(sentence);
    expect(said).not.toContain('\n');
    expect(said.match(/See nudge|see nudge/g)).toHaveLength(1);
  });
});

describe('checkFlagValues: a flag that takes a value, given none', () => {
  test.each([
    [['submit', '--timeout', '--', 'hi'], '--timeout'],
    [['submit', '--pane', '--until', 'exit', '--', 'hi'], '--pane'],
    [['wait', '%0', '--timeout'], '--timeout'],
  ])('%j is refused, naming %s', (argv, flag) => {
    expect(() => checkFlagValues(argv)).toThrow(
      expect.objectContaining({name: 'NudgeError', exitCode: 2}),
    );
    expect(() => checkFlagValues(argv)).toThrow(`${flag} needs a value`);
  });

  test.each([
    [['submit', '--timeout', '5m', '--', 'hi']],
    [['submit', '--lock-timeout', '-5s', '--', 'hi']],
    [['submit', '--text-file', '-']],
    // After `--` is the text: never looked at.
    [['submit', '--', '--timeout']],
    [['submit', '--wait', '--json', '--', 'x']],
    // A flag whose value is optional: `--worktree` alone names a branch of nudge's choosing.
    [['run', '--worktree', '--', 'true']],
    [['run', '--worktree', '--cwd', '/tmp', '--', 'true']],
  ])('%j passes', (argv) => {
    expect(() => checkFlagValues(argv)).not.toThrow();
  });
});

test('a value that starts with "-" but is no flag of the command stays a value', () => {
  expect(() => checkFlagValues(['wait', '%0', '--ignore', '-x+'])).not.toThrow();
  expect(() => checkFlagValues(['wait', '%0', '--ignore', '--json'])).toThrow(
    '--ignore needs a value',
  );
});

test("nudge help CMD is the command's --help, as gh and git read it; nudge help alone the list", () => {
  expect(helpWords(['help', 'submit'])).toEqual(['submit', '--help']);
  expect(helpWords(['help', 'queue', 'edit'])).toEqual(['queue', 'edit', '--help']);
  expect(helpWords(['help'])).toEqual(['--help']);
  expect(helpWords(['submit', '--', 'help'])).toEqual(['submit', '--', 'help']);
});

test('a word of a group that names none of its commands, past what its default takes, is named (issue 65)', () => {
  expect(() => checkWords(['queue', 'frob', 'x'])).toThrow(
    /^nudge queue has no command frob; its commands are show, .*edit.* \(see nudge queue --help\)\.$/,
  );
  // The default's own words pass: `nudge queue %3`, `nudge queue show %3`.
  expect(() => checkWords(['queue', '%3'])).not.toThrow();
  expect(() => checkWords(['queue', 'show', '%3'])).not.toThrow();
  expect(() => checkWords(['queue', '--pane', '%3', '--json'])).not.toThrow();
});
