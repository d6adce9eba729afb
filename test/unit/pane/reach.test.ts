// The one reach check (issues 42 and 61): who asks (the person outside tmux, or a process in a
// pane — the one its process tree proves, bounded further by what its environment claims) and
// what it may reach.
import {mkdirSync, writeFileSync} from 'node:fs';
import {join} from 'node:path';
import {describe, expect, test} from 'vitest';
import {askerOf} from '../../../src/pane/asker.js';
import {
  askerPane,
  checkReachOf,
  REMOTE_ASKER_VAR,
  reachable,
  remoteAskerOf,
  whyUnreachable,
} from '../../../src/pane/reach.js';
import type {ProcessLink} from '../../../src/process/tree.js';
import type {Tmux} from '../../../src/tmux/tmux.js';
import {paneRow, treeWith} from '../../helpers/fake-tree.js';
import {useTempDir} from '../../helpers/temp-dir.js';

const SOCKET = '/tmp/tmux-0/default';
const CLAIM = {TMUX: `${SOCKET},42,0`, TMUX_PANE: '%1', XDG_CONFIG_HOME: '/nonexistent'};
/** Server 42's panes: %1 (first process 101) and %2 (102) in $0, %9 (109) in $3. */
let listed = 0;
const tmux = {
  paneStates: async () => {
    listed++;
    return [
      paneRow('%1', '$0', {panePid: 101, tty: '/dev/pts/1'}),
      paneRow('%2', '$0', {panePid: 102, tty: '/dev/pts/2'}),
      paneRow('%9', '$3', {panePid: 109, tty: '/dev/pts/9'}),
    ];
  },
} as unknown as Tmux;
const at = (pane: string, socketPath = SOCKET, serverPid = 42) => ({socketPath, serverPid, pane});

/** nudge (pid 1000) under a shell under the first process of the pane `panePid` of server 42. */
const inPane = (panePid: number): ProcessLink[] => [
  {pid: 1000, command: 'node nudge'},
  {pid: 900, command: 'bash'},
  {pid: panePid, command: 'bash'},
  {pid: 42, command: 'tmux -L x new-session', name: 'tmux: server'},
  {pid: 1, command: 'init'},
];
const outside: ProcessLink[] = [
  {pid: 1000, command: 'node nudge'},
  {pid: 1, command: 'init'},
];
const asking = (env: Record<string, string>, chain: ProcessLink[], terminal?: string) =>
  askerOf({
    env: {XDG_CONFIG_HOME: '/nonexistent', ...env},
    pid: 1000,
    tree: treeWith(chain, terminal),
  });

describe('who asks', () => {
  test('outside tmux with nothing claimed and no terminal: the person', async () => {
    expect(await asking({}, outside)).toEqual({kind: 'person'});
  });

  test('config.toml [submit] panes = "server" widens a pane to its server', async () => {
    const dir = useTempDir('nudge-config-');
    mkdirSync(join(dir, 'nudge'));
    writeFileSync(join(dir, 'nudge', 'config.toml'), '[submit]\npanes = "server"\n');
    const asker = await asking({XDG_CONFIG_HOME: dir}, inPane(102));
    expect(asker).toMatchObject({kind: 'local', reach: 'server'});
    expect(await whyUnreachable(asker, at('%9'), () => tmux)).toBeUndefined();
  });
});

describe('what it may reach', () => {
  test('the person: everything; a pane: its session, never another session or server', async () => {
    expect(await whyUnreachable({kind: 'person'}, at('%9'), () => tmux)).toBeUndefined();
    const pane = await asking({}, inPane(101));
    expect(await whyUnreachable(pane, at('%2'), () => tmux)).toBeUndefined();
    expect(await whyUnreachable(pane, at('%9'), () => tmux)).toBe(
      `it is in another session than the pane nudge runs in (%1), and config.toml's [submit] panes is not "server"`,
    );
    // A pane gone (its session unknown) is not within a session's reach.
    expect(await whyUnreachable(pane, at('%5'), () => tmux)).toMatch(/another session/);
  });

  test('the environment stripped: the proven pane bounds the call all the same', async () => {
    const stripped = await asking({}, inPane(101));
    expect(await whyUnreachable(stripped, at('%9'), () => tmux)).toMatch(
      /another session than the pane nudge runs in \(%1\)/,
    );
  });

  test('a claim that names another pane narrows, never widens', async () => {
    // Proven %1 ($0), claiming %9 ($3): %9 is refused by the proof, %2 by the claim.
    const forged = await asking({...CLAIM, TMUX_PANE: '%9'}, inPane(101));
    expect(await whyUnreachable(forged, at('%9'), () => tmux)).toMatch(/\(%1\)/);
    expect(await whyUnreachable(forged, at('%2'), () => tmux)).toMatch(/\(%9\)/);
    expect(await whyUnreachable(forged, at('%1'), () => tmux)).toMatch(/\(%9\)/);
    // Outside tmux, a claim alone bounds as before.
    const claimed = await asking(CLAIM, outside);
    expect(await whyUnreachable(claimed, at('%2'), () => tmux)).toBeUndefined();
    expect(await whyUnreachable(claimed, at('%9'), () => tmux)).toMatch(/\(%1\)/);
    expect(await whyUnreachable(claimed, at('%2', '/tmp/other', 7), () => tmux)).toMatch(
      /another tmux server than the pane nudge runs in \(%1\)/,
    );
  });

  test('in a pane of another tmux server: to this one, the person (its claims still bound it)', async () => {
    const chain: ProcessLink[] = [
      {pid: 1000, command: 'node nudge'},
      {pid: 500, command: 'bash'},
      {pid: 77, command: 'tmux new -s mine'},
    ];
    expect(await whyUnreachable(await asking({}, chain), at('%9'), () => tmux)).toBeUndefined();
    const claimed = await asking({TMUX: '/tmp/mine,77,0', TMUX_PANE: '%0'}, chain);
    expect(await whyUnreachable(claimed, at('%9'), () => tmux)).toMatch(/another tmux server/);
  });

  test("left the pane's process tree but kept its terminal: that pane", async () => {
    const asker = await asking({}, outside, '/dev/pts/2');
    expect(asker.kind).toBe('local');
    expect(await whyUnreachable(asker, at('%1'), () => tmux)).toBeUndefined();
    expect(await whyUnreachable(asker, at('%9'), () => tmux)).toMatch(/\(%2\)/);
    // The person's own terminal is no pane's: everything.
    const person = await asking({}, outside, '/dev/pts/40');
    expect(await whyUnreachable(person, at('%9'), () => tmux)).toBeUndefined();
  });

  test("a key binding's run-shell (below the server, in no pane) is the person's", async () => {
    const chain: ProcessLink[] = [
      {pid: 1000, command: 'node nudge'},
      {pid: 600, command: 'sh -c nudge top'},
      {pid: 42, command: 'tmux', name: 'tmux: server'},
    ];
    expect(await whyUnreachable(await asking({}, chain), at('%9'), () => tmux)).toBeUndefined();
  });

  test('a refusal is one sentence, exit 2 (out-of-reach)', async () => {
    await expect(
      checkReachOf(
        await asking({}, inPane(101)),
        at('%9'),
        () => tmux,
        'Job j1 (pane %9) is out of reach',
      ),
    ).rejects.toMatchObject({
      code: 'out-of-reach',
      message: `Job j1 (pane %9) is out of reach: it is in another session than the pane nudge runs in (%1), and config.toml's [submit] panes is not "server".`,
    });
  });

  test("a list keeps what is in reach, the server's panes listed once", async () => {
    listed = 0;
    const jobs = [at('%2'), at('%9'), at('%2'), at('%9')];
    const asker = await asking(CLAIM, inPane(101));
    expect(
      await reachable(
        asker,
        jobs,
        (j) => j,
        () => tmux,
      ),
    ).toEqual([at('%2'), at('%2')]);
    expect(listed).toBe(1);
    expect(
      await reachable(
        {kind: 'person'},
        jobs,
        (j) => j,
        () => tmux,
      ),
    ).toHaveLength(4);
  });

  test('a job records the proven pane as who submitted it, else the claimed one', async () => {
    const proven = await asking({...CLAIM, TMUX_PANE: '%9'}, inPane(102));
    if (proven.kind !== 'local') throw new Error('a pane');
    expect(await askerPane(proven, at('%1'), () => tmux)).toEqual({
      socketPath: SOCKET,
      pane: '%2',
      sessionId: '$0',
    });
    const claimed = await asking(CLAIM, outside);
    if (claimed.kind !== 'local') throw new Error('a claim');
    expect(await askerPane(claimed, at('%1'), () => tmux)).toEqual({
      socketPath: SOCKET,
      pane: '%1',
      sessionId: '$0',
    });
  });
});

describe('--host: the far end reading the bound a request carries', () => {
  test('read fail-closed; honoured only where nothing proves or claims a pane', async () => {
    const closed = {kind: 'remote', from: '?', host: '?', granted: false};
    for (const bad of [undefined, null, 'person', {kind: 'pane'}, {kind: 'remote', granted: 'yes'}])
      expect(remoteAskerOf(bad)).toEqual(closed);
    expect(remoteAskerOf({kind: 'person'})).toEqual({kind: 'person'});
    const wire = JSON.stringify({kind: 'remote', from: 'a:%1', host: 'gpu', granted: false});
    const asker = await asking({[REMOTE_ASKER_VAR]: wire}, outside);
    expect(await whyUnreachable(asker, at('%9'), () => tmux)).toBe(
      'the pane that asked (a:%1) is on another host, whose config.toml [submit] hosts does not name gpu',
    );
    expect(await asking({[REMOTE_ASKER_VAR]: 'not json'}, outside)).toEqual(closed);
    // Inside a pane the variable changes nothing: the pane's own bound holds.
    const person = JSON.stringify({kind: 'person'});
    const inside = await asking({[REMOTE_ASKER_VAR]: person}, inPane(101));
    expect(await whyUnreachable(inside, at('%9'), () => tmux)).toMatch(/another session/);
  });
});
