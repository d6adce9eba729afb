import {readFileSync} from 'node:fs';
import {fileURLToPath} from 'node:url';
import {describe, expect, test} from 'vitest';
import type {PaneView} from '../../src/pane-view.js';
import {
  detectProfile,
  isBusy,
  isIdle,
  PROFILES,
  type ProfileName,
  readComposer,
} from '../../src/profile.js';

const DIR = fileURLToPath(new URL('../fixtures/screens/', import.meta.url));
const index = JSON.parse(readFileSync(`${DIR}index.json`, 'utf8')) as Record<
  string,
  {cursor: {x: number; y: number}}
>;

/** A captured screen of a real agent (test/fixtures/screens, see docs/agent-screens.md). */
function screen(name: string): PaneView {
  const rows = readFileSync(`${DIR}${name}.txt`, 'utf8').replace(/\n$/, '').split('\n');
  const cursor = index[name]?.cursor ?? {x: 0, y: 0};
  return {
    rows,
    firstRow: 0,
    historySize: 0,
    historyLimit: 2000,
    height: rows.length,
    width: 120,
    cursorX: cursor.x,
    cursorY: cursor.y,
    dead: false,
    alternateOn: false,
    currentCommand: 'node',
  };
}

const AGENTS: ProfileName[] = ['claude', 'gemini', 'codex'];

describe.each(AGENTS)('%s profile on its real screens', (agent) => {
  const p = PROFILES[agent];
  test('the idle composer is empty, and idle', () => {
    const v = screen(`${agent}-idle-empty`);
    expect(readComposer(p, v)).toBe('');
    expect(isBusy(p, v)).toBe(false);
    expect(isIdle(p, v)).toBe(true);
  });
  test('a draft is read back exactly', () => {
    expect(readComposer(p, screen(`${agent}-draft`))).toBe('refactor the parser please');
  });
  test('busy after a prompt, with the composer still readable', () => {
    const v = screen(`${agent}-busy`);
    expect(isBusy(p, v)).toBe(true);
    expect(isIdle(p, v)).toBe(false);
    expect(readComposer(p, screen(`${agent}-busy-draft`))).toBe('and also this follow up');
  });
  test('a pasted text with @ and name.ext is shown exactly', () => {
    expect(readComposer(p, screen(`${agent}-pasted`))).toBe('look at @notes.txt and main.ts now');
  });
  test('is recognised from its screen when the pane runs node', () => {
    for (const state of ['idle-empty', 'draft', 'busy']) {
      const v = screen(`${agent}-${state}`);
      expect(detectProfile('node', v.rows.join('\n')).profile.name).toBe(agent);
    }
  });
});

test('detection by command name', () => {
  expect(detectProfile('claude', '').profile.name).toBe('claude');
  expect(detectProfile('codex', '').profile.name).toBe('codex');
  expect(detectProfile('bash', '').profile.name).toBe('shell');
  expect(detectProfile('python3', 'hello').profile.name).toBe('raw');
});

test('a shell input line is read after the prompt', () => {
  const v = (line: string): PaneView => ({
    rows: ['out', line],
    firstRow: 0,
    historySize: 0,
    historyLimit: 2000,
    height: 2,
    width: 80,
    cursorX: line.length,
    cursorY: 1,
    dead: false,
    alternateOn: false,
    currentCommand: 'bash',
  });
  expect(readComposer(PROFILES.shell, v('user@host:~/src$ '))).toBe('');
  expect(readComposer(PROFILES.shell, v('user@host:~/src$ git comm'))).toBe('git comm');
  expect(readComposer(PROFILES.shell, v('no prompt here'))).toBeUndefined();
});
