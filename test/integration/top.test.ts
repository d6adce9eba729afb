import {join} from 'node:path';
import {describe, expect, it} from 'vitest';
import {ASKER_PROFILE} from '../helpers/asking-agent.js';
import {waitForJobBlocked, waitForJobEnd, waitForJobState} from '../helpers/job-files.js';
import {serverWorld, userProfiles} from '../helpers/nudge-home.js';
import {CLI, FIXTURES, runNudge, submitTo, submitUntilExit} from '../helpers/run-nudge.js';
import {shellAtPrompt} from '../helpers/shell-pane.js';
import {attachClient, startTmuxServer} from '../helpers/tmux-server.js';
import {waitFor} from '../helpers/wait-for.js';

describe('nudge top', () => {
  it('lists a running and a blocked job, goes to a pane, cancels, opens the queue; q restores the terminal', async () => {
    const {server, home} = await shellAtPrompt();
    const config = userProfiles({asker: ASKER_PROFILE});
    const env = {NUDGE_HOME: home, XDG_CONFIG_HOME: config};
    const submit = async (pane: string, text: string, extra: string[]) => {
      const r = await submitTo(server.socket, pane, text, ['--no-notice', ...extra], env);
      expect(r.exitCode, r.stderr).toBe(0);
      return r.id;
    };
    // A job at work on %0, another queued behind it; an agent at a permission dialog.
    const running = await submit('%0', 'sleep 300', ['--until', 'exit']);
    await waitForJobState(home, running, ['waiting'], 60_000);
    const queued = await submit('%0', 'echo later', ['--until', 'stable']);
    const asker = await server.newPane([
      process.execPath,
      join(FIXTURES, 'asking-agent.mjs'),
      join(config, 'agent.log'),
    ]);
    await server.waitForScreen(asker, /Asking Agent v1/);
    const blocked = await submit(asker, 'please ask about it', []);
    // Its text went in, then the dialog: blocked while it is up, the job not ended.
    expect((await waitForJobBlocked(home, blocked)).state).toBe('waiting');

    const client = await attachClient(server);
    // top in a window of its own (CI=false: Ink draws each frame only outside CI).
    const top = await server.newPane([
      'env',
      'CI=false',
      `NUDGE_HOME=${home}`,
      `XDG_CONFIG_HOME=${config}`,
      'bash',
      '-c',
      `${JSON.stringify(process.execPath)} ${JSON.stringify(CLI)} top -S ${JSON.stringify(server.socket)}; echo TOP-ENDED; sleep 600`,
    ]);
    const screen = await server.waitForScreen(top, /Do you want to proceed\?/, 30_000);
    expect(screen).toMatch(new RegExp(`> %0 +bash +shell +waiting +${running} +1 `));
    expect(screen).toMatch(
      new RegExp(`  ${asker} +node +asker +blocked +${blocked} +0 .*Do you want to proceed\\?`),
    );
    const key = (k: string) => server.tmux('send-keys', '-t', top, k);
    const shown = () => server.capture(top);

    // The queue of the selected pane.
    await key('o');
    await server.waitForScreen(top, new RegExp(`2 ${queued} queued +queue echo later`));
    // The open panel follows the store: a job queued now shows in it.
    const third = await submit('%0', 'echo third', ['--until', 'stable']);
    await server.waitForScreen(top, new RegExp(`3 ${third} queued +queue echo third`), 30_000);
    await key('Escape');
    await waitFor('the queue closed', async () =>
      /queue of/.test(await shown()) ? undefined : true,
    );

    // Down to the blocked pane, enter: the client goes there.
    await key('Down');
    await server.waitForScreen(top, new RegExp(`> ${asker} `));
    await key('Enter');
    await server.waitForScreen(top, new RegExp(`Went to ${asker}\\.`));
    expect((await server.tmux('display', '-p', '-c', client, '#{pane_id}')).trim()).toBe(asker);

    // Up again, cancel the running job (asked first).
    await key('Up');
    await server.waitForScreen(top, /> %0 /);
    await key('c');
    await server.waitForScreen(top, new RegExp(`Cancel ${running} \\(sleep 300\\)\\? y/n`));
    await key('y');
    expect((await waitForJobState(home, running, ['cancelled'], 30_000)).state).toBe('cancelled');
    // The view follows the store: the queued job takes the pane, with nothing polled.
    await server.waitForScreen(top, new RegExp(`%0 .*${queued}`), 30_000);

    await key('q');
    await server.waitForScreen(top, /TOP-ENDED/);
    expect((await server.tmux('display', '-p', '-t', top, '#{cursor_flag}')).trim()).toBe('1');
  }, 180_000);

  it('--once prints the view; without a terminal it says to use --once', async () => {
    const {server, home} = await serverWorld();
    const once = await runNudge(['top', '-S', server.socket, '--once'], {NUDGE_HOME: home});
    expect(once.exitCode, once.stderr).toBe(0);
    expect(once.stdout).toMatch(
      /^nudge top — .*sock · 0 pane\(s\)\n {2}No jobs on this server yet\.$/,
    );
    const live = await runNudge(['top', '-S', server.socket], {NUDGE_HOME: home});
    expect(live.exitCode).toBe(2);
    expect(live.stderr.trim()).toBe(
      'nudge: nudge top needs a terminal (a tty on stdin and stdout); nudge top --once prints the view once.',
    );
  });

  it('at 80×24 each pane is one row (columns left out, the text cut); NO_COLOR drops the colours; --once has a header', async () => {
    const {server, home} = await shellAtPrompt();
    const long = `sleep 300 # ${'a long comment that runs past the edge of the screen '.repeat(2)}`;
    const r = await submitUntilExit(server.socket, '%0', long, {
      NUDGE_HOME: home,
    });
    expect(r.exitCode, r.stderr).toBe(0);
    await waitForJobState(home, r.id, ['waiting'], 60_000);
    const topIn = async (session: string, env: string[]) => {
      await server.tmux(
        'new-session',
        '-d',
        '-s',
        session,
        '-x',
        '80',
        '-y',
        '24',
        'env',
        '-u',
        'CI',
        `NUDGE_HOME=${home}`,
        ...env,
        process.execPath,
        CLI,
        'top',
        '-S',
        server.socket,
      );
      const pane = `${session}:0.0`;
      await server.waitForScreen(pane, new RegExp(r.id), 30_000);
      return pane;
    };
    const pane = await topIn('narrow', []);
    const lines = (await server.capture(pane)).split('\n');
    const at = lines.findIndex((l) => l.startsWith('> %0 '));
    expect(lines[at], lines.join('\n')).toMatch(
      new RegExp(`^> %0 +bash +waiting +${r.id} +0 +\\S+ sleep 300 # a long .*…$`),
    );
    expect([...(lines[at] ?? '')].length).toBeLessThanOrEqual(80);
    // Nothing wrapped onto the next line; the header says which columns are shown.
    expect(lines[at + 1] ?? '').not.toMatch(/comment|edge|screen/);
    expect(lines[at - 1]).toMatch(/^ {2}PANE +PROGRAM +STATE +JOB +QUEUE +AGE TEXT \/ QUESTION$/);
    // The same through a real client in an 80×24 terminal (a pane of a second server running
    // tmux attach): what it draws is one row a pane, keys move the selection.
    const terminal = await startTmuxServer(['tmux', '-S', server.socket, 'attach', '-t', 'narrow']);
    await terminal.tmux('resize-window', '-t', 'main', '-x', '80', '-y', '24');
    const drawn = async () => (await terminal.capture('%0')).split('\n');
    // Redrawn at 80 (a row of the wider drawing before the resize may be on screen a moment:
    // its PROGRAM/KIND columns say so), or the timeout shows what is drawn.
    const narrow = new RegExp(`^> %0 +bash +waiting +${r.id} +0 +\\S+ sleep 300 # a long .*…$`);
    const row = await waitFor(
      'top drawn at 80 columns by the client',
      async () =>
        (await server.tmux('display', '-p', '-t', pane, '#{pane_width}')).trim() === '80'
          ? (await drawn()).find((l) => narrow.test(l))
          : undefined,
      {describe: async () => (await drawn()).join('\n')},
    );
    expect(row).toMatch(narrow);
    // The text is cut, not wrapped: no line of the client's carries the rest of it (once the
    // client has caught up: a row of an earlier drawing may linger a moment on a loaded machine).
    const carried = async () => (await drawn()).filter((l) => /comment|edge of the/.test(l));
    await waitFor('no line of the client carrying the cut text', async () =>
      (await carried()).length === 0 ? true : undefined,
    ).catch(() => undefined);
    expect(await carried()).toEqual([]);
    const styled = async (p: string) =>
      (await server.tmux('capture-pane', '-p', '-e', '-t', p))
        .split('\n')
        .find((l) => l.includes(r.id)) ?? '';
    // The foreground colours a line is drawn with (SGR 30–37, 90–97, 38;…; 39 is the default).
    const colours = (line: string) =>
      [...line.matchAll(/\x1b\[([0-9;]*)m/g)]
        .flatMap((m) => (m[1] ?? '').split(';').map(Number))
        .filter((n) => (n >= 30 && n <= 38) || (n >= 90 && n <= 97));
    // The state's colour (yellow: waiting) is drawn …
    expect(colours(await styled(pane))).not.toEqual([]);
    // … and not with NO_COLOR.
    const plain = await topIn('plain', ['NO_COLOR=1']);
    expect(colours(await styled(plain))).toEqual([]);

    // With $COLUMNS wide enough, every column and the job's whole preview (its first 80
    // characters); into a pipe without it, 80 columns, as at 80×24.
    const once = await runNudge(['top', '-S', server.socket, '--once'], {
      NUDGE_HOME: home,
      COLUMNS: '200',
    });
    const printed = once.stdout.split('\n');
    expect(printed[1]).toMatch(
      /^ {2}PANE +PROGRAM +PROFILE +STATE +JOB +QUEUE +AGE TEXT \/ QUESTION$/,
    );
    expect(printed[2]).toContain(long.slice(0, 80).trim());
    const piped = await runNudge(['top', '-S', server.socket, '--once'], {NUDGE_HOME: home});
    for (const l of piped.stdout.split('\n')) expect([...l].length, l).toBeLessThanOrEqual(80);
  }, 120_000);

  it("a pane's row shows the job that had the pane, not a later one dropped from its queue", async () => {
    const {server, home} = await shellAtPrompt();
    const env = {NUDGE_HOME: home};
    const ran = await submitUntilExit(server.socket, '%0', 'sleep 3', env);
    await waitForJobState(home, ran.id, ['waiting'], 60_000);
    const dropped = await submitTo(server.socket, '%0', 'echo never', ['--no-notice'], env);
    await waitForJobState(home, dropped.id, ['queued'], 60_000);
    expect((await runNudge(['cancel', dropped.id], env)).exitCode).toBe(0);
    await waitForJobEnd(home, dropped.id, 30_000);
    expect((await waitForJobEnd(home, ran.id, 60_000)).state).toBe('done');
    const once = await runNudge(['top', '-S', server.socket, '--once'], env);
    expect(once.stdout.split('\n')[2]).toMatch(
      new RegExp(`^ {2}%0 +bash +(shell +)?done +${ran.id} +0 `),
    );
  }, 120_000);
});
