// The pane options the workers keep (@nudge-state, @nudge-job, @nudge-queue, @nudge-needs),
// read the way a status bar reads them: tmux expanding a format (`display -p`). Through the
// real CLI and workers on a real shell pane; in the tmux matrix (3.3a, 3.5a, the newest).

import {writeFileSync} from 'node:fs';
import {join} from 'node:path';
import {describe, expect, it} from 'vitest';
import {waitForJobEnd} from '../helpers/job-files.js';
import {runNudge, submitTo} from '../helpers/run-nudge.js';
import {shellAtPrompt} from '../helpers/shell-pane.js';
import {useTempDir} from '../helpers/temp-dir.js';
import {waitFor} from '../helpers/wait-for.js';

const FORMAT = '#{@nudge-state}|#{@nudge-job}|#{@nudge-queue}|#{@nudge-needs}';

describe('pane options', () => {
  it('set through a job’s life, counted while others wait, the ending kept, a cancel cleared', async () => {
    const {server, home} = await shellAtPrompt();
    const dir = useTempDir('nudge-status-');
    const submit = async (text: string, until: string) => {
      const r = await submitTo(server.socket, '%0', text, ['--until', until, '--no-notice'], {
        NUDGE_HOME: home,
      });
      expect(r.exitCode, r.stderr).toBe(0);
      return r.id;
    };
    const shown = async () => (await server.tmux('display', '-p', '-t', '%0', FORMAT)).trim();
    const until = (want: string) =>
      waitFor(
        `the pane's options to read ${want}`,
        async () => ((await shown()) === want ? want : undefined),
        {timeoutMs: 30_000, describe: shown},
      );
    const gate = join(dir, 'go');
    const a = await submit(`until [ -e ${gate} ]; do sleep 0.1; done`, 'exit');
    await until(`waiting|${a}||`);
    const b = await submit('echo second', 'stable');
    await until(`waiting|${a}|1|`);
    writeFileSync(gate, '');
    expect((await waitForJobEnd(home, a, 60_000)).state).toBe('done');
    expect((await waitForJobEnd(home, b, 60_000)).state).toBe('done');
    // The last ending stays for the person; nothing waits.
    await until(`done|${b}||`);

    const c = await submit(`until [ -e ${gate}2 ]; do sleep 0.1; done`, 'exit');
    await until(`waiting|${c}||`);
    const cancel = await runNudge(['cancel', c], {NUDGE_HOME: home});
    expect(cancel.exitCode, cancel.stderr).toBe(0);
    await until('|||');
  });

  it('an ending in one word everywhere: a timed-out job is timeout on the pane, in the status line, in top and in jobs', async () => {
    const {server, home} = await shellAtPrompt();
    const r = await submitTo(
      server.socket,
      '%0',
      'sleep 30',
      ['--until', 'exit', '--timeout', '1s', '--no-notice'],
      {NUDGE_HOME: home},
    );
    expect(r.exitCode, r.stderr).toBe(0);
    expect((await waitForJobEnd(home, r.id, 60_000)).state).toBe('timeout');
    const env = {NUDGE_HOME: home};
    await waitFor('the pane to show the ending', async () =>
      (await server.tmux('display', '-p', '-t', '%0', '#{@nudge-state}')).trim() === 'timeout'
        ? true
        : undefined,
    );
    const line = await runNudge(['status-line', '-S', server.socket, '--plain'], env);
    expect(line.stdout.trim()).toMatch(/^timeout \S+:\d+\.\d+/);
    const top = await runNudge(['top', '-S', server.socket, '--once'], env);
    expect(top.stdout).toMatch(new RegExp(`%0 +bash +(shell +)?timeout +${r.id} `));
    const jobs = await runNudge(['jobs'], env);
    expect(jobs.stdout).toMatch(new RegExp(`${r.id} +timeout `));
  });
});
