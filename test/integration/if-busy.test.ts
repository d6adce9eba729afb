// --if-busy: what a submit does when its pane is busy, through the real CLI on a real shell
// pane. refuse: one sentence naming what keeps it busy, exit 75, no job made; wait: the job
// types only once the pane is idle.
import {readdirSync, symlinkSync} from 'node:fs';
import {join} from 'node:path';
import {describe, expect, it} from 'vitest';
import {expectJobEnd, jobEventNames} from '../helpers/job-files.js';
import {useNudgeHome} from '../helpers/nudge-home.js';
import {flagWords, runNudge, submitArgs, submitTo} from '../helpers/run-nudge.js';
import {shellAtPrompt} from '../helpers/shell-pane.js';
import {useTempDir} from '../helpers/temp-dir.js';
import {startTmuxServer} from '../helpers/tmux-server.js';

const jobsIn = (home: string) => {
  try {
    return readdirSync(join(home, 'jobs'));
  } catch {
    return [];
  }
};

describe('--if-busy', () => {
  it('refuse on a shell running a command: exit 75 (busy, try later: not a failure of exit 1), the sentence names it, no job is made', async () => {
    const server = await startTmuxServer();
    await server.waitForScreen('%0', /^\$$/m);
    await server.tmux('send-keys', '-t', '%0', 'sleep 30', 'Enter');
    const home = useNudgeHome();
    await server.waitForScreen('%0', /sleep 30/);
    const r = await submitTo(server.socket, '%0', 'echo hi', ['--if-busy', 'refuse'], {
      NUDGE_HOME: home,
    });
    expect(r.exitCode, r.stderr).toBe(75);
    expect(r.stderr.trim()).toBe(
      'nudge: Pane %0 is busy — still running: sleep; nothing was queued (--if-busy refuse).',
    );
    expect(jobsIn(home)).toEqual([]);
    // A world that fails is 1 (here: no tmux on PATH, which holds node alone), so a script
    // tells the two apart.
    const bin = useTempDir('nudge-path-');
    symlinkSync(process.execPath, join(bin, 'node'));
    const noTmux = await submitTo(server.socket, '%0', 'echo hi', ['--if-busy', 'refuse'], {
      NUDGE_HOME: home,
      PATH: bin,
    });
    expect(noTmux.exitCode, noTmux.stderr).toBe(1);
    expect(noTmux.stderr.trim()).toBe(
      'nudge: tmux is not installed or not on PATH; install it (e.g. apt-get install tmux) and try again.',
    );
  });

  it('refuse on an idle shell: the job is made and typed as usual', async () => {
    const {server, home} = await shellAtPrompt();
    const r = await runNudge(
      [
        ...submitArgs(
          server.socket,
          '%0',
          flagWords({ifBusy: 'refuse', until: 'exit', wait: true, json: true}),
        ),
        '--',
        'echo hi',
      ],
      {NUDGE_HOME: home},
    );
    expect(r.exitCode, r.stderr).toBe(0);
    expect(JSON.parse(r.stdout)).toMatchObject({state: 'done'});
  });

  it('wait on a busy shell: typed only once the command it runs has ended', async () => {
    const server = await startTmuxServer();
    await server.waitForScreen('%0', /^\$$/m);
    await server.tmux('send-keys', '-t', '%0', 'sleep 3', 'Enter');
    await server.waitForScreen('%0', /sleep 3/);
    const home = useNudgeHome();
    const r = await submitTo(server.socket, '%0', 'echo after', ['--if-busy', 'wait'], {
      NUDGE_HOME: home,
    });
    expect(r.exitCode, r.stderr).toBe(0);
    const id = r.id;
    await expectJobEnd(home, id, 'done', 60_000);
    const screen = await server.capture('%0');
    // The text came after the sleep's prompt returned, never into the running command.
    expect(screen.indexOf('sleep 3')).toBeLessThan(screen.indexOf('echo after'));
    expect(await jobEventNames(home, id)).toContain('typed');
  });

  it('now on a program without a door of its own: exit 1, the sentence says which have one, no job made', async () => {
    const {server, home} = await shellAtPrompt();
    const r = await submitTo(server.socket, '%0', 'echo hi', ['--if-busy', 'now'], {
      NUDGE_HOME: home,
    });
    expect(r.exitCode, r.stderr).toBe(1);
    expect(r.stderr.trim()).toMatch(
      /^nudge: Pane %0 runs shell, which has no door of its own to take a message mid-turn \((\w+, )*claude(, \w+)* have one: docs\/agents\.md\); nothing was queued \(--if-busy now\)\.$/,
    );
    expect(jobsIn(home)).toEqual([]);
    const keys = await submitTo(
      server.socket,
      '%0',
      'echo hi',
      ['--if-busy', 'now', '--via', 'keys'],
      {
        NUDGE_HOME: home,
      },
    );
    expect(keys.exitCode).toBe(2);
    expect(keys.stderr.trim()).toBe('nudge: --if-busy now goes through a door; --via keys types.');
  });
});
