// A submit's checks of its pane before anything is recorded: each refusal is one sentence, and
// the notice pane is named only where it is another pane of the same server.
import {describe, expect, test} from 'vitest';
import {parseUntil} from '../../../src/detect/until.js';
import {paneLockFor} from '../../../src/locks/pane-lock.js';
import {checkSubmitTarget, type SubmitAsks} from '../../../src/pane/submit-target.js';
import {paneRefOf} from '../../../src/pane/target.js';
import type {Foreground} from '../../../src/process/foreground.js';
import type {PaneInfo, Tmux} from '../../../src/tmux/tmux.js';
import {fakePaneInfo} from '../../helpers/fake-tmux.js';
import {treeWith} from '../../helpers/fake-tree.js';
import {useTempDir} from '../../helpers/temp-dir.js';

const SOCKET = '/tmp/tmux-0/test';

/** A pane of server 42 (or `serverPid`) running `command`. */
const pane = (paneId: string, currentCommand = 'bash', serverPid = 42): PaneInfo =>
  fakePaneInfo({paneId, currentCommand, serverPid, socketPath: SOCKET});

/** tmux that knows `panes` (by id). */
const tmuxOf = (...panes: PaneInfo[]) =>
  ({
    describePane: async (target: string) => panes.find((p) => p.paneId === target),
  }) as unknown as Tmux;

const SPEC = {kind: 'socket-path', path: SOCKET} as const;
const asks = (more: Partial<SubmitAsks> = {}): SubmitAsks => ({
  until: parseUntil('stable'),
  profile: 'auto',
  via: undefined,
  notifyPane: undefined,
  busyNow: undefined,
  ...more,
});

/** Outside tmux (no reach bound), with a state folder of its own. */
function deps() {
  return {
    env: {XDG_CONFIG_HOME: '/nonexistent'},
    pid: process.pid,
    tree: treeWith(),
    foreground: {} as Foreground,
    stateDir: useTempDir(),
  };
}

describe('checkSubmitTarget', () => {
  test('--until exit needs a shell in the pane', async () => {
    const info = pane('%1', 'node');
    await expect(
      checkSubmitTarget(tmuxOf(info), SPEC, info, asks({until: parseUntil('exit')}), deps()),
    ).rejects.toThrow(/--until exit needs a shell .* in pane %1, but it runs node/);
  });

  test('a profile that does not exist is named', async () => {
    const info = pane('%1');
    await expect(
      checkSubmitTarget(tmuxOf(info), SPEC, info, asks({profile: 'nosuch' as never}), deps()),
    ).rejects.toThrow(/nosuch/);
  });

  test('the notice pane: another pane is named, the same pane is not, another server is refused', async () => {
    const info = pane('%1');
    const tmux = tmuxOf(info, pane('%2'), pane('%3', 'bash', 7));
    const d = deps();
    expect(await checkSubmitTarget(tmux, SPEC, info, asks({notifyPane: '%2'}), d)).toBe('%2');
    expect(await checkSubmitTarget(tmux, SPEC, info, asks({notifyPane: '%1'}), d)).toBeUndefined();
    expect(await checkSubmitTarget(tmux, SPEC, info, asks(), d)).toBeUndefined();
    await expect(checkSubmitTarget(tmux, SPEC, info, asks({notifyPane: '%3'}), d)).rejects.toThrow(
      '--notify-pane must be on the same tmux server as --pane.',
    );
    await expect(checkSubmitTarget(tmux, SPEC, info, asks({notifyPane: '%9'}), d)).rejects.toThrow(
      /Pane "%9" \(--notify-pane\) was not found/,
    );
  });

  test('--if-busy refuse: a pane with a job queued for it is busy; now with --via keys is refused', async () => {
    const info = pane('%1');
    const d = deps();
    await paneLockFor(d.stateDir, paneRefOf(info)).enqueue('1abc-x2y3');
    await expect(
      checkSubmitTarget(tmuxOf(info), SPEC, info, asks({busyNow: 'refuse'}), d),
    ).rejects.toThrow(/Pane %1 is busy — nudge has a job on it or waiting for it \(1abc-x2y3\)/);
    await expect(
      checkSubmitTarget(tmuxOf(info), SPEC, info, asks({busyNow: 'now', via: 'keys'}), d),
    ).rejects.toThrow('--if-busy now goes through a door; --via keys types.');
  });
});
