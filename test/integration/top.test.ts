// `nudge top`, driven as a person drives it: it runs in a pane of a private tmux server with
// a real client attached (from a second private server), keys are sent with send-keys and the
// screen is read back. It lists a job at work and a blocked one (with its question), goes to
// a pane, cancels a job, opens a queue, and `q` gives the terminal back.
import {mkdirSync, writeFileSync} from 'node:fs';
import {join} from 'node:path';
import {describe, expect, it} from 'vitest';
import {ASKER_PROFILE} from '../helpers/asking-agent.js';
import {waitForJobState} from '../helpers/job-files.js';
import {serverWorld} from '../helpers/nudge-home.js';
import {CLI, FIXTURES, runNudge, submitTo} from '../helpers/run-nudge.js';
import {shellAtPrompt} from '../helpers/shell-pane.js';
import {useTempDir} from '../helpers/temp-dir.js';
import {attachClient} from '../helpers/tmux-server.js';
import {waitFor} from '../helpers/wait-for.js';

describe('nudge top', () => {
  it('lists a running and a blocked job, goes to a pane, cancels, opens the queue; q restores the terminal', async () => {
    const {server, home} = await shellAtPrompt();
    const config = useTempDir('nudge-config-');
    mkdirSync(join(config, 'nudge', 'agents'), {recursive: true});
    writeFileSync(join(config, 'nudge', 'agents', 'asker.toml'), ASKER_PROFILE);
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
    expect((await waitForJobState(home, blocked, ['blocked'], 60_000)).state).toBe('blocked');

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
    expect(once.stdout.trim()).toMatch(/^nudge top — .*sock · 0 pane\(s\)$/);
    const live = await runNudge(['top', '-S', server.socket], {NUDGE_HOME: home});
    expect(live.exitCode).toBe(2);
    expect(live.stderr.trim()).toBe(
      'nudge: nudge top needs a terminal (a tty on stdin and stdout); nudge top --once prints the view once.',
    );
  });
});
