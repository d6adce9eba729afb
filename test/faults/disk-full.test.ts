// Issue 62, item 4: the state folder fills while a job waits (a small tmpfs as NUDGE_HOME,
// filled to the last byte). The command finishes meanwhile: the waiter does not die with the
// jobs it holds (a log line or a step it cannot write is dropped, never thrown), keeps the
// ending, and writes it — the truth, once — as soon as there is room again. Needs root (or
// CAP_SYS_ADMIN) to mount the tmpfs; skipped with a sentence where the machine refuses.
import {execFileSync} from 'node:child_process';
import {closeSync, existsSync, mkdirSync, openSync, rmSync, writeSync} from 'node:fs';
import {join} from 'node:path';
import {describe, expect, it, onTestFinished} from 'vitest';
import {submitJob, terminalEvents, waitForEvent, workerPid} from '../helpers/faults.js';
import {expectJobEnd, readJobState} from '../helpers/job-files.js';
import {isAlive} from '../helpers/process-view.js';
import {runNudge, submitArgs} from '../helpers/run-nudge.js';
import {useTempDir} from '../helpers/temp-dir.js';
import {startTmuxServer} from '../helpers/tmux-server.js';

/** A 4 MiB tmpfs at a new folder, unmounted when the test ends; undefined where mount fails. */
function smallDisk(): string | undefined {
  const at = join(useTempDir('nudge-disk-'), 'disk');
  mkdirSync(at);
  try {
    execFileSync('mount', ['-t', 'tmpfs', '-o', 'size=4m,mode=0700', 'tmpfs', at], {
      stdio: 'ignore',
    });
  } catch {
    return undefined;
  }
  onTestFinished(() => {
    execFileSync('umount', ['-l', at], {stdio: 'ignore'});
  });
  return at;
}

/** Fill the folder's file system to its last byte: the file that holds it. */
function fill(dir: string): string {
  const file = join(dir, 'filler');
  const fd = openSync(file, 'w');
  const chunk = Buffer.alloc(64 * 1024);
  for (;;) {
    try {
      writeSync(fd, chunk);
    } catch {
      break;
    }
  }
  // What a small write can still find (a partly used page) is taken too.
  for (;;) {
    try {
      writeSync(fd, Buffer.alloc(1));
    } catch {
      break;
    }
  }
  // Closed: an open file keeps its room after it is removed.
  closeSync(fd);
  return file;
}

const canMount = process.getuid?.() === 0 && existsSync('/proc/filesystems');

describe.skipIf(!canMount)(
  'the state folder full while a job waits (a tmpfs NUDGE_HOME; skipped unless root may mount one)',
  () => {
    it('the waiter keeps the job, and records its true ending once there is room again', async (ctx) => {
      const disk = smallDisk();
      if (!disk) return ctx.skip('this machine refuses to mount a tmpfs (no CAP_SYS_ADMIN)');
      const home = join(disk, 'nudge');
      const server = await startTmuxServer();
      await server.waitForScreen('%0', /^\$/m);
      const go = join(useTempDir('nudge-disk-go-'), 'go');
      const id = await submitJob(
        home,
        submitArgs(
          server.socket,
          '%0',
          {until: 'regex:FINISHED', notice: 'NOTICE {job}', timeout: '5m'},
          `until [ -e ${go} ]; do sleep 0.2; done; echo FIN''ISHED`,
        ),
      );
      await waitForEvent(home, id, 'waiting', 60_000);
      const waiter = await workerPid(home, id);
      const filler = fill(disk);
      mkdirSync(go);
      // The command finished on the full disk: the notice arrives, the waiter lives on.
      await server.waitForScreen('%0', /# NOTICE /m, 60_000);
      expect(isAlive(waiter)).toBe(true);
      expect((await readJobState(home, id)).state).toBe('waiting');
      // A new job meanwhile: one sentence naming the folder and what to do, no errno text.
      const refused = await runNudge(
        submitArgs(server.socket, '%0', {notice: false}, 'echo not-now'),
        {NUDGE_HOME: home},
      );
      expect(refused.exitCode).toBe(1);
      expect(refused.stderr.trim().split('\n')).toHaveLength(1);
      expect(refused.stderr).toMatch(/^nudge: .*the disk is full.* free some space/);
      expect(refused.stderr).not.toMatch(/ENOSPC|internal error/);
      rmSync(filler);
      const ended = await expectJobEnd(home, id, 'done', 60_000);
      expect(ended.notified).toBe(true);
      expect(await terminalEvents(home, id)).toHaveLength(1);
    }, 180_000);
  },
);
