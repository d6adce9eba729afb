// A notice never answers someone else's question: when the work ends up asking (a program in
// the job's own pane waits for input) the notice is held back, and the job says so.

import {describe, expect, it} from 'vitest';
import {useNudgeHome} from '../helpers/nudge-home.js';
import {runNudge, submitArgv} from '../helpers/run-nudge.js';
import {shellAtPrompt} from '../helpers/shell-pane.js';
import {startTmuxServer} from '../helpers/tmux-server.js';

const QUESTION = `python3 -c 'input("Overwrite? [y/N] ")'`;
const quick = {delay: 0, interval: '250ms', stableChecks: 2};

describe('a question in the job pane', () => {
  it('is not answered by the notice: the job ends idle, the notice held back', async () => {
    const {server, home} = await shellAtPrompt();
    const r = await runNudge(
      submitArgv(server.socket, '%0', {...quick, wait: true, json: true}, QUESTION),
      {NUDGE_HOME: home},
    );
    const screen = await server.capture('%0');
    const seen = `exit ${r.exitCode}\nstdout: ${r.stdout}\nstderr: ${r.stderr}\nscreen:\n${screen}`;
    expect(r.exitCode, seen).toBe(0);
    const outcome = JSON.parse(r.stdout) as Record<string, unknown>;
    expect(outcome, seen).toMatchObject({
      state: 'done',
      notified: false,
      verdict: 'idle: waiting for input (python3)',
    });
    expect(String(outcome.noticeHeld), seen).toMatch(
      /held back: python3 holds pane %0 now, not bash/,
    );
    // Nothing was typed after the question, and the program still waits for its answer.
    const lines = screen.trimEnd().split('\n');
    expect(lines.at(-1), seen).toBe('Overwrite? [y/N]');
    const current = await server.tmux(
      'display-message',
      '-p',
      '-t',
      '%0',
      '#{pane_current_command}',
    );
    expect(current.trim(), seen).toBe('python3');
    // status says why.
    const status = await runNudge(['status', String(outcome.job)], {NUDGE_HOME: home});
    expect(status.stdout, status.stderr).toMatch(/^verdict idle: waiting for input \(python3\)$/m);
    expect(status.stdout).toMatch(/^held {4}the notice was held back/m);
  });

  it('--notify-pane elsewhere: the notice goes there, the question is left alone', async () => {
    const server = await startTmuxServer();
    const agent = await server.newPane(['bash', '--norc', '--noprofile']);
    await server.waitForScreen('%0', /^\$$/m);
    await server.waitForScreen(agent, /^\$$/m);
    const r = await runNudge(
      submitArgv(
        server.socket,
        '%0',
        {...quick, notifyPane: agent, notice: 'DONE {reason}', wait: true, json: true},
        QUESTION,
      ),
      {NUDGE_HOME: useNudgeHome()},
    );
    expect(r.exitCode, `${r.stdout}\n${r.stderr}`).toBe(0);
    expect(JSON.parse(r.stdout)).toMatchObject({state: 'done', notified: true});
    // The pane there is a shell at its prompt: the notice is a comment it does not run.
    await server.waitForScreen(agent, /^\$ # DONE idle: waiting for input \(python3\)$/m);
    expect((await server.capture('%0')).trimEnd().split('\n').at(-1)).toBe('Overwrite? [y/N]');
  });
});
