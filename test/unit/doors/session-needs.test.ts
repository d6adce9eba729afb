import {mkdirSync, writeFileSync} from 'node:fs';
import {join} from 'node:path';
import {describe, expect, test} from 'vitest';
import type {HookMarkSource, NeedsMark} from '../../../src/agents/hook-marks.js';
import {sessionNeeds, withSessionNeeds} from '../../../src/doors/session-needs.js';
import {parentsTree} from '../../helpers/fake-tree.js';
import {useTempDir} from '../../helpers/temp-dir.js';

const hookMark: NeedsMark = {
  source: 'claude hook',
  kind: 'permission',
  message: 'm',
  atMs: 1,
  pane: '%1',
};

function marks(mark: NeedsMark | undefined): HookMarkSource {
  return {
    read: async () => undefined,
    readNeeds: async () => mark,
    readRefused: async () => undefined,
    version: () => 0,
    changed: async () => {},
  };
}

function home(record: Record<string, unknown>) {
  const dir = useTempDir('needs-home-');
  mkdirSync(join(dir, '.claude', 'sessions'), {recursive: true});
  const file = join(dir, '.claude', 'sessions', '300.json');
  writeFileSync(file, JSON.stringify({pid: 300, sessionId: 's', ...record}));
  return {dir, file};
}

const tree = parentsTree({300: 100}, {}, {300: 'claude'});

describe('withSessionNeeds', () => {
  test('a session waiting: its word, counted from now; idle again: the hook’s mark as before', async () => {
    const h = home({status: 'waiting', waitingFor: 'dialog open'});
    let now = 5_000;
    const source = withSessionNeeds(marks(hookMark), {
      tree,
      env: {HOME: h.dir},
      panePidOf: async () => 100,
      now: () => now,
    });
    expect(await source.readNeeds('%1')).toEqual({
      source: 'claude session record',
      kind: 'question',
      message: 'Claude Code waits for a person (its session record says: waiting for dialog open)',
      atMs: 5_000,
      pane: '%1',
    });
    writeFileSync(h.file, JSON.stringify({pid: 300, sessionId: 's', status: 'idle'}));
    now = 6_000;
    expect(await source.readNeeds('%1')).toBe(hookMark);
  });

  test('a pane without a Claude Code session: the hook’s mark only', async () => {
    const h = home({status: 'waiting'});
    const source = withSessionNeeds(marks(undefined), {
      tree,
      env: {HOME: h.dir},
      panePidOf: async () => 999,
      now: () => 0,
    });
    expect(await source.readNeeds('%2')).toBeUndefined();
  });
});

describe('sessionNeeds', () => {
  const s = {pid: 1, sessionId: 'x', configDir: '/c', file: '/c/s/1.json'};
  test('a permission prompt is a permission; busy or idle is nothing', () => {
    expect(
      sessionNeeds({...s, status: 'waiting', waitingFor: 'permission prompt'}, '%1', 9),
    ).toMatchObject({kind: 'permission', atMs: 9});
    expect(sessionNeeds({...s, status: 'busy'}, '%1', 9)).toBeUndefined();
  });
});
