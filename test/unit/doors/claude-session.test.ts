import {mkdirSync, writeFileSync} from 'node:fs';
import {join} from 'node:path';
import {describe, expect, test} from 'vitest';
import {
  checkSessionRecord,
  claudeConfigDirs,
  sessionOfPane,
} from '../../../src/doors/claude-session.js';
import {parentsTree} from '../../helpers/fake-tree.js';
import {useTempDir} from '../../helpers/temp-dir.js';

const treeOf = parentsTree;

function configWith(records: Array<Record<string, unknown>>): string {
  const dir = useTempDir('claude-config-');
  mkdirSync(join(dir, 'sessions'));
  for (const r of records) writeFileSync(join(dir, 'sessions', `${r.pid}.json`), JSON.stringify(r));
  writeFileSync(join(dir, 'sessions', '77.json'), '{"pid": 77, "sess'); // being written
  return dir;
}

const record = (pid: number, extra: Record<string, unknown> = {}) => ({
  pid,
  sessionId: `s-${pid}`,
  procStart: '1000',
  version: '2.1.332',
  messagingSocketPath: `/tmp/cc-socks/${pid}.sock`,
  status: 'idle',
  ...extra,
});

describe('sessionOfPane', () => {
  test('the record of a process descending from the pane, never another pane’s', async () => {
    const dir = configWith([record(300), record(500)]);
    // pane 100 → bash 200 → claude 300; another pane 400 → claude 500
    const tree = treeOf({300: 200, 200: 100, 100: 1, 500: 400, 400: 1}, {300: '1000', 500: '1000'});
    const found = await sessionOfPane(tree, 100, [dir]);
    expect('session' in found && found.session).toMatchObject({
      pid: 300,
      socket: '/tmp/cc-socks/300.sock',
      status: 'idle',
    });
    expect(await sessionOfPane(tree, 999, [dir])).toMatchObject({
      why: 'none of the 2 Claude Code session record(s) is of a process in the pane',
    });
  });

  test('a record whose pid now names another process (its start differs) is not the session', async () => {
    const dir = configWith([record(300)]);
    const found = await sessionOfPane(treeOf({300: 100}, {300: '9999'}), 100, [dir]);
    expect(found).toHaveProperty('why');
  });

  test('no sessions folder: says where it looked', async () => {
    const found = await sessionOfPane(treeOf({}), 100, ['/nonexistent/.claude']);
    expect(found).toEqual({why: 'no Claude Code session record in /nonexistent/.claude/sessions'});
  });
});

describe('checkSessionRecord and claudeConfigDirs', () => {
  test('only records of the known shape', () => {
    const at = {configDir: '/c', file: '/c/sessions/1.json'};
    expect(checkSessionRecord({pid: -1, sessionId: 'a'}, at)).toBeUndefined();
    expect(checkSessionRecord({pid: 1, sessionId: '../x'}, at)).toBeUndefined();
    expect(
      checkSessionRecord({pid: 1, sessionId: 'a', waitingFor: 'dialog open'}, at),
    ).toMatchObject({pid: 1, waitingFor: 'dialog open'});
  });
  test('CLAUDE_CONFIG_DIR first, then HOME/.claude', () => {
    expect(claudeConfigDirs({HOME: '/h', CLAUDE_CONFIG_DIR: '/c'})).toEqual(['/c', '/h/.claude']);
    expect(claudeConfigDirs({})).toEqual([]);
  });
});
