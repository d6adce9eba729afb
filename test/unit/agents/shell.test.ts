import {expect, test} from 'vitest';
import {isPosixShell, isShellCommand, isShellPane} from '../../../src/agents/shell.js';

test('shells, by their command name or path; POSIX ones can take the --until exit wrapper', () => {
  for (const sh of ['bash', '/usr/bin/zsh', '-bash', 'dash', 'fish', 'nu'])
    expect(isShellCommand(sh), sh).toBe(true);
  for (const not of ['node', 'vim', 'claude', 'python3'])
    expect(isShellCommand(not), not).toBe(false);
  expect(isPosixShell('zsh')).toBe(true);
  expect(isPosixShell('fish')).toBe(false);
  expect(isPosixShell('node')).toBe(false);
});

test("a shell's pane stays one while a command runs in it (tmux's default start command is the shell)", () => {
  expect(isShellPane({currentCommand: 'sleep', startCommand: ''})).toBe(true);
  expect(isShellPane({currentCommand: 'sleep', startCommand: '"bash --norc"'})).toBe(true);
  expect(isShellPane({currentCommand: 'node', startCommand: 'node app.js'})).toBe(false);
});
