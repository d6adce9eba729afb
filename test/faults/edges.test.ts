// Issue 62's smaller edges, each through the real CLI, worker and a real tmux (item 8): a
// cancel of a typed list stops the whole list; an argument that is not UTF-8 is refused, not
// typed as U+FFFD; a text that ends its own shell (`kill -9 $$`) is not called "closed while
// typing". (The half line, the dead pane, the clock, the full disk and the inbox have files of
// their own here.)
import {existsSync} from 'node:fs';
import {join} from 'node:path';
import {execa} from 'execa';
import {describe, expect, test} from 'vitest';
import {expectJobEnd, readJobState, waitForJobEnd, waitForJobState} from '../helpers/job-files.js';
import {jobIds, useNudgeHome} from '../helpers/nudge-home.js';
import {startRecorder} from '../helpers/recorder-pane.js';
import {CLI, flagWords, runNudge, submitArgs, submitArgv} from '../helpers/run-nudge.js';
import {screenLines as lines, shellAtPrompt} from '../helpers/shell-pane.js';
import {useTempDir} from '../helpers/temp-dir.js';
import {cleanEnv, startTmuxServer} from '../helpers/tmux-server.js';

describe('the edges of a job (issue 62)', () => {
  test('nudge cancel of a typed list stops the whole list: a command that shrugs off C-c, ended by SIGTERM, is not followed by the rest (issue 62)', async () => {
    const {server, home} = await shellAtPrompt();
    const out = join(useTempDir('nudge-list-'), 'rest');
    // The first command ignores SIGINT (C-c does nothing), so its group is ended (SIGTERM):
    // an interactive shell goes on with the list after that, unless it was interrupted too.
    const list = `sh -c "trap '' INT; sleep 60"; echo REST > ${out}`;
    const id = (
      await runNudge(submitArgv(server.socket, '%0', ['--delay', '0', '--no-notice', '--', list]), {
        NUDGE_HOME: home,
      })
    ).stdout.trim();
    await waitForJobState(home, id, ['waiting']);
    const cancelled = await runNudge(['cancel', id], {NUDGE_HOME: home});
    expect(cancelled.exitCode, cancelled.stderr).toBe(0);
    const ended = await readJobState(home, id);
    expect(String(ended.reason)).toMatch(
      /its command was interrupted \(C-c\) and its process group terminated/,
    );
    // The shell is back at its prompt, and never ran the rest.
    const next = (
      await runNudge(
        submitArgv(server.socket, '%0', [
          '--delay',
          '0',
          '--no-notice',
          '--',
          'echo BACK-$((3+3))',
        ]),
        {
          NUDGE_HOME: home,
        },
      )
    ).stdout.trim();
    expect(await waitForJobEnd(home, next)).toMatchObject({state: 'done'});
    expect(await lines(server, '%0')).toContain('BACK-6');
    expect(existsSync(out)).toBe(false);
  });

  test('an argument that is not UTF-8 (Node would read it as U+FFFD): exit 2 naming it, nothing queued; a true U+FFFD is typed', async () => {
    const server = await startTmuxServer();
    const home = useNudgeHome();
    const rec = await startRecorder(server);
    const argv = submitArgs(server.socket, rec.pane, flagWords({notice: false}));
    // The text's bytes through a shell (a JavaScript string cannot hold them): "caf\xe9".
    const viaShell = (text: string) =>
      execa(
        'bash',
        ['-c', `exec "$0" "$@" -- "$(printf '${text}')"`, process.execPath, CLI, ...argv],
        {
          env: cleanEnv({NUDGE_HOME: home}),
          extendEnv: false,
          reject: false,
        },
      );
    const r = await viaShell('caf\\xe9');
    expect(r.exitCode).toBe(2);
    expect(r.stderr.trim()).toBe(
      `nudge: Argument ${argv.length + 2} is not UTF-8: byte 3 (0xe9) starts no valid character, and would be typed as U+FFFD; pass the text as UTF-8 (iconv -t UTF-8), or with --text-file, and submit again.`,
    );
    expect(jobIds(home)).toEqual([]);
    const real = await viaShell('\\xef\\xbf\\xbd ok');
    expect(real.exitCode, real.stderr).toBe(0);
    await waitForJobEnd(home, real.stdout.trim(), 60_000);
    expect((await rec.bytes()).toString('hex')).toBe(Buffer.from('\uFFFD ok\r').toString('hex'));
  }, 60_000);
  test('a text that ends its own shell (kill -9 $$): the job fails saying the text may have ended it, not "closed while typing"', async () => {
    const {server, home} = await shellAtPrompt();
    // A second window keeps the server up when %0 closes.
    await server.newPane(['bash', '--norc', '--noprofile']);
    const id = (
      await runNudge(
        submitArgv(server.socket, '%0', ['--delay', '0', '--no-notice', '--', 'kill -9 $$']),
        {
          NUDGE_HOME: home,
        },
      )
    ).stdout.trim();
    const ended = await expectJobEnd(home, id, 'failed', 60_000);
    // (Closed once nudge was already waiting, on a slow machine, is as true.)
    expect(String(ended.reason)).toMatch(
      /^Pane %0 is gone(: its program ended just after the whole text was typed| \(closed while waiting)/,
    );
  }, 60_000);
});
