// One reach check at every door (issue 42), through the real CLI and a real `nudge mcp`: from
// inside a pane of session `agent`, nothing reaches a pane or a job of session `other` — not
// queue edit (CLI or MCP queue_edit), status, logs, cancel, jobs, queue, expect (its
// close_pane and return_output), wait or schedule — while the person outside tmux reaches all.
import {describe, expect, test} from 'vitest';
import {waitForJobEnd, waitForJobState} from '../helpers/job-files.js';
import {callTool, spawnedMcp} from '../helpers/mcp-client.js';
import {serverWorld} from '../helpers/nudge-home.js';
import {runNudge, scheduleArgv, submitArgs} from '../helpers/run-nudge.js';
import type {TmuxTestServer} from '../helpers/tmux-server.js';

/** The environment of a nudge started inside `pane` (an agent's tool, a hook, nudge mcp). */
const insidePane = (server: TmuxTestServer, pane: string) => ({
  TMUX: `${server.socket},0,0`,
  TMUX_PANE: pane,
});

const OUT_OF_REACH = (what: string) =>
  `${what} is out of reach: it is in another session than the pane nudge runs in (%0), and config.toml's [submit] panes is not "server".`;

describe("from inside a pane of one session, another session's panes and jobs are out of reach", () => {
  test('CLI and MCP: every door refuses (exit 2); nothing changed, read, closed or typed; the person outside reaches all', async () => {
    const {server, home} = await serverWorld();
    const other = (
      await server.tmux('new-session', '-d', '-s', 'other', '-P', '-F', '#{pane_id}', 'cat')
    ).trim();
    await server.tmux('send-keys', '-t', other, '-l', 'SECRET-ON-SCREEN');
    await server.tmux('send-keys', '-t', other, 'Enter');
    await server.waitForScreen(other, /SECRET-ON-SCREEN\nSECRET-ON-SCREEN/);
    const person = {NUDGE_HOME: home};
    // The person queues two jobs for the other session's pane: the first holds it.
    const submitted = async (text: string, extra: string[] = []) => {
      const r = await runNudge(
        submitArgs(server.socket, other, ['--no-notice', ...extra], text),
        person,
      );
      expect(r.exitCode, r.stderr).toBe(0);
      return r.stdout.trim();
    };
    const holding = await submitted('holds the pane', [
      '--until',
      'regex:NEVER-SHOWN',
      '--timeout',
      '120s',
    ]);
    const queued = await submitted('the person queued this');
    await waitForJobState(home, holding, ['waiting'], 60_000);

    const agent = {...person, ...insidePane(server, '%0')};
    for (const args of [
      ['queue', 'edit', queued, '--text', 'rm -rf ~'],
      ['status', queued],
      ['logs', queued],
      ['cancel', holding],
    ]) {
      const r = await runNudge(args, agent);
      expect(r.exitCode, `${args.join(' ')}: ${r.stderr}`).toBe(2);
      expect(r.stderr.trim()).toBe(
        `nudge: ${OUT_OF_REACH(`Job ${args[2] === undefined ? args[1] : args[2]} (pane ${other})`)}`,
      );
    }
    const jobs = await runNudge(['jobs', '--json', '--host', 'local'], agent);
    expect(jobs.exitCode, jobs.stderr).toBe(0);
    expect(jobs.stdout).not.toContain(queued);
    const queue = await runNudge(['queue', '--json'], agent);
    expect(queue.stdout).not.toContain(queued);
    // The shell's completion offers neither the other session's jobs nor its panes.
    const completed = async (words: string[], who: Record<string, string>) =>
      (await runNudge(['--get-yargs-completions', 'nudge', ...words, ''], who)).stdout;
    expect(await completed(['status'], agent)).toBe('');
    expect(await completed(['wait', '-S', server.socket], agent)).toBe('%0');
    expect(await completed(['status'], person)).toBe(`${queued}\n${holding}`);
    expect(await completed(['wait', '-S', server.socket], person)).toBe(`%0\n${other}`);
    for (const args of [
      [
        'expect',
        '-S',
        server.socket,
        other,
        'SECRET',
        '--action',
        'close_pane',
        '--include-existing',
      ],
      ['wait', '-S', server.socket, '--pane', other, '--timeout', '2s'],
    ]) {
      const r = await runNudge(args, agent);
      expect(r.exitCode, `${args[0]}: ${r.stderr}`).toBe(2);
      expect(r.stderr.trim()).toBe(`nudge: ${OUT_OF_REACH(`PANE ${other}`)}`);
    }
    const schedule = await runNudge(
      scheduleArgv(
        'cron',
        {write: true, socketPath: server.socket, name: 'x', every: '1h'},
        {pane: other},
        'typed later',
      ),
      agent,
    );
    expect(schedule.exitCode, schedule.stderr).toBe(2);
    expect(await server.tmux('show-options', '-p', '-q', '-t', other, '@nudge-schedule-x')).toBe(
      '',
    );

    // nudge mcp inside the pane: queue_edit and expect are refused the same way; close_pane
    // needs nudge mcp --allow-close, and expect is annotated destructive only then.
    const mcp = await spawnedMcp(agent);
    const edit = await callTool(mcp, 'queue_edit', {job: queued, text: 'rm -rf ~'});
    expect(edit.isError).toBe(true);
    expect(edit.content[0]?.text).toContain(OUT_OF_REACH(`Job ${queued} (pane ${other})`));
    const read = await callTool(mcp, 'expect', {
      pane_id: other,
      pattern: 'SECRET',
      action: 'return_output',
      include_existing: true,
    });
    expect(read.isError).toBe(true);
    expect(JSON.stringify(read)).not.toContain('SECRET-ON-SCREEN');
    const close = await callTool(mcp, 'expect', {
      pane_id: '%0',
      pattern: 'x',
      action: 'close_pane',
    });
    expect(close.isError).toBe(true);
    expect(close.content[0]?.text).toContain('only when started with --allow-close');
    const hints = Object.fromEntries(
      (await mcp.listTools()).tools.map((t) => [t.name, t.annotations]),
    );
    expect(hints.expect).toMatchObject({readOnlyHint: true, destructiveHint: false});
    const closing = await spawnedMcp(agent, ['--allow-close']);
    const closingHints = Object.fromEntries(
      (await closing.listTools()).tools.map((t) => [t.name, t.annotations]),
    );
    expect(closingHints.expect).toMatchObject({readOnlyHint: false, destructiveHint: true});

    // Nothing of it happened: the pane is there, the queued text is the person's; the person
    // (outside tmux) sees and ends both jobs.
    expect((await server.capture(other)).includes('SECRET-ON-SCREEN')).toBe(true);
    const status = await runNudge(['status', queued, '--json'], person);
    expect(status.exitCode, status.stderr).toBe(0);
    expect(JSON.parse(status.stdout).preview).toBe('the person queued this');
    // A job records who submitted it: the pane the agent ran in, and its session.
    const session = (
      await server.tmux('display-message', '-p', '-t', '%0', '#{session_id}')
    ).trim();
    const own = await runNudge(submitArgs(server.socket, '%0', {notice: false}, 'true'), agent);
    expect(own.exitCode, own.stderr).toBe(0);
    const mine = await runNudge(['status', own.stdout.trim(), '--json'], agent);
    expect(JSON.parse(mine.stdout).submittedFrom).toEqual({
      socketPath: server.socket,
      pane: '%0',
      sessionId: session,
    });
    await waitForJobEnd(home, own.stdout.trim(), 60_000);
    for (const id of [queued, holding]) {
      const c = await runNudge(['cancel', id], person);
      expect(c.exitCode, c.stderr).toBe(0);
      await waitForJobEnd(home, id, 60_000);
    }
  }, 180_000);
});
