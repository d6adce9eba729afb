// A test's tmux server must not outlive its test: the full CI found one alive with its folder
// gone (an orphaned control client of a killed worker kept it from exiting on kill-server).

import {execFileSync} from 'node:child_process';
import {existsSync, readFileSync, rmSync} from 'node:fs';
import {join} from 'node:path';
import {expect, test} from 'vitest';
import {cleanEnv, endServer, MAIN_SESSION, serverPidOf} from '../../harness/private-tmux.js';
import {useTempDir} from '../../helpers/temp-dir.js';
import {waitFor} from '../../helpers/wait-for.js';

/** Gone, or a zombie its new parent has not reaped yet. */
function ended(pid: number): boolean {
  try {
    return readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]?.startsWith('Z') ?? true;
  } catch {
    return true;
  }
}

test.skipIf(!existsSync('/proc/self/cmdline'))(
  'a server whose socket is gone, which kill-server cannot reach, is ended by its pid',
  async () => {
    const dir = useTempDir('nudge-end-server-');
    const socket = join(dir, 'sock');
    const env = cleanEnv({HOME: dir, HISTFILE: ''});
    execFileSync('tmux', ['-S', socket, '-f', '/dev/null', ...MAIN_SESSION, 'sleep 300'], {env});
    const pid = serverPidOf(socket, env);
    expect(pid).toBeGreaterThan(0);
    rmSync(socket);
    endServer(socket, pid, env);
    await waitFor('the server to end', async () => ended(pid ?? 0) || undefined, {
      timeoutMs: 10_000,
    });
  },
  30_000,
);

test('a pid whose command line does not name the socket is never signalled', () => {
  // This test's own process: endServer must leave it be.
  endServer('/nonexistent/sock', process.pid, cleanEnv());
  expect(ended(process.pid)).toBe(false);
});
