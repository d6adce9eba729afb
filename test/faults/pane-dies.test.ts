// A pane whose program exits while a job waits, kept by remain-on-exit (issue 62): the wait
// hears it at once and ends with the truth — the shell's status, passed on by --until exit —
// rather than watching a dead screen until its timeout and saying nothing was typed.
import {describe, expect, it} from 'vitest';
import {submitJob} from '../helpers/faults.js';
import {waitForJobEnd} from '../helpers/job-files.js';
import {useNudgeHome} from '../helpers/nudge-home.js';
import {runNudge, submitArgs} from '../helpers/run-nudge.js';
import {startTmuxServer} from '../helpers/tmux-server.js';

describe('a pane that dies under a wait (remain-on-exit on)', () => {
  it.each([
    [7, 'failed'],
    [0, 'done'],
  ] as const)(
    '--until exit, the command ends its shell with %s: the job ends %s at once, with that status',
    async (status, state) => {
      const server = await startTmuxServer();
      await server.waitForScreen('%0', /^\$/m);
      await server.tmux('set-option', '-g', 'remain-on-exit', 'on');
      const home = useNudgeHome();
      const id = await submitJob(
        home,
        submitArgs(
          server.socket,
          '%0',
          {until: 'exit', timeout: '120s', notice: false},
          `exit ${status}`,
        ),
        {},
      );
      const ended = await waitForJobEnd(home, id, 60_000);
      // tmux 3.3a sometimes marks the pane dead without the status (about 1 run in 10 here; 3.5a
      // and 3.8 never did in 24): then the job fails saying so — never a "done" it cannot prove.
      const lost = ended.exitCode === undefined;
      const said = lost
        ? "Pane %0's program exited (the pane is dead, kept by remain-on-exit; tmux recorded no status: a signal, or tmux 3.3a losing it)"
        : `Pane %0's program exited with status ${status} (the pane is dead, kept by remain-on-exit)`;
      expect(ended, JSON.stringify(ended)).toMatchObject(
        lost ? {state: 'failed'} : {state, exitCode: status},
      );
      expect(ended.reason).toBe(`${said}.`);
      // At once: long before the timeout.
      expect(Number(ended.waitedMs ?? 0)).toBeLessThan(60_000);
      // nudge wait on the dead pane says so too, in one sentence.
      const wait = await runNudge(
        ['wait', '-S', server.socket, '--pane', '%0', '--timeout', '5s'],
        {
          NUDGE_HOME: home,
        },
      );
      expect(wait.stderr.trim()).toBe(`nudge: ${said}.`);
    },
    120_000,
  );
});
