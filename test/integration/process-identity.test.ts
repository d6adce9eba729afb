// Process identity with real processes, through each process view (/proc, and ps as on
// macOS): a pid is the recorded process only while its start time matches; an exited but
// unreaped process (a zombie) answers signal 0 but is not running, and is never signalled.
import {spawn} from 'node:child_process';
import {writeFileSync} from 'node:fs';
import {join} from 'node:path';
import {describe, expect, onTestFinished, test, vi} from 'vitest';
import {
  identify,
  isPidAlive,
  isRunning,
  processId,
  signalProcess,
} from '../../src/process/identity.js';
import {PROCESS_VIEWS} from '../helpers/run-nudge.js';
import {useTempDir} from '../helpers/temp-dir.js';
import {waitFor} from '../helpers/wait-for.js';

/** A real process that has exited but is not reaped: `sh` starts `sleep 1` in the background,
 * prints its pid, then becomes `sleep 30`, which never waits for it. */
async function zombie(): Promise<{pid: number; parent: number}> {
  const parent = spawn('sh', ['-c', 'sleep 1 & echo $!; exec sleep 30'], {
    stdio: ['ignore', 'pipe', 'ignore'],
  });
  onTestFinished(() => {
    parent.kill('SIGKILL');
  });
  const pid = await new Promise<number>((resolve) =>
    parent.stdout.once('data', (d: Buffer) => resolve(Number.parseInt(d.toString(), 10))),
  );
  return {pid, parent: parent.pid ?? 0};
}

describe.each(PROCESS_VIEWS)('through the %s reader', (view) => {
  test('an exited, unreaped process answers signal 0 but is not running, and is not signalled', async () => {
    vi.stubEnv('NUDGE_PROCESS_VIEW', view);
    onTestFinished(() => void vi.unstubAllEnvs());
    const {pid} = await zombie();
    // Recorded while it runs (its start time read by this reader).
    const id = processId(pid);
    expect(id.start).toMatch(view === 'ps' ? /^@\d+$/ : /^\d+$/);
    expect(identify(id)).toBe('running');
    await waitFor(
      'the background sleep to exit',
      async () => identify(id) === 'gone' || undefined,
      {
        timeoutMs: 10_000,
        describe: () => `pid ${pid} still looks like it runs`,
      },
    );
    expect(isPidAlive(pid)).toBe(true);
    expect(signalProcess(id, 'SIGTERM', false)).toBe(false);
  });

  test('a pid is the recorded process only while its start time matches; one never recorded is not', async () => {
    vi.stubEnv('NUDGE_PROCESS_VIEW', view);
    onTestFinished(() => void vi.unstubAllEnvs());
    const child = spawn('sleep', ['30'], {stdio: 'ignore'});
    onTestFinished(() => {
      child.kill('SIGKILL');
    });
    const id = processId(child.pid ?? 0);
    expect(isRunning(id)).toBe(true);
    // The same pid with another start time is a reused pid: never ours, never signalled.
    const other =
      view === 'ps' ? `@${Number(id.start?.slice(1)) - 3600}` : String(Number(id.start) + 1);
    const stranger = {pid: id.pid, start: other};
    expect(identify(stranger)).toBe('other');
    expect(signalProcess(stranger, 'SIGTERM', false)).toBe(false);
    // No start time recorded (a record from before this check): it cannot be tied either.
    expect(identify({pid: id.pid})).toBe('other');
    expect(isRunning(id)).toBe(true);
    expect(signalProcess(id, 'SIGTERM', false)).toBe(true);
    await waitFor('sleep to end', async () => (isRunning(id) ? undefined : true), {
      timeoutMs: 10_000,
      describe: () => `sleep ${id.pid} did not end`,
    });
  });
});

test('a ps that cannot answer (it fails, it hangs) is "cannot tell": the process is not called gone, and never signalled', async () => {
  const dir = useTempDir('nudge-broken-ps-');
  // A ps that fails as a hung or broken one does (exit 2, nothing printed).
  writeFileSync(join(dir, 'ps'), '#!/bin/sh\nexit 2\n', {mode: 0o755});
  vi.stubEnv('NUDGE_PROCESS_VIEW', 'ps');
  const child = spawn('sleep', ['30'], {stdio: 'ignore'});
  onTestFinished(() => {
    child.kill('SIGKILL');
    vi.unstubAllEnvs();
  });
  const pid = child.pid ?? 0;
  // Recorded while ps worked.
  const id = processId(pid);
  expect(id.start).toMatch(/^@\d+$/);
  vi.stubEnv('PATH', `${dir}:${process.env.PATH ?? ''}`);
  expect(identify(id)).toBe('unknown');
  // Alive as far as anyone can tell: no job of it is called lost…
  expect(isRunning(id)).toBe(true);
  // …and nothing is sent to a pid nobody could tie to the record.
  expect(signalProcess(id, 'SIGTERM', false)).toBe(false);
  expect(isPidAlive(pid)).toBe(true);
});
