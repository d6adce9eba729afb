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

/** The command lines of the processes of these tests: Claude Code as npm installs it. */
const CLAUDE = '/usr/lib/node_modules/@anthropic-ai/claude-code/bin/claude.exe';
const commands = {100: 'bash', 200: 'bash', 300: CLAUDE, 400: 'bash', 500: 'claude', 600: 'bash'};

describe('sessionOfPane', () => {
  test('the record of the Claude Code process of the pane, never another pane’s', async () => {
    const dir = configWith([record(300), record(500)]);
    // pane 100 → bash 200 → claude 300; another pane 400 → claude 500
    const tree = treeOf(
      {300: 200, 200: 100, 100: 1, 500: 400, 400: 1},
      {300: '1000', 500: '1000'},
      commands,
    );
    const found = await sessionOfPane(tree, 100, [dir]);
    expect('session' in found && found.session).toMatchObject({
      pid: 300,
      socket: '/tmp/cc-socks/300.sock',
      status: 'idle',
    });
    expect(await sessionOfPane(tree, 999, [dir])).toMatchObject({
      why: 'none of the 2 Claude Code session record(s) is of the Claude Code process in the pane',
    });
  });

  test('a record whose pid now names another process (its start differs) is not the session', async () => {
    const dir = configWith([record(300)]);
    const found = await sessionOfPane(treeOf({300: 100}, {300: '9999'}, commands), 100, [dir]);
    expect(found).toHaveProperty('why');
  });

  test('forged records (issue 61): a process of the pane that is not Claude Code, one without a start time, one below Claude', async () => {
    // pane 100 → claude 300 → bash 600 (its Bash tool) → 700 named claude, with a record.
    const parents = {300: 100, 600: 300, 700: 600, 200: 100};
    const starts = {300: '1000', 600: '1000', 700: '1000', 200: '1000'};
    const named = {...commands, 700: 'claude', 200: 'bash'};
    const tree = treeOf(parents, starts, named);
    // A bash of the pane wrote a record with its own pid: not Claude Code.
    expect(await sessionOfPane(tree, 100, [configWith([record(200)])])).toHaveProperty('why');
    // A record without procStart, where the process's start can be read.
    const noStart = configWith([record(300, {procStart: undefined})]);
    expect(await sessionOfPane(tree, 100, [noStart])).toHaveProperty('why');
    // A process named claude below the real one: the real one, nearest the pane, is the session.
    const both = configWith([record(700), record(300)]);
    const found = await sessionOfPane(tree, 100, [both]);
    expect('session' in found && found.session.pid).toBe(300);
    // One the pane's shell started in the background, named claude: not the terminal's
    // foreground (Claude is, in group 300), so not the session.
    const fg = {group: 300, foreground: 300};
    const beside = treeOf(
      {300: 100, 800: 100},
      {300: '1000', 800: '1000'},
      {...commands, 800: 'claude'},
      {100: {group: 100, foreground: 300}, 300: fg, 800: {group: 800, foreground: 300}},
    );
    const forged = await sessionOfPane(beside, 100, [configWith([record(800), record(300)])]);
    expect('session' in forged && forged.session.pid).toBe(300);
    expect(await sessionOfPane(beside, 100, [configWith([record(800)])])).toHaveProperty('why');
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
