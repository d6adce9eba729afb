/**
 * A long text, through the real CLI and worker on a real shell pane (issue 65: 64 KB took 22
 * minutes, unsaid): `submit` says at once when the typing will take more than a minute, and
 * while it types, `status`, `jobs` and `top` say how far it got (`typing 548 of 3106`), status
 * with about how long the rest takes.
 */
import {describe, expect, test} from 'vitest';
import {expectJobEnd} from '../helpers/job-files.js';
import {runNudge, submitTo} from '../helpers/run-nudge.js';
import {shellAtPrompt} from '../helpers/shell-pane.js';
import {waitFor} from '../helpers/wait-for.js';

describe('a text that takes more than a minute to type', () => {
  test('submit says so; status, jobs and top show how far it got; a cancel stops it', async () => {
    const {server, home} = await shellAtPrompt();
    const env = {NUDGE_HOME: home};
    // 3,106 characters at 20 ms: about 62 s.
    const text = `: ${'x'.repeat(3_100)} end`;
    const r = await submitTo(
      server.socket,
      '%0',
      text,
      ['--type-delay', '20ms', '--no-notice'],
      env,
    );
    expect(r.exitCode, r.stderr).toBe(0);
    expect(r.stderr.trim()).toBe(
      `nudge: job ${r.id} has 3106 characters to type at --type-delay 20ms: about 1m02s (--type-delay 0ms types each line at once; an agent takes a long text as one paste); nudge status ${r.id} shows how far it got.`,
    );
    const status = await waitFor(
      'status to show how far the typing got',
      async () => {
        const s = await runNudge(['status', r.id], env);
        return /^state {3}typing \d+ of 3106, about \S+ left$/m.test(s.stdout)
          ? s.stdout
          : undefined;
      },
      {timeoutMs: 60_000},
    );
    const typed = Number(/typing (\d+) of/.exec(status)?.[1]);
    expect(typed).toBeGreaterThan(0);
    expect(typed).toBeLessThan(3106);
    expect((await runNudge(['jobs'], env)).stdout).toMatch(
      new RegExp(`${r.id} +typing \\d+ of 3106 `),
    );
    expect((await runNudge(['top', '-S', server.socket, '--once'], env)).stdout).toMatch(
      /typing \d+ of 3106/,
    );
    const cancel = await runNudge(['cancel', r.id], env);
    expect(cancel.exitCode, cancel.stderr).toBe(0);
    await expectJobEnd(home, r.id, 'cancelled');
  }, 120_000);

  test('a short text, or one typed at once, is handed over without a word', async () => {
    const {server, home} = await shellAtPrompt();
    const long = `: ${'y'.repeat(3_100)}`;
    const r = await submitTo(server.socket, '%0', long, ['--type-delay', '0ms', '--no-notice'], {
      NUDGE_HOME: home,
    });
    expect(r.exitCode, r.stderr).toBe(0);
    expect(r.stderr).toBe('');
    await expectJobEnd(home, r.id, 'done');
  }, 120_000);
});
