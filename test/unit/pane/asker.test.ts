// Who asks through --host (issue 61): the person stays the person; a pane — proven or claimed —
// is granted a host only by config.toml's [submit] hosts, decided here before anything leaves.
import {mkdirSync, writeFileSync} from 'node:fs';
import {hostname} from 'node:os';
import {join} from 'node:path';
import {describe, expect, test} from 'vitest';
import {askerOf, insideAnyPane, wireAskerOf} from '../../../src/pane/asker.js';
import {treeWith} from '../../helpers/fake-tree.js';
import {useTempDir} from '../../helpers/temp-dir.js';

const under = treeWith([
  {pid: 1000, command: 'node nudge'},
  {pid: 101, command: 'bash'},
  {pid: 42, command: 'tmux', name: 'tmux: server'},
]);
const outside = treeWith([{pid: 1000, command: 'node nudge'}]);

function granting(hosts: string[]): string {
  const dir = useTempDir('nudge-config-');
  mkdirSync(join(dir, 'nudge'));
  writeFileSync(join(dir, 'nudge', 'config.toml'), `[submit]\nhosts = ${JSON.stringify(hosts)}\n`);
  return dir;
}

describe('--host: the bound a request carries', () => {
  test('the person stays the person', async () => {
    const env = {XDG_CONFIG_HOME: '/nonexistent'};
    expect(wireAskerOf(await askerOf({env, pid: 1000, tree: outside}), env, 'gpu')).toEqual({
      kind: 'person',
    });
  });

  test('a pane with $TMUX_PANE stripped is a pane, granted a host only by [submit] hosts', async () => {
    const env = {XDG_CONFIG_HOME: '/nonexistent'};
    const asker = await askerOf({env, pid: 1000, tree: under});
    if (asker.kind !== 'local') throw new Error('a pane');
    expect(insideAnyPane(asker)).toBe(true);
    expect(wireAskerOf(asker, env, 'gpu')).toEqual({
      kind: 'remote',
      from: `${hostname()}:a pane`,
      host: 'gpu',
      granted: false,
    });
    const granted = {XDG_CONFIG_HOME: granting(['gpu'])};
    expect(wireAskerOf(asker, granted, 'gpu')).toMatchObject({granted: true});
    expect(wireAskerOf(asker, granted, 'other')).toMatchObject({granted: false});
  });

  test('a claim alone makes a pane too (it can only narrow)', async () => {
    const env = {TMUX: '/tmp/s,42,0', TMUX_PANE: '%1', XDG_CONFIG_HOME: '/nonexistent'};
    const asker = await askerOf({env, pid: 1000, tree: outside});
    expect(wireAskerOf(asker, env, 'gpu')).toEqual({
      kind: 'remote',
      from: `${hostname()}:%1`,
      host: 'gpu',
      granted: false,
    });
  });
});

test('one caller is proven once: a command that asks at two doors walks the tree once; each new caller afresh', async () => {
  let walks = 0;
  const counted = {
    ...under,
    ancestry: (pid: number) => {
      walks++;
      return under.ancestry(pid);
    },
  };
  const caller = {env: {}, pid: 1000, tree: counted};
  const first = await askerOf(caller);
  const second = await askerOf(caller);
  expect(walks).toBe(1);
  expect(second).toEqual(first);
  // Each ask gets its own listing of panes (a pane may move to another session meanwhile).
  if (first.kind !== 'local' || second.kind !== 'local') throw new Error('a pane');
  expect(second.panes).not.toBe(first.panes);
  await askerOf({...caller});
  expect(walks).toBe(2);
});
