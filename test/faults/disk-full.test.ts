// Issue 62, item 4: the state folder fills while a job waits (a small tmpfs as NUDGE_HOME,
// filled to the last byte). The command finishes meanwhile: the waiter does not die with the
// jobs it holds (a log line or a step it cannot write is dropped, never thrown), keeps the
// ending, and writes it — the truth, once — as soon as there is room again. Needs root (or
// CAP_SYS_ADMIN) to mount the tmpfs; skipped with a sentence where the machine refuses.
import {existsSync, mkdirSync, rmSync} from 'node:fs';
import {join} from 'node:path';
import {describe, expect, it} from 'vitest';
import {submitJob, terminalEvents, waitForEvent, workerPid} from '../helpers/faults.js';
import {expectJobEnd, readJobState} from '../helpers/job-files.js';
import {isAlive} from '../helpers/process-view.js';
import {runNudge, submitArgs, unwrapped} from '../helpers/run-nudge.js';
import {useTempDir} from '../helpers/temp-dir.js';
import {fillDisk, useTmpfs} from '../helpers/tmpfs.js';
import {startTmuxServer} from '../helpers/tmux-server.js';

const canMount = process.getuid?.() === 0 && existsSync('/proc/filesystems');

describe.skipIf(!canMount)(
  'the state folder full while a job waits (a tmpfs NUDGE_HOME; skipped unless root may mount one)',
  () => {
    it.for<readonly [string, string]>([
      ['with a notice', 'notifying next'],
      ['without one', 'ended done'],
    ])(
      '%s: the waiter keeps the job, status says what waits for room, and its true ending is recorded once there is room again',
      {timeout: 180_000},
      async ([kind, waits], ctx) => {
        const notice = kind === 'with a notice';
        const disk = useTmpfs('4m');
        if (!disk) {
          ctx.skip('this machine refuses to mount a tmpfs (no CAP_SYS_ADMIN)');
          return;
        }
        const home = join(disk, 'nudge');
        const server = await startTmuxServer();
        await server.waitForScreen('%0', /^\$/m);
        const go = join(useTempDir('nudge-disk-go-'), 'go');
        const id = await submitJob(
          home,
          submitArgs(
            server.socket,
            '%0',
            {until: 'regex:FINISHED', notice: notice ? 'NOTICE {job}' : false, timeout: '5m'},
            `until [ -e ${go} ]; do sleep 0.2; done; echo FIN''ISHED`,
          ),
        );
        await waitForEvent(home, id, 'waiting', 60_000);
        const waiter = await workerPid(home, id);
        const filler = fillDisk(disk);
        mkdirSync(go);
        // The command finishes on the full disk: the waiter lives on, and holds the notice until
        // it can record that it types it (nothing is typed without its record).
        await server.waitForScreen('%0', /^FINISHED$/m, 60_000);
        await new Promise((resolve) => setTimeout(resolve, 3_000));
        expect(isAlive(waiter)).toBe(true);
        expect(await server.capture('%0')).not.toMatch(/# NOTICE /);
        expect((await readJobState(home, id)).state).toBe('waiting');
        // status says what the record cannot: its next step waits for room.
        const said = await runNudge(['status', id], {NUDGE_HOME: home});
        expect(unwrapped(said.stdout)).toMatch(
          new RegExp(
            `^state +waiting \\(${waits}, not yet recorded: the state folder is full\\)$`,
            'm',
          ),
        );
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
        expect(ended.notified).toBe(notice);
        const screen = (await server.capture('%0')).split('\n');
        const notices = screen.filter((l) => l.includes('# NOTICE ')).length;
        expect(notices, screen.join('\n')).toBe(notice ? 1 : 0);
        expect(await terminalEvents(home, id)).toHaveLength(1);
      },
    );
  },
);
