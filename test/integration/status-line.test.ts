// `nudge status-line`, `@nudge-status` and `nudge next`, through the real CLI and worker on a
// private tmux server with a real client attached (a second private server's pane runs `tmux
// attach`: a headless terminal). The segment names the panes that need the person first; the
// workers keep it in the server option the status bar shows; `next` moves that client.

import {describe, expect, it} from 'vitest';
import {waitForJobEnd} from '../helpers/job-files.js';
import {useNudgeHome} from '../helpers/nudge-home.js';
import {flagWords, runNudge, submitArgs} from '../helpers/run-nudge.js';
import {shellAtPrompt} from '../helpers/shell-pane.js';
import {attachClient, attachTerminal, startTmuxServer} from '../helpers/tmux-server.js';
import {waitFor} from '../helpers/wait-for.js';

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

    const client = await attachClient(server);
    const next = await nudge(['next', '-S', server.socket, '--client', client]);
    expect(next.exitCode, next.stderr).toBe(0);
    expect(next.stdout.trim()).toBe(
      `${asking} main:1.0: blocked (Do you want to proceed?); 1 more need you.`,
    );
    const current = async () =>
      (await server.tmux('display', '-p', '-c', client, '#{pane_id}')).trim();
    expect(await current()).toBe(asking);
    // From there (as a binding run in that pane would be), the next one: the done pane, which
    // counts as seen once visited.
    const again = await runNudge(['next', '-S', server.socket, '--client', client], {
      NUDGE_HOME: home,
      TMUX_PANE: asking,
    });
    expect(again.stdout.trim()).toBe(`%0 main:0.0: done; 1 more need you.`);
    expect(await current()).toBe('%0');
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
  });
});
