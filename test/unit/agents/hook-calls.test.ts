// The log of every hook call (src/agents/hook-calls.ts): what doctor counts per hook, each call
// once; bounded by turning into the previous log past its size.
import {appendFileSync, readdirSync, statSync, writeFileSync} from 'node:fs';
import {join} from 'node:path';
import {expect, test} from 'vitest';
import {HOOK_CALLS_FOLDER, logHookCall, readHookCalls} from '../../../src/agents/hook-calls.js';
import {useTempDir} from '../../helpers/temp-dir.js';

test('each call is one line, read back oldest first from a time on; a line cut short is skipped', async () => {
  const state = useTempDir('nudge-calls-');
  await logHookCall(state, {atMs: 1_000, source: 'claude-stop', proven: true, pane: '%1'});
  await logHookCall(state, {atMs: 2_000, source: 'codex-notify', proven: false, why: 'no pane'});
  const dir = join(state, HOOK_CALLS_FOLDER);
  appendFileSync(join(dir, 'calls.jsonl'), '{"atMs": 3000, "sour');
  expect((statSync(dir).mode & 0o777).toString(8)).toBe('700');
  expect(await readHookCalls(dir, 0)).toEqual([
    {atMs: 1_000, source: 'claude-stop', proven: true, pane: '%1'},
    {atMs: 2_000, source: 'codex-notify', proven: false, why: 'no pane'},
  ]);
  expect((await readHookCalls(dir, 1_500)).map((c) => c.atMs)).toEqual([2_000]);
});

test('past its size the log becomes the previous one (one kept), and both are read', async () => {
  const state = useTempDir('nudge-calls-');
  const dir = join(state, HOOK_CALLS_FOLDER);
  await logHookCall(state, {atMs: 1, source: 'claude-stop', proven: true});
  writeFileSync(join(dir, 'calls.jsonl'), `${'x'.repeat(600 * 1024)}\n`);
  await logHookCall(state, {atMs: 2, source: 'claude-stop', proven: true});
  expect(readdirSync(dir).sort()).toEqual(['calls.jsonl', 'calls.old.jsonl']);
  expect(statSync(join(dir, 'calls.jsonl')).size).toBeLessThan(200);
  expect((await readHookCalls(dir, 0)).map((c) => c.atMs)).toEqual([2]);
});
