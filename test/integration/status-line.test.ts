// `nudge status-line`, `@nudge-status` and `nudge next`, through the real CLI and worker on a
// private tmux server with a real client attached (a second private server's pane runs `tmux
// attach`: a headless terminal). The segment names the panes that need the person first; the
// workers keep it in the server option the status bar shows; `next` moves that client.

import {readFileSync, writeFileSync} from 'node:fs';
import {join} from 'node:path';
import {describe, expect, it} from 'vitest';
import {waitForJobEnd} from '../helpers/job-files.js';
import {useNudgeHome} from '../helpers/nudge-home.js';
import {flagWords, nudgeBinDir, runNudge, submitArgs} from '../helpers/run-nudge.js';
import {shellAtPrompt} from '../helpers/shell-pane.js';
import {attachClient, attachTerminal, startTmuxServer} from '../helpers/tmux-server.js';
import {waitFor} from '../helpers/wait-for.js';

const DOCS = readFileSync(join(import.meta.dirname, '..', '..', 'docs', 'tmux-status.md'), 'utf8');

describe('status-line and next', () => {
  it('a real job done shows in the segment; blocked panes come first; next goes there, then on', async () => {
    const {server, home} = await shellAtPrompt();
    const nudge = (args: string[]) => runNudge(args, {NUDGE_HOME: home});
    const line = async (extra: string[] = []) => {
      const r = await nudge(['status-line', '-S', server.socket, ...extra]);
      expect(r.exitCode, r.stderr).toBe(0);
      return r.stdout.replace(/\n$/, '');
    };
    expect(await line()).toBe('');
    const r = await nudge([
      ...submitArgs(server.socket, '%0', flagWords({until: 'exit', notice: false})),
      '--',
      'true',
    ]);
    const job = r.stdout.trim().split(/\s+/)[0] ?? '';
    expect((await waitForJobEnd(home, job, 60_000)).state).toBe('done');
    await waitFor('the ending on the pane', async () =>
      (await line(['--plain'])) === 'done main:0.0' ? true : undefined,
    );
    expect(await line()).toBe('#[fg=green]done main:0.0#[default]');

    // A pane whose agent asks the person (set as a worker sets it), and one at work.
    const asking = await server.newPane(['bash', '--norc']);
    const working = await server.newPane(['bash', '--norc']);
    await server.tmux('set-option', '-p', '-t', asking, '@nudge-state', 'blocked');
    await server.tmux('set-option', '-p', '-t', asking, '@nudge-needs', 'Do you want to proceed?');
    await server.tmux('set-option', '-p', '-t', working, '@nudge-state', 'waiting');
    await server.tmux('set-option', '-p', '-t', working, '@nudge-queue', '2');
    expect(await line(['--plain'])).toBe('blocked main:1.0 · done main:0.0 · 1 working · 2 queued');

    // The binding as docs/tmux-status.md writes it, pressed through a real attached client:
    // run-shell sets no $TMUX_PANE, so next must find the pane of the client that pressed it.
    const binding = DOCS.match(/^bind-key N run-shell .*$/m)?.[0] ?? '';
    expect(binding, 'the binding in docs/tmux-status.md').not.toBe('');
    writeFileSync(join(server.dir, 'next.conf'), `${binding}\n`);
    await server.tmux('source-file', join(server.dir, 'next.conf'));
    const bin = nudgeBinDir(server.dir);
    await server.tmux('set-environment', '-g', 'PATH', `${bin}:${process.env.PATH}`);
    await server.tmux('set-environment', '-g', 'NUDGE_HOME', home);
    // The person's display-time, long enough to read the message below on a loaded machine.
    await server.tmux('set-option', '-g', 'display-time', '60000');
    const {client, terminal} = await attachTerminal(server);
    const current = async () =>
      (await server.tmux('display', '-p', '-c', client, '#{pane_id} #{pane_in_mode}')).trim();
    const shownLine = async () =>
      (await terminal.capture('%0')).trimEnd().split('\n').at(-1)?.trim() ?? '';
    const press = async (to: string, said: string) => {
      await terminal.tmux('send-keys', '-t', '%0', 'C-b', 'N');
      await waitFor(
        `the client on ${to}, told so on its status line`,
        async () =>
          (await current()) === `${to} 0` && (await shownLine()).startsWith(said)
            ? true
            : undefined,
        {describe: async () => `${await current()} | ${await shownLine()}`},
      );
    };
    await press(asking, `${asking} main:1.0: blocked (Do you want to proceed?); 1 more need you.`);
    // From there, the next one: the done pane, which counts as seen once visited. Nothing was
    // left in a view to dismiss (pane_in_mode 0 on both).
    await press('%0', '%0 main:0.0: done; 1 more need you.');
    expect(await line(['--plain'])).toBe('blocked main:1.0 · 1 working · 2 queued');
    // The bar's option follows what next cleared.
    expect((await server.tmux('show-options', '-s', '-v', '@nudge-status')).trim()).toBe(
      await line(),
    );
  });

  it('the status bar shows #{@nudge-status}, kept by the workers: no process per refresh, no timer', async () => {
    const server = await startTmuxServer();
    await server.waitForScreen('%0', /^\$$/m);
    // The documented line, with the bar redrawn on no timer: what it shows comes from the
    // option's changes alone.
    await server.tmux('set-option', '-g', 'status-right', '#{@nudge-status} ');
    await server.tmux('set-option', '-g', 'status-interval', '0');
    const {terminal} = await attachTerminal(server);
    const home = useNudgeHome();
    const bar = async () => (await terminal.capture('%0')).trimEnd().split('\n').at(-1) ?? '';
    const job =
      (
        await runNudge(
          [
            ...submitArgs(server.socket, '%0', flagWords({until: 'exit', notice: false})),
            '--',
            'sleep 3',
          ],
          {NUDGE_HOME: home},
        )
      ).stdout
        .trim()
        .split(/\s+/)[0] ?? '';
    await waitFor('the bar shows the pane at work', async () =>
      (await bar()).endsWith('1 working') ? true : undefined,
    );
    expect((await waitForJobEnd(home, job, 60_000)).state).toBe('done');
    await waitFor(
      'the bar shows the ending',
      async () => ((await bar()).endsWith('done main:0.0') ? true : undefined),
      {describe: bar},
    );
    // Styled by tmux, not shown as text: the style is on the screen's cells.
    expect(await bar()).not.toContain('#[');
    const shown = await server.tmux('show-options', '-s', '-v', '@nudge-status');
    const line = await runNudge(['status-line', '-S', server.socket], {NUDGE_HOME: home});
    expect(shown.trim()).toBe(line.stdout.trim());
    expect(shown.trim()).toBe('#[fg=green]done main:0.0#[default]');
  }, 90_000);

  it('next with no client to move: one sentence, exit 1', async () => {
    const server = await startTmuxServer();
    await server.tmux('set-option', '-p', '-t', '%0', '@nudge-state', 'failed');
    const r = await runNudge(['next', '-S', server.socket], {NUDGE_HOME: useNudgeHome()});
    expect(r.exitCode).toBe(1);
    expect(r.stderr.trim()).toMatch(
      /^nudge: No tmux client could be moved to %0 \(.*\): run it inside tmux, or give --client\.$/,
    );
    const named = await runNudge(['next', '-S', server.socket, '--client', '/dev/pts/999'], {
      NUDGE_HOME: useNudgeHome(),
    });
    expect(named.exitCode).toBe(1);
    expect(named.stderr.trim()).toBe(
      "nudge: No tmux client named /dev/pts/999 is attached to this server: give one of tmux list-clients' names, or leave out --client.",
    );
  });

  it('next run in a pane (no --client) says where it went on stdout', async () => {
    const server = await startTmuxServer();
    const other = await server.newPane(['bash', '--norc']);
    await server.tmux('set-option', '-p', '-t', other, '@nudge-state', 'failed');
    const client = await attachClient(server);
    const r = await runNudge(['next', '-S', server.socket], {
      NUDGE_HOME: useNudgeHome(),
      TMUX_PANE: '%0',
    });
    expect(r.exitCode, r.stderr).toBe(0);
    expect(r.stdout).toBe(`${other} main:1.0: failed.`);
    expect((await server.tmux('display', '-p', '-c', client, '#{pane_id}')).trim()).toBe(other);
  });
});
