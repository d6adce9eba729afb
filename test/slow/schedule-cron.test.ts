/**
 * `npm run test:slow`: a schedule fired by a real cron daemon (Debian's `cron`, started by this
 * test and ended by it). `nudge schedule cron --install` puts the block in the user's crontab;
 * cron runs `nudge submit --wait` at the next minute with its own bare environment; the text
 * is typed into a pane of a private tmux server, byte for byte (a `%` in it, which a crontab
 * would otherwise cut the line at); `--uninstall` leaves the crontab as it was.
 *
 * Needs root (cron runs root's crontab here) and no other cron daemon running (it would fire
 * the schedule too, and is not ours to stop): skipped otherwise, saying why.
 */
import {spawn} from 'node:child_process';
import {existsSync, readdirSync, readFileSync} from 'node:fs';
import {join} from 'node:path';
import {execa} from 'execa';
import {describe, expect, onTestFinished, test} from 'vitest';
import {waitForJobState} from '../helpers/job-files.js';
import {runNudge, scheduleArgv} from '../helpers/run-nudge.js';
import {useTempDir} from '../helpers/temp-dir.js';
import {startTmuxServer} from '../helpers/tmux-server.js';
import {waitFor} from '../helpers/wait-for.js';

function cronDaemon(): string | undefined {
  return ['/usr/sbin/cron', '/usr/bin/cron'].find((p) => existsSync(p));
}

function otherCronRunning(): boolean {
  return readdirSync('/proc').some((pid) => {
    if (!/^\d+$/.test(pid)) return false;
    try {
      return /^(cron|crond)$/.test(readFileSync(`/proc/${pid}/comm`, 'utf8').trim());
    } catch {
      return false;
    }
  });
}

const why =
  process.getuid?.() !== 0
    ? 'not root'
    : !cronDaemon()
      ? 'no cron daemon installed (apt-get install cron)'
      : otherCronRunning()
        ? 'a cron daemon is already running (not ours)'
        : undefined;

describe.skipIf(why !== undefined)(
  `a schedule fired by a real cron daemon${why ? ` (skipped: ${why})` : ''}`,
  () => {
    test('cron runs the installed line: the text arrives in the pane once, exactly; --uninstall restores the crontab', async () => {
      const before = await execa('crontab', ['-l'], {reject: false});
      const had = before.exitCode === 0 ? before.stdout : undefined;
      onTestFinished(async () => {
        // whatever happened, the crontab as it was
        if (had === undefined) await execa('crontab', ['-r'], {reject: false});
        else await execa('crontab', ['-'], {input: `${had}\n`, reject: false});
      });
      const server = await startTmuxServer();
      const pane = (await server.tmux('display-message', '-p', '#{pane_id}')).trim();
      const state = useTempDir('nudge-cron-state-');
      const env = {
        NUDGE_HOME: state,
        PATH: process.env.PATH ?? '',
        HOME: process.env.HOME ?? '/root',
      };
      const text = 'printf \'cron fired at 100%% of %s\\n\' "$((6*7))"';
      const install = await runNudge(
        scheduleArgv(
          'cron',
          {cron: '* * * * *', name: 'slow-test', install: true, socketPath: server.socket},
          {pane, until: 'exit', notice: false},
          text,
        ),
        env,
      );
      expect(install.exitCode, install.stderr).toBe(0);
      const table = (await execa('crontab', ['-l'])).stdout;
      expect(table).toContain('# tmux-nudge schedule slow-test\n* * * * * ');

      const cron = spawn(cronDaemon()!, ['-f'], {detached: true, stdio: 'ignore'});
      onTestFinished(() => {
        try {
          process.kill(-cron.pid!, 'SIGTERM');
        } catch {
          // already gone
        }
      });
      const id = await waitFor(
        'the job cron started (cron fires at the next minute)',
        async () => {
          const dir = join(state, 'jobs');
          const ids = existsSync(dir) ? readdirSync(dir) : [];
          return ids[0];
        },
        {
          timeoutMs: 130_000,
          intervalMs: 500,
          describe: async () => `crontab:\n${table}\npane:\n${await server.capture(pane)}`,
        },
      );
      const end = await waitForJobState(
        state,
        id,
        ['done', 'failed', 'timeout', 'cancelled'],
        60_000,
      );
      process.kill(-cron.pid!, 'SIGTERM'); // no second minute
      expect(end.state, JSON.stringify(end)).toBe('done');
      const screen = await server.capture(pane);
      expect(screen.split('\n').filter((l) => l.endsWith(text))).toHaveLength(1); // typed once, exactly
      expect(screen.split('\n').filter((l) => l === 'cron fired at 100% of 42')).toHaveLength(1);
      // submit --wait's outcome, where the schedule said: written after the job's record
      // says done (the run ends, then its line is printed), so waited for, not read at once.
      const logFile = join(state, 'schedule', 'slow-test.log');
      await waitFor(
        "submit --wait's outcome in the schedule's log",
        async () =>
          (existsSync(logFile) && readFileSync(logFile, 'utf8').includes(id)) || undefined,
        {
          timeoutMs: 30_000,
          intervalMs: 200,
          describe: async () => (existsSync(logFile) ? readFileSync(logFile, 'utf8') : '(no log)'),
        },
      );

      const uninstall = await runNudge(
        ['schedule', 'cron', '--name', 'slow-test', '--uninstall'],
        env,
      );
      expect(uninstall.exitCode, uninstall.stderr).toBe(0);
      const after = await execa('crontab', ['-l'], {reject: false});
      expect(after.exitCode === 0 ? after.stdout : undefined).toBe(had === undefined ? '' : had);
    }, 240_000);
  },
);
