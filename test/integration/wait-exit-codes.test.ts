// `submit --wait` waits for its job's end: exit 0 done, 124 timeout, 1 failed; a Ctrl-C stops
// the waiting, never the job.
import {join} from 'node:path';
import {describe, expect, it} from 'vitest';
import {jobEventNames, readJobState, waitForJobEnd, waitForJobState} from '../helpers/job-files.js';
import {useNudgeHome, waitForOnlyJob} from '../helpers/nudge-home.js';
import {recorderWorld} from '../helpers/recorder-pane.js';
import {FIXTURES, nudgeBinDir, runNudge, submitArgv} from '../helpers/run-nudge.js';
import {useTempDir} from '../helpers/temp-dir.js';
import {startTmuxServer} from '../helpers/tmux-server.js';

function waitArgs(socket: string, pane: string, extra: string[]): string[] {
  return submitArgv(socket, pane, [
    '--wait',
    '--no-clear',
    '--delay',
    '0',
    '--type-delay',
    '0',
    ...extra,
  ]);
}

/** A private tmux server with a pane whose spinner never stops, and a state folder. */
async function spinnerPane() {
  const server = await startTmuxServer();
  const pane = await server.newPane([process.execPath, join(FIXTURES, 'spinner.mjs')]);
  await server.waitForScreen(pane, /SPINNER START/);
  return {server, pane, home: useNudgeHome()};
}

describe('submit --wait exit codes', () => {
  it('exits 0 when the job is done', async () => {
    const {server, rec, home} = await recorderWorld();
    const r = await runNudge(
      waitArgs(server.socket, rec.pane, ['--no-notice', '--', 'done please']),
      {
        NUDGE_HOME: home,
      },
    );
    expect(r.exitCode, r.stderr).toBe(0);
    const [id, state] = r.stdout.split(' ');
    expect(state).toBe('done');
    expect((await readJobState(home, id ?? '')).state).toBe('done');
    expect((await rec.waitForLength(12)).toString()).toBe('done please\r');
  });

  it('exits 124 when the wait times out, after sending the timeout notice', async () => {
    const {server, pane, home} = await spinnerPane();
    // A pattern the spinner never prints: the wait can only end by timing out (a spinner
    // starved of CPU on a loaded machine could otherwise look stable).
    const r = await runNudge(
      waitArgs(server.socket, pane, [
        '--timeout',
        '1s',
        '--until',
        'regex:^NEVER PRINTED$',
        '--',
        'go',
      ]),
      {NUDGE_HOME: home},
    );
    expect(r.exitCode, `stdout: ${r.stdout}\nstderr: ${r.stderr}`).toBe(124);
    const [id, state] = r.stdout.split(' ');
    expect(state).toBe('timeout');
    const record = await readJobState(home, id ?? '');
    expect(record).toMatchObject({state: 'timeout', notified: true});
    expect(await jobEventNames(home, id ?? '')).toContain('wait-timeout');
  });

  it('exits 1 when the pane is killed during the wait; the job failed, naming the pane', async () => {
    const {server, pane, home} = await spinnerPane();
    const running = runNudge(
      waitArgs(server.socket, pane, ['--no-notice', '--timeout', '60s', '--', 'go']),
      {NUDGE_HOME: home},
    );
    const id = await waitForOnlyJob(home);
    await waitForJobState(home, id, ['waiting'], 20_000);
    await server.tmux('kill-pane', '-t', pane);

    const r = await running;
    expect(r.exitCode, `stdout: ${r.stdout}\nstderr: ${r.stderr}`).toBe(1);
    expect(r.stdout).toMatch(new RegExp(`^${id} failed`));
    const record = await readJobState(home, id);
    expect(record.state, JSON.stringify(record)).toBe('failed');
    expect(record.reason).toContain(pane);
    expect(r.stderr).not.toMatch(/^\s+at /m);
  });
});

describe('submit --wait interrupted', () => {
  it("a Ctrl-C at the person's terminal stops the waiting in one sentence; the job goes on to its end (issue 65)", async () => {
    const server = await startTmuxServer();
    const home = useNudgeHome();
    const bin = nudgeBinDir(useTempDir('nudge-bin-'));
    const shell = ['bash', '--norc', '--noprofile'];
    const person = await server.newPane([
      'env',
      `NUDGE_HOME=${home}`,
      `PATH=${bin}:${process.env.PATH}`,
      'PS1=$ ',
      ...shell,
    ]);
    const target = await server.newPane(['env', 'PS1=$ ', ...shell]);
    await server.waitForScreen(person, /^\$/m);
    await server.waitForScreen(target, /^\$/m);
    await server.tmux(
      'send-keys',
      '-t',
      person,
      '-l',
      `nudge submit -S ${server.socket} --wait --pane ${target} --until exit --delay 0 --no-notice -- 'sleep 4; echo finished-ok'`,
    );
    await server.tmux('send-keys', '-t', person, 'Enter');
    const job = await waitForOnlyJob(home);
    await waitForJobState(home, job, ['waiting']);
    await server.tmux('send-keys', '-t', person, 'C-c');
    await server.waitForScreen(
      person,
      new RegExp(`nudge: Stopped waiting; job ${job} goes on \\(nudge status ${job}\\)\\.$`, 'm'),
    );
    const end = await waitForJobEnd(home, job, 60_000);
    expect(end.state, JSON.stringify(end)).toBe('done');
    await server.waitForScreen(target, /^finished-ok$/m);
  }, 120_000);
});
