import {describe, expect, test} from 'vitest';
import {NudgeError} from '../../../src/base/errors.js';
import {checkReach, serverError, watchError} from '../../../src/pane/target.js';
import {TmuxCommandError} from '../../../src/tmux/runner.js';
import type {PaneInfo, Tmux} from '../../../src/tmux/tmux.js';
import {paneRow, treeWith} from '../../helpers/fake-tree.js';

/** A caller that claims %1 of server 42 (no tmux server among its ancestors). */
const INSIDE = {
  env: {TMUX: '/tmp/tmux-0/default,42,0', TMUX_PANE: '%1', XDG_CONFIG_HOME: '/nonexistent'},
  pid: 1000,
  tree: treeWith([{pid: 1000, command: 'node nudge'}]),
};

/** A pane of server 42 at /tmp/tmux-0/default, in `session`. */
const pane = (paneId: string, sessionId: string, socketPath = '/tmp/tmux-0/default') =>
  ({
    paneId,
    sessionId,
    socketPath,
    serverPid: socketPath === '/tmp/tmux-0/default' ? 42 : 7,
  }) as PaneInfo;

/** Server 42's panes: %1 and %2 in session $0, %9 in $3. */
const tmux = {
  describePane: async () => pane('%1', '$0'),
  paneStates: async () => [paneRow('%1', '$0'), paneRow('%2', '$0'), paneRow('%9', '$3')],
} as unknown as Tmux;

describe('how far a nudge started inside a pane may type', () => {
  test('its own pane and its session: yes; another session: one sentence naming the setting', async () => {
    await checkReach(tmux, pane('%1', '$0'), INSIDE);
    await checkReach(tmux, pane('%2', '$0'), INSIDE);
    await expect(checkReach(tmux, pane('%9', '$3'), INSIDE)).rejects.toThrow(
      /in another session than the pane nudge runs in \(%1\).*\[submit\] panes is not "server"/,
    );
  });

  test('another server: never; outside tmux: not bounded here', async () => {
    await expect(checkReach(tmux, pane('%2', '$0', '/tmp/other'), INSIDE)).rejects.toThrow(
      /on another tmux server/,
    );
    await checkReach(tmux, pane('%9', '$3'), {...INSIDE, env: {}});
  });
});

describe("tmux's failures as sentences", () => {
  test('no server, no tmux: exit 1 with what to do; anything else as it is', () => {
    const noServer = serverError(new TmuxCommandError('no-server', '', 'x'), {
      kind: 'socket-name',
      name: 'w',
    });
    expect(noServer).toBeInstanceOf(NudgeError);
    expect((noServer as Error).message).toMatch(/^No tmux server is running with socket name "w"/);
    const other = new Error('x');
    expect(serverError(other, {kind: 'default'})).toBe(other);
  });

  test('a pane gone while watched, or an interrupt', () => {
    expect(
      (watchError(new TmuxCommandError('no-target', '', 'x'), '%3', 'waiting') as Error).message,
    ).toBe('Pane %3 closed while waiting.');
    const abort = new Error('stop');
    abort.name = 'AbortError';
    expect((watchError(abort, '%3', 'waiting') as Error).message).toBe(
      'Interrupted while waiting.',
    );
  });
});
