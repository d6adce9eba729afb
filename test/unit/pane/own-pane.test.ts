import {describe, expect, test} from 'vitest';
import type {SharedServer} from '../../../src/agents/identity.js';
import {PROFILES} from '../../../src/agents/registry.js';
import {
  describeOwnPane,
  judgeAncestry,
  proveOwnPane,
  unprovenPaneError,
} from '../../../src/pane/own-pane.js';
import {ancestryOf, parsePsTable} from '../../../src/process/tree.js';
import type {Tmux} from '../../../src/tmux/tmux.js';
import {paneRow, parentsTree} from '../../helpers/fake-tree.js';

/** The shared servers the built-in profiles name (Codex's app-server, opencode's serve). */
const servers: SharedServer[] = (['codex', 'opencode'] as const).flatMap((agent) =>
  (PROFILES[agent]?.identity?.servers ?? []).map((pattern) => ({
    agent,
    pattern,
    thread: PROFILES[agent]?.identity?.thread,
    titleThread: PROFILES[agent]?.identity?.titleThread,
    programs: PROFILES[agent]?.programs ?? [],
  })),
);

/** The process table measured with Codex 0.171.0: two sessions of one HOME in panes %1 (its
 * first process 3440) and %2 (3478); the app-server a child of pane %1's codex, and the tool
 * call of pane %2's session under it. */
const MEASURED = `
    1     0 /sbin/init
 3436     1 tmux -S /tmp/nudge-tmux-x/sock -f /dev/null new-session -d -s main
 3440  3436 node /agents/codex/node_modules/.bin/codex
 3453  3440 /agents/codex/node_modules/@openai/codex-linux-x64/vendor/x86_64-unknown-linux-musl/bin/codex
 3514  3453 /home/.codex/packages/app-server-daemon/releases/0.171.0-x86_64-unknown-linux-musl/bin/codex app-server --listen unix:// --analytics-default-enabled --managed-daemon
 3726  3514 /bin/bash -c nudge submit --notify-pane self -- 'make test'
 3730  3726 node /nudge/dist/src/cli.js submit --notify-pane self -- make test
 3478  3436 node /agents/codex/node_modules/.bin/codex
 3491  3478 /agents/codex/node_modules/@openai/codex-linux-x64/vendor/x86_64-unknown-linux-musl/bin/codex
 3600  3491 /bin/bash -c nudge doctor
 3601  3600 node /nudge/dist/src/cli.js doctor
`;
const table = parsePsTable(MEASURED);
const panes = new Map([
  [3440, '%1'],
  [3478, '%2'],
]);

describe('which pane a call comes from', () => {
  test('a call under the shared app-server proves no pane, though $TMUX_PANE and the tree both say %1', () => {
    const own = judgeAncestry(ancestryOf(table, 3730), panes, servers, '%1', {
      CODEX_THREAD_ID: '01a21faf-041e',
    });
    expect(own).toMatchObject({kind: 'unproven', claimed: '%1'});
    const sentence = unprovenPaneError(
      '--notify-pane self names the pane nudge runs in',
      own as Extract<typeof own, {kind: 'unproven'}>,
      'pass --notify-pane %N',
    ).message;
    expect(sentence).toBe(
      "--notify-pane self names the pane nudge runs in, but $TMUX_PANE says %1 and nudge cannot prove that is its pane: it runs under the codex server that all codex sessions share (pid 3514: codex app-server --listen unix:// --analytics-default-ena...), which hands every session's calls the environment of the pane that started it (this call is from codex thread 01a21faf-041e); nothing was typed: pass --notify-pane %N.",
    );
    expect(sentence.split('. ')).toHaveLength(1);
  });

  test('a call in a pane (its tool as a child of the TUI) is proven, whatever $TMUX_PANE says', () => {
    expect(judgeAncestry(ancestryOf(table, 3601), panes, servers, '%2')).toEqual({
      kind: 'proven',
      pane: '%2',
      panePid: 3478,
    });
    const forged = judgeAncestry(ancestryOf(table, 3601), panes, servers, '%1');
    expect(forged).toEqual({kind: 'proven', pane: '%2', panePid: 3478, claimed: '%1'});
    expect(describeOwnPane(forged)).toMatch(
      /^%2, proven: .*\$TMUX_PANE said %1, which is not believed/,
    );
  });

  test("a TUI attached to opencode's headless server: its tool runs under the server in another pane, and proves none", () => {
    // Measured with opencode 1.18.33: `opencode serve` in %1 (10946), `opencode attach` in %2.
    const measured = parsePsTable(`
10942     1 tmux -S /tmp/nudge-tmux-x/sock -f /dev/null new-session -d -s main
10946 10942 /agents/opencode/node_modules/.bin/opencode serve --port 47391
11167 10946 /bin/bash -c nudge submit --notify-pane self -- make
11170 11167 node /nudge/dist/src/cli.js submit --notify-pane self -- make
10989 10942 /agents/opencode/node_modules/.bin/opencode attach http://127.0.0.1:47391
`);
    const own = judgeAncestry(
      ancestryOf(measured, 11170),
      new Map([
        [10946, '%1'],
        [10989, '%2'],
      ]),
      servers,
      '%1',
    );
    expect(own).toMatchObject({kind: 'unproven', claimed: '%1'});
    expect(describeOwnPane(own)).toMatch(
      /it runs under the opencode server that all opencode sessions share \(pid 10946: opencode serve --port 47391\)/,
    );
  });

  test('without the profiles naming the server, the tree alone would name the wrong pane (%1)', () => {
    expect(judgeAncestry(ancestryOf(table, 3730), panes, [], '%1')).toMatchObject({
      kind: 'proven',
      pane: '%1',
    });
  });

  test('a process in no pane of the server (a detached one, another server) proves nothing', () => {
    const own = judgeAncestry(ancestryOf(table, 3436), panes, servers, '%2');
    expect(own).toMatchObject({kind: 'unproven', claimed: '%2'});
    expect(describeOwnPane(own)).toMatch(/does not run in any pane of that tmux server/);
    expect(judgeAncestry([], panes, servers, '%2')).toMatchObject({
      why: 'its process ancestry could not be read',
    });
  });

  test("a call under the shared app-server is proven by its thread where that pane's title shows it, and its codex is in front (issue 63)", async () => {
    const thread = '01a24b21-d1b5-7572-85b0-d522fb2891d3';
    const tmux = {
      paneStates: async () => [
        paneRow('%1', '$1', {panePid: 3440, title: 'work | 01a24b21-aaaa-7572-85b0-d522f...'}),
        paneRow('%2', '$1', {panePid: 3478, title: `work | ${thread.slice(0, 29)}...`}),
      ],
    } as unknown as Tmux;
    const tree = {
      ...parentsTree(
        Object.fromEntries([...table].map(([pid, r]) => [pid, r.ppid])),
        {},
        Object.fromEntries([...table].map(([pid, r]) => [pid, r.command])),
        {3440: {group: 3440, foreground: 3440}, 3478: {group: 3478, foreground: 3478}},
      ),
    };
    const deps = {tmux, tree, pid: 3730, servers: () => servers};
    const env = {TMUX_PANE: '%1', CODEX_THREAD_ID: thread};
    const own = await proveOwnPane({...deps, env});
    expect(own).toMatchObject({kind: 'proven', pane: '%2', claimed: '%1'});
    expect(describeOwnPane(own)).toBe(
      `%2, proven: the call is from codex thread ${thread}, which that pane's title shows; $TMUX_PANE said %1, which is not believed`,
    );
    // A thread no pane shows, where the panes show theirs: a side thread of a session.
    const other = {...env, CODEX_THREAD_ID: '01a24b21-ffff-7572-85b0-d522fb2891d3'};
    expect(await proveOwnPane({...deps, env: other})).toMatchObject({
      kind: 'unproven',
      side: true,
      why: expect.stringMatching(
        /; thread 01a24b21-ffff-\S+ is no pane's: a side thread of a codex session$/,
      ),
    });
    // No pane shows a thread at all (a title of the person's own): refused, saying how to mend.
    const untitled = {
      ...deps,
      tmux: {
        paneStates: async () => [paneRow('%2', '$1', {panePid: 3478, title: 'work'})],
      } as unknown as Tmux,
    };
    const refused = await proveOwnPane({...untitled, env});
    expect(refused).toMatchObject({
      kind: 'unproven',
      why: expect.stringMatching(
        /; no pane running codex shows thread 01a24b21-d1b5-\S+ in its title \(nudge install codex has it shown there\)$/,
      ),
    });
    expect(refused).not.toHaveProperty('side');
  });

  test("in its pane (codex --no-daemon), a call from another thread than the pane's title shows is a side thread's: no pane's (issue 63)", async () => {
    const main = '01a24b21-d1b5-7572-85b0-d522fb2891d3';
    const titled = (title: string) =>
      ({paneStates: async () => [paneRow('%2', '$1', {panePid: 3478, title})]}) as unknown as Tmux;
    const tree = parentsTree(
      Object.fromEntries([...table].map(([pid, r]) => [pid, r.ppid])),
      {},
      Object.fromEntries([...table].map(([pid, r]) => [pid, r.command])),
    );
    const prove = (title: string, thread: string) =>
      proveOwnPane({
        tmux: titled(title),
        tree,
        pid: 3601,
        servers: () => servers,
        env: {TMUX_PANE: '%2', CODEX_THREAD_ID: thread},
      });
    const shown = `⠋ work | ${main.slice(0, 29)}`;
    expect(await prove(shown, main)).toMatchObject({kind: 'proven', pane: '%2'});
    const side = await prove(shown, '01a24b21-ffff-7572-85b0-d522fb2891d3');
    expect(side).toMatchObject({kind: 'unproven', claimed: '%2', side: true});
    expect(describeOwnPane(side)).toBe(
      "$TMUX_PANE says %2, not proven: thread 01a24b21-ffff-7572-85b0-d522fb2891d3 is not the one pane %2's title shows: a side thread of its codex session",
    );
    // A title that shows no thread (the person's own) says nothing: the tree decides.
    expect(await prove('work', '01a24b21-ffff-7572-85b0-d522fb2891d3')).toMatchObject({
      kind: 'proven',
      pane: '%2',
    });
  });

  test('nothing claimed and self not asked: no walk, no tmux call', async () => {
    const tmux = {
      paneStates: async () => {
        throw new Error('not asked');
      },
    } as unknown as Tmux;
    const tree = {
      parentOf: async () => undefined,
      procStartOf: async () => undefined,
      terminalOf: async () => undefined,
      groupsOf: async () => undefined,
      ancestry: async () => {
        throw new Error('not asked');
      },
    };
    expect(await proveOwnPane({tmux, tree, pid: 1, env: {}, servers: () => servers})).toEqual({
      kind: 'outside',
    });
  });

  test('the ps listing parses as macOS and procps print it (right-aligned pids, spaces in the command)', () => {
    const mac = parsePsTable(
      '  501     1 /Applications/Ghostty.app/Contents/MacOS/ghostty -l\n    7   501 -zsh\n',
    );
    expect(ancestryOf(mac, 7)).toEqual([
      {pid: 7, command: '-zsh'},
      {pid: 501, command: '/Applications/Ghostty.app/Contents/MacOS/ghostty -l'},
    ]);
  });
});
