import {expect, test} from 'vitest';
import {FIELD_SEPARATOR} from '../../../src/tmux/format.js';
import {parsePaneInfo} from '../../../src/tmux/pane-info.js';
import {classifyTmuxFailure} from '../../../src/tmux/runner.js';
import {resolveServerSpec, serverArgs, socketFile} from '../../../src/tmux/server.js';

test('server precedence: -S, -L, NUDGE_TMUX_SOCKET, $TMUX, default', () => {
  const env = {TMUX: '/tmp/tmux-0/work,123,4', NUDGE_TMUX_SOCKET: '/run/sock'};
  expect(resolveServerSpec({socketPath: '/a'}, env)).toEqual({kind: 'socket-path', path: '/a'});
  expect(resolveServerSpec({socketName: 'x'}, env)).toEqual({kind: 'socket-name', name: 'x'});
  expect(resolveServerSpec({}, env)).toEqual({kind: 'socket-path', path: '/run/sock'});
  expect(resolveServerSpec({}, {TMUX: env.TMUX})).toEqual({
    kind: 'socket-path',
    path: '/tmp/tmux-0/work',
  });
  expect(resolveServerSpec({}, {})).toEqual({kind: 'default'});
  expect(serverArgs({kind: 'socket-name', name: 'x'})).toEqual(['-u', '-L', 'x']);
  expect(serverArgs({kind: 'default'})).toEqual(['-u']);
});

test('refuses -L with -S and a -L that is a path', () => {
  expect(() => resolveServerSpec({socketName: 'a', socketPath: '/b'}, {})).toThrow(/not both/);
  expect(() => resolveServerSpec({socketName: 'a/b'}, {})).toThrow(/without "\/"/);
});

test('parses the pane description, keeping a command name with separators intact', () => {
  const line = [
    '%7',
    '0',
    '1',
    'copy-mode',
    '0',
    '1',
    '4242',
    '0',
    '$2',
    '999',
    '/tmp/s',
    '3',
    '4',
    'node',
    '',
  ].join(FIELD_SEPARATOR);
  expect(parsePaneInfo(line)).toMatchObject({
    paneId: '%7',
    dead: false,
    inMode: true,
    mode: 'copy-mode',
    synchronized: true,
    panePid: 4242,
    serverPid: 999,
    socketPath: '/tmp/s',
    cursorX: 3,
    cursorY: 4,
    currentCommand: 'node',
  });
  expect(parsePaneInfo('')).toBeUndefined();
  expect(parsePaneInfo(['', '0'].join(FIELD_SEPARATOR))).toBeUndefined();
});

test('a socket that refuses the connection (a sandbox, another user) is not "no server"', () => {
  expect(classifyTmuxFailure('error connecting to /tmp/t/sock (Operation not permitted)\n')).toBe(
    'no-access',
  );
  expect(classifyTmuxFailure('error connecting to /tmp/t/sock (Permission denied)\n')).toBe(
    'no-access',
  );
  expect(classifyTmuxFailure('error connecting to /tmp/t/sock (No such file or directory)\n')).toBe(
    'no-server',
  );
  expect(classifyTmuxFailure('no server running on /tmp/t/sock\n')).toBe('no-server');
  // A server shutting down answers a command before it exits: no session is left for it.
  expect(classifyTmuxFailure('no current target\n')).toBe('no-server');
});

test("socketFile: where tmux keeps a server's socket", () => {
  expect(socketFile({kind: 'socket-path', path: '/run/s'}, {}, 1000)).toBe('/run/s');
  expect(socketFile({kind: 'socket-name', name: 'work'}, {}, 1000)).toBe('/tmp/tmux-1000/work');
  expect(socketFile({kind: 'default'}, {TMUX_TMPDIR: '/var/t/'}, 501)).toBe(
    '/var/t/tmux-501/default',
  );
});
