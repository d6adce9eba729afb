import {mkdtempSync, rmSync, writeFileSync} from 'node:fs';
import {tmpdir} from 'node:os';
import {join} from 'node:path';
import {afterEach, describe, expect, test} from 'vitest';
import {
  compareVersions,
  doorsVerified,
  judgeVersion,
  readVerifiedTable,
  type VerifiedEntry,
  type VerifiedTable,
  versionIn,
} from '../../../src/agents/verified.js';

const entry = (program: string, version: string, over: Partial<VerifiedEntry> = {}) => ({
  program,
  version,
  tmux: '3.3a',
  node: '20.20.2',
  passed: 12,
  failed: 0,
  scenarios: [],
  date: '2026-11-25',
  ...over,
});
const table: VerifiedTable = {
  minimum: {tmux: '3.2', claude: '2.1.197'},
  entries: [
    entry('tmux', '3.3a', {passed: 40}),
    entry('tmux', '3.5a', {tmux: '3.5a', passed: 40}),
    entry('claude', '2.1.197'),
    entry('claude', '2.1.331', {tmux: '3.5a'}),
    entry('claude', '2.1.300', {failed: 2}),
  ],
};

test('versions compare part by part, a letter after its number', () => {
  expect(compareVersions('3.3a', '3.3')).toBeGreaterThan(0);
  expect(compareVersions('3.3a', '3.4')).toBeLessThan(0);
  expect(compareVersions('3.10', '3.9')).toBeGreaterThan(0);
  expect(compareVersions('2.1.331', '2.1.283')).toBeGreaterThan(0);
  expect(compareVersions('0.61.0', '0.61')).toBe(0);
  expect(versionIn('tmux 3.5a\n')).toBe('3.5a');
  expect(versionIn('2.1.331 (Claude Code)')).toBe('2.1.331');
  expect(versionIn('codex-cli 0.169.0')).toBe('0.169.0');
  expect(versionIn('tmux master')).toBeUndefined();
});

test('verified: ok, with the date, the scenarios and the tmux versions', () => {
  expect(judgeVersion(table, 'tmux', '3.5a')).toEqual({
    status: 'ok',
    detail: 'tmux 3.5a, verified on 2026-11-25 (40 scenarios).',
  });
  expect(judgeVersion(table, 'claude', '2.1.331')).toMatchObject({
    status: 'ok',
    detail: 'claude 2.1.331, verified on 2026-11-25 (12 scenarios, tmux 3.5a).',
  });
});

test('never verified (newer, or a run that failed): warn, saying what was verified', () => {
  const newer = judgeVersion(table, 'claude', '2.1.400');
  expect(newer.status).toBe('warn');
  expect(newer.detail).toBe(
    "claude 2.1.400 was never verified by nudge's tests (newer than: 2.1.331).",
  );
  expect(newer.fix).toMatch(/nudge doctor --json \(verified: 2\.1\.197, 2\.1\.331\)/);
  // A version whose run had failures is not verified.
  expect(judgeVersion(table, 'claude', '2.1.300').status).toBe('warn');
  expect(judgeVersion(table, 'tmux', '3.8')).toMatchObject({status: 'warn'});
  expect(judgeVersion(table, 'gemini', '0.61.0')).toMatchObject({status: 'warn'});
});

test('below the minimum: fail, with the upgrade', () => {
  expect(judgeVersion(table, 'claude', '2.0.9')).toEqual({
    status: 'fail',
    detail:
      'claude 2.0.9 is older than 2.1.197, the oldest nudge supports (verified: 2.1.197, 2.1.331).',
    fix: 'Upgrade claude to 2.1.331 or newer.',
  });
  expect(judgeVersion(table, 'tmux', '3.1c').status).toBe('fail');
});

const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, {recursive: true, force: true});
});

test('the shipped table reads; a missing or broken file is an empty table', () => {
  const shipped = readVerifiedTable(join(import.meta.dirname, '..', '..', '..', 'data'));
  expect(shipped.minimum.tmux).toBe('3.2');
  const dir = mkdtempSync(join(tmpdir(), 'verified-'));
  dirs.push(dir);
  expect(readVerifiedTable(dir)).toEqual({minimum: {}, entries: []});
  writeFileSync(join(dir, 'verified-versions.json'), '{not json');
  expect(readVerifiedTable(dir)).toEqual({minimum: {}, entries: []});
  writeFileSync(
    join(dir, 'verified-versions.json'),
    JSON.stringify({minimum: {tmux: '3.2'}, entries: [entry('tmux', '3.3a'), {program: 1}]}),
  );
  expect(readVerifiedTable(dir).entries).toHaveLength(1);
});

describe('doorsVerified', () => {
  test('a door counts at a version when its suite passed there, and not when any of it failed', () => {
    const entry = (version: string, scenarios: string[]) => ({
      program: 'claude',
      version,
      tmux: '3.3a',
      node: '20.20.2',
      passed: scenarios.filter((s) => !s.startsWith('FAILED')).length,
      failed: scenarios.filter((s) => s.startsWith('FAILED')).length,
      scenarios,
      date: '2026-11-26',
    });
    const table = {
      minimum: {},
      entries: [
        entry('2.1.332', [
          'claude door (claude-inbox): the inbox idle',
          'claude (default approvals) self-execution',
        ]),
        entry('2.1.333', [
          'claude door (claude-inbox): the inbox idle',
          'FAILED: claude door (claude-inbox): the inbox mid-turn',
        ]),
      ],
    };
    expect(doorsVerified(table, 'claude', '2.1.332')).toEqual(['claude-inbox']);
    expect(doorsVerified(table, 'claude', '2.1.333')).toEqual([]);
    const tmux = {minimum: {}, entries: table.entries.map((e) => ({...e, program: 'tmux'}))};
    expect(doorsVerified(tmux, 'tmux', '2.1.332')).toEqual([]);
    expect(judgeVersion(table, 'claude', '2.1.332').detail).toMatch(
      /notices through claude-inbox\)\.$/,
    );
  });
});
