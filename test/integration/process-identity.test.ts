import {spawn} from 'node:child_process';
import {expect, onTestFinished, test} from 'vitest';
import {isPidAlive, isRunning, processId, signalProcess} from '../../src/process/identity.js';
import {waitFor} from '../helpers/wait-for.js';

/** A real process that has exited but is not reaped: `sh` starts `sleep 0` in the background,
 * prints its pid, then becomes `sleep 30`, which never waits for it. */
async function zombie(): Promise<{pid: number; parent: number}> {
  const parent = spawn('sh', ['-c', 'sleep 0 & echo $!; exec sleep 30'], {
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

test('an exited, unreaped process answers signal 0 but is not running', async () => {
  if (process.platform !== 'linux') return;
  const {pid} = await zombie();
  await waitFor('the background sleep to exit', async () => (isRunning({pid}) ? undefined : true), {
    timeoutMs: 10_000,
    describe: () => `pid ${pid} still looks like it runs`,
  });
  expect(isPidAlive(pid)).toBe(true);
  expect(signalProcess({pid}, 'SIGTERM', false)).toBe(false);
});

test('a pid is the recorded process only while its start time matches', async () => {
  const child = spawn('sleep', ['30'], {stdio: 'ignore'});
  onTestFinished(() => {
    child.kill('SIGKILL');
  });
  const id = processId(child.pid ?? 0);
  expect(isRunning(id)).toBe(true);
  if (process.platform === 'linux') {
    expect(id.start).toMatch(/^\d+$/);
    // The same pid with another start time is a reused pid: never ours, never signalled.
    const stranger = {pid: id.pid, start: String(Number(id.start) + 1)};
    expect(isRunning(stranger)).toBe(false);
    expect(signalProcess(stranger, 'SIGTERM', false)).toBe(false);
    expect(isRunning(id)).toBe(true);
  }
  expect(signalProcess(id, 'SIGTERM', false)).toBe(true);
  await waitFor('sleep to end', async () => (isRunning(id) ? undefined : true), {
    timeoutMs: 10_000,
    describe: () => `sleep ${id.pid} did not end`,
  });
});
