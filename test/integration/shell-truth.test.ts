// The ordinary shell pane tells the truth (issue 41), with a real bash in a private tmux
// server and nudge run as a user runs it: a command a person started is never typed into
// nor reported done before it ends; a notice is never run by the shell; `--wait --until exit`
// returns the command's own status; a cancel stops the command it typed, and the next job
// types only once the prompt is back.
import {existsSync} from 'node:fs';
import {join} from 'node:path';
import {describe, expect, test} from 'vitest';
import {waitForEvent} from '../helpers/faults.js';
import {expectJobEnd, readJobState, waitForJobEnd, waitForJobState} from '../helpers/job-files.js';
import {runNudge, submitArgv} from '../helpers/run-nudge.js';
import {endSleepIn, screenLines as lines, shellAtPrompt} from '../helpers/shell-pane.js';
import {waitFor} from '../helpers/wait-for.js';

const NOTICE = '[SYSTEM COMMAND] Command complete. Resume.';

describe('a shell pane', () => {
  test('a command a person started holds the pane: the job waits behind it, types after it, is done after its own line ran; the notice is a comment the shell ignores', async () => {
    const {server, home} = await shellAtPrompt();
    await server.tmux('send-keys', '-t', '%0', '-l', 'sleep 600; echo PERSON-DONE');
    await server.tmux('send-keys', '-t', '%0', 'Enter');
    await waitFor('sleep in the foreground', async () =>
      (await server.tmux('display', '-p', '-t', '%0', '#{pane_current_command}')).trim() === 'sleep'
        ? true
        : undefined,
    );
    const r = await runNudge(
      [...submitArgv(server.socket, '%0', ['--delay', '0', '--', 'echo JOB-$((6*7))'])],
      {NUDGE_HOME: home},
    );
    expect(r.exitCode, r.stderr).toBe(0);
    const id = r.stdout.trim();
    await waitForEvent(home, id, 'waiting-for-program');
    // Every listing says what it waits for, in one set of words (issue 65): not `locked`.
    await waitFor('the record to name the program', async () =>
      (await readJobState(home, id)).behindProgram === 'sleep' ? true : undefined,
    );
    for (const args of [['jobs'], ['queue', '-S', server.socket]]) {
      const shown = await runNudge(args, {NUDGE_HOME: home});
      expect(shown.stdout, args.join(' ')).toMatch(/\bwaiting-for-program sleep\b/);
      expect(shown.stdout, args.join(' ')).not.toMatch(/\blocked\b/);
    }
    const status = await runNudge(['status', id], {NUDGE_HOME: home});
    expect(status.stdout).toMatch(/^state {3}waiting-for-program sleep$/m);
    await endSleepIn(server, '%0');
    await expectJobEnd(home, id, 'done', 60_000);
    expect(await readJobState(home, id)).not.toHaveProperty('behindProgram');
    // Typed only after sleep ended: the person's line printed first, then the job's ran.
    const screen = await lines(server, '%0');
    const person = screen.indexOf('PERSON-DONE');
    const job = screen.indexOf('JOB-42');
    expect(person, screen.join('\n')).toBeGreaterThan(-1);
    expect(job, screen.join('\n')).toBeGreaterThan(person);
    // The notice: one comment line at the prompt, never run.
    expect(screen).toContain(`$ # ${NOTICE}`);
    expect(screen.join('\n')).not.toMatch(/command not found/);
    expect(await readJobState(home, id)).toMatchObject({noticeVia: 'comment'});
  });

  test('a notice whose match the command printed before it ended waits for the prompt, then is a comment', async () => {
    const {server, home} = await shellAtPrompt();
    // The match is printed, and the command goes on in the shell itself (a builtin `read`:
    // bash in the foreground, no prompt yet), as a build's last line comes before its end.
    const r = await runNudge(
      submitArgv(server.socket, '%0', [
        '--delay',
        '0',
        '--until',
        'regex:BUILD-4-OK',
        '--',
        'echo BUILD-$((2*2))-OK; read -r LINE',
      ]),
      {NUDGE_HOME: home},
    );
    expect(r.exitCode, r.stderr).toBe(0);
    const id = r.stdout.trim();
    // The wait ended before the prompt was back: the notice waits for it, not shown.
    const waited = await waitForEvent(home, id, 'own-line-awaits-prompt');
    expect(waited.why).toBe('bash is not at its prompt');
    await server.tmux('send-keys', '-t', '%0', 'Enter');
    await expectJobEnd(home, id, 'done', 60_000);
    const screen = await lines(server, '%0');
    expect(
      screen.filter((l) => l === `$ # ${NOTICE}`),
      screen.join('\n'),
    ).toHaveLength(1);
    expect(screen.join('\n')).not.toMatch(/command not found/);
    expect(await readJobState(home, id)).toMatchObject({noticeVia: 'comment', notified: true});
  });

  test('submit --wait --until exit returns the command status: 7 for exit 7, the job failed', async () => {
    const {server, home} = await shellAtPrompt();
    const untilExit = (command: string) =>
      runNudge(
        submitArgv(server.socket, '%0', [
          '--wait',
          '--until',
          'exit',
          '--no-notice',
          '--',
          command,
        ]),
        {NUDGE_HOME: home},
      );
    const r = await untilExit("sh -c 'exit 7'");
    expect(r.exitCode, `${r.stdout}\n${r.stderr}`).toBe(7);
    const id = r.stdout.trim().split(/\s+/)[0] ?? '';
    expect(await readJobState(home, id)).toMatchObject({state: 'failed', exitCode: 7});
    const ok = await untilExit('true');
    expect(ok.exitCode, ok.stdout).toBe(0);
  });

  test('nudge cancel stops the command the job typed; the queued job types once the prompt is back', async () => {
    const {server, home} = await shellAtPrompt();
    const args = (text: string) =>
      submitArgv(server.socket, '%0', ['--delay', '0', '--no-notice', '--', text]);
    const first = (await runNudge(args('sleep 40'), {NUDGE_HOME: home})).stdout.trim();
    await waitForJobState(home, first, ['waiting']);
    const next = (await runNudge(args('echo AFTER-$((1+1))'), {NUDGE_HOME: home})).stdout.trim();
    const cancelled = await runNudge(['cancel', first], {NUDGE_HOME: home});
    expect(cancelled.exitCode, cancelled.stderr).toBe(0);
    const ended = await readJobState(home, first);
    expect(ended.state).toBe('cancelled');
    expect(String(ended.reason)).toMatch(/its command was interrupted \(C-c\)/);
    expect(await waitForJobEnd(home, next)).toMatchObject({
      state: 'done',
    });
    const screen = await lines(server, '%0');
    // sleep was stopped (^C), then the next line ran at a prompt of its own.
    expect(screen, screen.join('\n')).toContain('AFTER-2');
    expect(screen).toContain('$ echo AFTER-$((1+1))');
    expect((await server.tmux('display', '-p', '-t', '%0', '#{pane_current_command}')).trim()).toBe(
      'bash',
    );
  });

  test('cancel --keep-running leaves it; the queued job waits behind it, never typed into it', async () => {
    const {server, home} = await shellAtPrompt();
    const args = (text: string, extra: string[] = []) =>
      submitArgv(server.socket, '%0', ['--delay', '0', '--no-notice', ...extra, '--', text]);
    const first = (await runNudge(args('sleep 600; echo SLEPT'), {NUDGE_HOME: home})).stdout.trim();
    await waitForJobState(home, first, ['waiting']);
    const next = (
      await runNudge(args('echo NEXT-$((2+2))', ['--timeout', '60s']), {NUDGE_HOME: home})
    ).stdout.trim();
    const kept = await runNudge(['cancel', first, '--keep-running'], {NUDGE_HOME: home});
    expect(kept.exitCode, kept.stderr).toBe(0);
    await waitForEvent(home, next, 'waiting-for-program');
    expect(await lines(server, '%0')).not.toContain('NEXT-4');
    await endSleepIn(server, '%0');
    expect(await waitForJobEnd(home, next)).toMatchObject({
      state: 'done',
    });
    const screen = await lines(server, '%0');
    expect(screen.indexOf('NEXT-4'), screen.join('\n')).toBeGreaterThan(screen.indexOf('SLEPT'));
    expect(screen.indexOf('SLEPT')).toBeGreaterThan(-1);
  });

  test("a job waiting for the person's draft says so (pane state, status), never typing; it types once the line is clear", async () => {
    const {server, home} = await shellAtPrompt();
    await server.tmux('send-keys', '-t', '%0', '-l', 'echo a-draft');
    await server.waitForScreen('%0', /^\$ echo a-draft$/m);
    const id = (
      await runNudge(
        submitArgv(server.socket, '%0', [
          '--delay',
          '0',
          '--no-notice',
          '--draft-wait',
          '60s',
          '--',
          'echo JOB-OK',
        ]),
        {NUDGE_HOME: home},
      )
    ).stdout.trim();
    const state = () => server.tmux('display', '-p', '-t', '%0', '#{@nudge-state}');
    await waitFor('the pane to say it waits for you', async () =>
      (await state()).trim() === 'waiting-for-you' ? true : undefined,
    );
    const status = await runNudge(['status', id], {NUDGE_HOME: home});
    expect(status.stdout).toMatch(/^waits {3}for you: your draft in the input line/m);
    const line = await runNudge(['status-line', '-S', server.socket, '--plain'], {
      NUDGE_HOME: home,
    });
    expect(line.stdout.trim()).toMatch(/^waiting-for-you /);
    expect(line.stdout).not.toMatch(/working/);
    // The person clears the draft: the job types its own line.
    await server.tmux('send-keys', '-t', '%0', 'C-u');
    expect(await waitForJobEnd(home, id)).toMatchObject({
      state: 'done',
    });
    expect(await lines(server, '%0')).toContain('JOB-OK');
    expect((await readJobState(home, id)).waitingForYou).toBeUndefined();
  });

  test('a notice of DELs and a command: its DELs never reach the shell, so it stays a comment and nothing runs (issue 61)', async () => {
    const {server, home} = await shellAtPrompt();
    const file = join(server.dir, 'F7FILE');
    const r = await runNudge(
      [
        ...submitArgv(server.socket, '%0', [
          '--delay',
          '0',
          '--until',
          'exit',
          '--notice',
          `${'\x7f'.repeat(20)}touch ${file}`,
          '--',
          'echo JOB-DONE',
        ]),
      ],
      {NUDGE_HOME: home},
    );
    expect(r.exitCode, r.stderr).toBe(0);
    const id = r.stdout.trim();
    await expectJobEnd(home, id, 'done', 60_000);
    const screen = await lines(server, '%0');
    expect(screen, screen.join('\n')).toContain(`$ # touch ${file}`);
    expect(await readJobState(home, id)).toMatchObject({noticeVia: 'comment', notified: true});
    // Nothing ran, and nothing was left on the person's input line.
    expect(existsSync(file)).toBe(false);
    expect(screen.filter((l) => l.trim() !== '').at(-1)).toBe('$');
  });

  test("a notice the pane's program rewrote into a command: the read-back fails, the line is taken back, and the job says so (issue 61)", async () => {
    const {server, home} = await shellAtPrompt();
    const file = join(server.dir, 'TAKEN');
    // Readline turns each ~ into a backspace: `# ~~touch FILE` becomes `touch FILE`.
    await server.tmux('send-keys', '-t', '%0', '-l', `bind '"~": backward-delete-char'`);
    await server.tmux('send-keys', '-t', '%0', 'Enter');
    await server.tmux('send-keys', '-t', '%0', 'C-l');
    await server.waitForScreen('%0', /^\$ ?$/m);
    const r = await runNudge(
      submitArgv(server.socket, '%0', [
        '--delay',
        '0',
        '--until',
        'exit',
        '--notice',
        `~~touch ${file}`,
        '--',
        'echo JOB-DONE',
      ]),
      {NUDGE_HOME: home},
    );
    expect(r.exitCode, r.stderr).toBe(0);
    const id = r.stdout.trim();
    const ended = await waitForJobEnd(home, id, 60_000);
    const log = await runNudge(['logs', id], {NUDGE_HOME: home});
    // The notice did not arrive as typed: the job failed, saying what happened to the line.
    expect(ended.state, log.stdout).toBe('failed');
    expect(ended.notified).not.toBe(true);
    expect(ended.reason).toBe(
      `Someone typed into pane %0 while the job typed (its input line reads "touch ${file}"); Enter was not pressed and what nudge typed was taken back off the pane's input line.`,
    );
    expect(log.stdout).toMatch(/"event":"own-line-taken-back"/);
    // Nothing is left on the person's input line: their next Enter runs nothing.
    const screen = await lines(server, '%0');
    expect(screen.filter((l) => l.trim() !== '').at(-1), screen.join('\n')).toBe('$');
    await server.tmux('send-keys', '-t', '%0', 'Enter');
    await server.tmux('send-keys', '-t', '%0', '-l', 'echo AFTER-ENTER');
    await server.tmux('send-keys', '-t', '%0', 'Enter');
    await server.waitForScreen('%0', /^AFTER-ENTER$/m);
    expect(existsSync(file)).toBe(false);
  });
});
