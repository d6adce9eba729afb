import {mkdtempSync, rmSync} from 'node:fs';
import {tmpdir} from 'node:os';
import {join} from 'node:path';
import {expect, onTestFinished, test} from 'vitest';
import {hookMarkSource, recordHookMark} from '../../../src/agents/hook-marks.js';

const server = {socketPath: '/tmp/t/sock', serverPid: 42};

function stateDir(): string {
  const dir = mkdtempSync(join(tmpdir(), 'nudge-marks-'));
  onTestFinished(() => rmSync(dir, {recursive: true, force: true}));
  return dir;
}

test('a mark written after the job looked is seen at once, not at the backstop', async () => {
  const dir = stateDir();
  const marks = hookMarkSource(dir, server);
  // Start watching, as a waiting job does on its first look.
  await marks.changed(AbortSignal.timeout(5_000), 1, marks.version());
  const seen = marks.version();
  expect(await marks.read('%3')).toBeUndefined();
  // The hook lands between the job's read and its next wait.
  await recordHookMark(dir, {...server, pane: '%3'}, {source: 'claude-stop', atMs: 1, pane: '%3'});
  const started = Date.now();
  await marks.changed(AbortSignal.timeout(60_000), 30_000, seen);
  expect(Date.now() - started).toBeLessThan(10_000);
  expect(await marks.read('%3')).toMatchObject({source: 'claude-stop', pane: '%3'});
});

test('a mark written while the job waits wakes it before the backstop', async () => {
  const dir = stateDir();
  const marks = hookMarkSource(dir, server);
  await marks.changed(AbortSignal.timeout(5_000), 1, marks.version());
  const waiting = marks.changed(AbortSignal.timeout(60_000), 30_000, marks.version());
  const started = Date.now();
  await recordHookMark(dir, {...server, pane: '%4'}, {source: 'codex-notify', atMs: 2, pane: '%4'});
  await waiting;
  expect(Date.now() - started).toBeLessThan(10_000);
});

test('a wait is cancelled by its signal', async () => {
  const marks = hookMarkSource(stateDir(), server);
  const stop = new AbortController();
  const waiting = marks.changed(stop.signal, 30_000, marks.version());
  stop.abort(new Error('cancelled'));
  await expect(waiting).rejects.toThrow('cancelled');
});
