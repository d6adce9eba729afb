// Others' words never reach the person's terminal or a tmux format raw (issue 42), through the
// real CLI: an OSC 52 (clipboard) sequence in a hook's payload is recorded as plain text; a
// pane option someone in the pane set to escape sequences and `#[…]` styles is shown plain
// by status-line; a job's text with C1 and ESC sequences is shown plain by status and jobs.
import {readdirSync, readFileSync} from 'node:fs';
import {join} from 'node:path';
import {describe, expect, test} from 'vitest';
import {waitForJobEnd} from '../helpers/job-files.js';
import {serverWorld, useNudgeHome} from '../helpers/nudge-home.js';
import {CLI, runNudge, submitArgs} from '../helpers/run-nudge.js';
import {startTmuxServer} from '../helpers/tmux-server.js';

const OSC52 = '\x1b]52;c;SGVsbG8=\x07';
/** Any escape, BEL, or C1 control: what must never be printed. */
const RAW = /[\x07\x1b\u0080-\u009f]/;

describe('escape sequences from outside', () => {
  test("in a Claude Code notification hook's payload: the needs-a-person mark holds plain text", async () => {
    const {server, home} = await serverWorld();
    const payload = JSON.stringify({
      notification_type: 'permission_prompt',
      message: `Allow ${OSC52}this #[fg=red]now?`,
    });
    const pane = await server.newPane([
      'env',
      `NUDGE_HOME=${home}`,
      `P=${payload}`,
      'sh',
      '-c',
      `printf '%s' "$P" | '${process.execPath}' '${CLI}' hook claude-notification; echo HOOK-DONE; exec cat`,
    ]);
    await server.waitForScreen(pane, /HOOK-DONE/);
    const marks = readdirSync(join(home, 'marks')).filter((f) => f.endsWith('.needs.json'));
    expect(marks).toHaveLength(1);
    const mark = JSON.parse(readFileSync(join(home, 'marks', marks[0] ?? ''), 'utf8'));
    expect(mark).toMatchObject({kind: 'permission', message: 'Allow this #[fg=red]now?'});
  }, 60_000);

  test('in a session name and pane options: status-line shows them as text, no style of theirs', async () => {
    const server = await startTmuxServer();
    await server.tmux('new-session', '-d', '-s', 'x#[fg=blue]y', 'cat');
    const pane = (await server.tmux('list-panes', '-t', 'x#[fg=blue]y', '-F', '#{pane_id}')).trim();
    await server.tmux('set-option', '-p', '-t', pane, '@nudge-state', 'blocked');
    await server.tmux('set-option', '-p', '-t', pane, '@nudge-needs', `why${OSC52}#[fg=red]`);
    const line = await runNudge(['status-line', '-S', server.socket], {NUDGE_HOME: useNudgeHome()});
    expect(line.exitCode, line.stderr).toBe(0);
    // The session's name shown, its # doubled (tmux draws ## as #): never a style.
    expect(line.stdout).toContain('blocked x##[fg=blue]y:0.0');
    expect(line.stdout).not.toMatch(RAW);
  }, 60_000);

  test("in a job's text: status and jobs print it plain", async () => {
    const {server, home} = await serverWorld();
    const pane = await server.newPane(['cat']);
    const r = await runNudge(
      submitArgs(
        server.socket,
        pane,
        {notice: false},
        `copy \u009d52;c;SGVsbG8=\u009c me ${OSC52}`,
      ),
      {NUDGE_HOME: home},
    );
    expect(r.exitCode, r.stderr).toBe(0);
    const id = r.stdout.trim();
    await waitForJobEnd(home, id, 60_000);
    for (const args of [['status', id], ['jobs']]) {
      const shown = await runNudge(args, {NUDGE_HOME: home});
      expect(shown.exitCode, shown.stderr).toBe(0);
      expect(shown.stdout).toContain('copy');
      expect(shown.stdout, args[0]).not.toMatch(RAW);
    }
  }, 60_000);
});
