// The login shell that runs nudge's own POSIX scripts for a person (`--bash-wait`, the
// assessor command): theirs when it reads POSIX, else bash — never fish, nu or tcsh, whose
// syntax would read `exec "$0" "$@"` otherwise.
import {expect, test} from 'vitest';
import {loginShell, underLoginShell} from '../../../src/process/run-command.js';

test.each([
  ['/bin/zsh', '/bin/zsh'],
  ['/opt/homebrew/bin/bash', '/opt/homebrew/bin/bash'],
  ['/bin/sh', '/bin/sh'],
  ['/home/me/bin/login-wrapper', '/home/me/bin/login-wrapper'],
  ['/opt/homebrew/bin/fish', 'bash'],
  ['/usr/local/bin/nu', 'bash'],
  ['/bin/tcsh', 'bash'],
  ['zsh', 'bash'],
  [undefined, 'bash'],
])('$SHELL=%s runs scripts under %s', (shell, expected) => {
  expect(loginShell({SHELL: shell})).toBe(expected);
});

test('a program run under it keeps its own argv: no shell reads its words', () => {
  expect(underLoginShell({SHELL: '/usr/bin/fish'}, ['assess', 'a b', '$HOME'])).toEqual([
    'bash',
    ['-lc', 'exec "$0" "$@"', 'assess', 'a b', '$HOME'],
  ]);
});
