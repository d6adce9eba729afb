// The one reach check (issue 42): who asks (the person outside tmux, or a process in a pane,
// bounded to its session unless config.toml widens it to the server) and what it may reach.
import {mkdirSync, writeFileSync} from 'node:fs';
import {hostname} from 'node:os';
import {join} from 'node:path';
import {describe, expect, test} from 'vitest';
import {
  askerOf,
  checkReachOf,
  REMOTE_ASKER_VAR,
  reachable,
  remoteAskerOf,
  whyUnreachable,
  wireAskerOf,
} from '../../../src/pane/reach.js';
import type {PaneInfo, Tmux} from '../../../src/tmux/tmux.js';
import {useTempDir} from '../../helpers/temp-dir.js';

const SOCKET = '/tmp/tmux-0/default';
const INSIDE = {TMUX: `${SOCKET},42,0`, TMUX_PANE: '%1', XDG_CONFIG_HOME: '/nonexistent'};
/** The server's panes and their sessions: %1 and %2 in $0, %9 in $3. */
const SESSIONS: Record<string, string> = {'%1': '$0', '%2': '$0', '%9': '$3'};
let described = 0;
const tmux = {
  describePane: async (pane: string) => {
    described++;
    const sessionId = SESSIONS[pane];
    return sessionId ? ({paneId: pane, sessionId} as PaneInfo) : undefined;
  },
} as unknown as Tmux;
const at = (pane: string, socketPath = SOCKET, serverPid = 42) => ({socketPath, serverPid, pane});

describe('who asks', () => {
  test('outside tmux: the person; inside a pane: that pane, its session by default', () => {
    expect(askerOf({})).toEqual({kind: 'person'});
    expect(askerOf(INSIDE)).toEqual({
      kind: 'pane',
      socketPath: SOCKET,
      serverPid: 42,
      pane: '%1',
      reach: 'session',
    });
  });

  test('config.toml [submit] panes = "server" widens a pane to its server', () => {
    const dir = useTempDir('nudge-config-');
    mkdirSync(join(dir, 'nudge'));
    writeFileSync(join(dir, 'nudge', 'config.toml'), '[submit]\npanes = "server"\n');
    expect(askerOf({...INSIDE, XDG_CONFIG_HOME: dir})).toMatchObject({reach: 'server'});
  });
});

describe('--host: the bound a request carries, and the far end reading it', () => {
  test('the person stays the person; a pane is granted a host only by [submit] hosts', () => {
    expect(wireAskerOf({}, 'gpu')).toEqual({kind: 'person'});
    const ungranted = {kind: 'remote', from: `${hostname()}:%1`, host: 'gpu', granted: false};
    expect(wireAskerOf(INSIDE, 'gpu')).toEqual(ungranted);
    const dir = useTempDir('nudge-config-');
    mkdirSync(join(dir, 'nudge'));
    writeFileSync(join(dir, 'nudge', 'config.toml'), '[submit]\nhosts = ["gpu"]\n');
    expect(wireAskerOf({...INSIDE, XDG_CONFIG_HOME: dir}, 'gpu')).toEqual({
      ...ungranted,
      granted: true,
    });
    expect(wireAskerOf({...INSIDE, XDG_CONFIG_HOME: dir}, 'other')).toMatchObject({
      granted: false,
    });
  });

  test('read fail-closed; honoured only outside a pane', async () => {
    const closed = {kind: 'remote', from: '?', host: '?', granted: false};
    for (const bad of [undefined, null, 'person', {kind: 'pane'}, {kind: 'remote', granted: 'yes'}])
      expect(remoteAskerOf(bad)).toEqual(closed);
    expect(remoteAskerOf({kind: 'person'})).toEqual({kind: 'person'});
    const wire = JSON.stringify({kind: 'remote', from: 'a:%1', host: 'gpu', granted: false});
    const asker = askerOf({[REMOTE_ASKER_VAR]: wire});
    expect(await whyUnreachable(asker, at('%9'), () => tmux)).toBe(
      'the pane that asked (a:%1) is on another host, whose config.toml [submit] hosts does not name gpu',
    );
    expect(askerOf({[REMOTE_ASKER_VAR]: 'not json'})).toEqual(closed);
    // Inside a pane the variable changes nothing: the pane's own bound holds.
    expect(
      askerOf({...INSIDE, [REMOTE_ASKER_VAR]: JSON.stringify({kind: 'person'})}),
    ).toMatchObject({
      kind: 'pane',
    });
  });
});

describe('what it may reach', () => {
  test('the person: everything; a pane: its session, never another session or server', async () => {
    expect(await whyUnreachable({kind: 'person'}, at('%9'), () => tmux)).toBeUndefined();
    const pane = askerOf(INSIDE);
    expect(await whyUnreachable(pane, at('%2'), () => tmux)).toBeUndefined();
    expect(await whyUnreachable(pane, at('%9'), () => tmux)).toMatch(/another session/);
    expect(await whyUnreachable(pane, at('%2', '/tmp/other', 7), () => tmux)).toMatch(
      /another tmux server/,
    );
    // A pane gone (its session unknown) is not within a session's reach.
    expect(await whyUnreachable(pane, at('%5'), () => tmux)).toMatch(/another session/);
  });

  test('a refusal is one sentence, exit 2 (out-of-reach)', async () => {
    await expect(
      checkReachOf(askerOf(INSIDE), at('%9'), () => tmux, 'Job j1 (pane %9) is out of reach'),
    ).rejects.toMatchObject({
      code: 'out-of-reach',
      message: `Job j1 (pane %9) is out of reach: it is in another session than the pane nudge runs in (%1), and config.toml's [submit] panes is not "server".`,
    });
  });

  test('a list keeps what is in reach, each pane described once', async () => {
    described = 0;
    const jobs = [at('%2'), at('%9'), at('%2'), at('%9')];
    expect(
      await reachable(
        askerOf(INSIDE),
        jobs,
        (j) => j,
        () => tmux,
      ),
    ).toEqual([at('%2'), at('%2')]);
    expect(described).toBe(3); // %1 (the asker), %2, %9
    expect(
      await reachable(
        {kind: 'person'},
        jobs,
        (j) => j,
        () => tmux,
      ),
    ).toHaveLength(4);
  });
});
