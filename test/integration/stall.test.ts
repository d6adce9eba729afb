// The stall watchdog and lost servers through the built CLI, real workers and a private tmux
// server with bash in its panes (the agents at the model: stall-at-model.test.ts).
// - A job whose command prints nothing for --stall: one `stalled` (quiet) event and POST;
//   `--on-stall cancel` ends the wait as a timeout, saying so.
// - A run whose command prints nothing: `--on-stall cancel` stops it (timeout, the reason).
// - The tmux server killed under a waiting and a queued job: both end `lost` at once, each
//   told once; `nudge jobs` after tells no one again.
// - The options' bad input (one sentence, exit 2), and the watcher's bounds as it keeps them.
import {readFileSync} from 'node:fs';
import {join} from 'node:path';
import {describe, expect, test} from 'vitest';
import {allowSinks, startHttpSink} from '../helpers/http-sink.js';
import {jobEventNames, readJobEvents, waitForJobEnd} from '../helpers/job-files.js';
import {serverWorld} from '../helpers/nudge-home.js';
import {runNudge, shown, submitTo} from '../helpers/run-nudge.js';
import {runFromPane} from '../helpers/shell-pane.js';
import {useTempDir} from '../helpers/temp-dir.js';

describe('--stall', () => {
  test('a command quiet for --stall: one stalled event (quiet) and one POST; --on-stall cancel ends the wait as a timeout', async () => {
    const {server, home} = await serverWorld();
    const http = await startHttpSink();
    const pane = await server.newPane(['bash', '--norc', '--noprofile']);
    const job = await submitTo(
      server.socket,
      pane,
      'sleep 60',
      [
        '--until',
        'exit',
        '--no-notice',
        '--interval',
        '500ms',
        '--stall',
        '3s',
        '--on-stall',
        'cancel',
        '--notify',
        `webhook:${http.url}/hook`,
      ],
      {NUDGE_HOME: home, ...allowSinks([`webhook:${http.url}/hook`])},
    );
    expect(job.exitCode, shown(job)).toBe(0);
    const end = await waitForJobEnd(home, job.id, 60_000);
    expect(end.state).toBe('timeout');
    expect(String(end.reason)).toMatch(/^Stalled \(no output for 3\.\ds\): --on-stall cancel/);
    const stalled = (await readJobEvents(home, job.id)).filter((e) => e.event === 'stalled');
    expect(stalled).toEqual([
      expect.objectContaining({kind: 'quiet', action: 'cancel', count: 1, pane}),
    ]);
    expect(Number(stalled[0]?.quietMs)).toBeLessThan(3_000 + 500 + 1_500);
    const posts = await http.waitFor('/hook', 2);
    expect(posts.map((p) => JSON.parse(p.body).event)).toEqual(['stalled', 'timeout']);
    expect(JSON.parse(posts[0]?.body ?? '{}')).toMatchObject({kind: 'quiet', job: job.id});
  });

  test('a run quiet for --stall with --on-stall cancel is stopped: timeout, the stall its reason', async () => {
    const {server, home} = await serverWorld();
    const cwd = useTempDir('nudge-run-');
    const r = await runNudge(
      [
        'run',
        '-S',
        server.socket,
        '--cwd',
        cwd,
        '--stall',
        '3s',
        '--on-stall',
        'cancel',
        '--',
        'sleep 120',
      ],
      {NUDGE_HOME: home},
    );
    expect(r.exitCode, shown(r)).toBe(0);
    const id = r.stdout.trim();
    const end = await waitForJobEnd(home, id, 90_000);
    expect(end.state).toBe('timeout');
    expect(String(end.reason)).toContain('--on-stall cancel stopped the run');
    const names = await jobEventNames(home, id);
    expect(names).toEqual(expect.arrayContaining(['stalled', 'stopping']));
  });

  test.each([
    [['--on-stall', 'cancel'], '--on-stall needs --stall DURATION'],
    [['--stall', '1s'], '--stall must be at least'],
    [['--stall', '1m', '--on-stall', 'maybe'], '--on-stall must be notify, continue'],
    [['--stall', '1m', '--if-busy', 'now'], '--if-busy now does not wait'],
  ])('submit %j: one sentence, exit 2, no job', async (flags, sentence) => {
    const {server, home} = await serverWorld();
    const r = await submitTo(server.socket, '%0', 'true', flags, {NUDGE_HOME: home});
    expect(r.exitCode, shown(r)).toBe(2);
    expect(r.stderr.trim().split('\n')).toEqual([expect.stringContaining(sentence)]);
    expect(r.stderr).not.toMatch(/\n\s+at /);
  });

  test('watch start keeps --stall and --max-injections; --on-stall continue is refused for a watcher', async () => {
    const {server, home} = await serverWorld();
    const env = {NUDGE_HOME: home};
    // Started from pane %0 (its shell's child): the watcher's pane is the one it runs in.
    await server.waitForScreen('%0', /^\$/m);
    const inside = await runFromPane(server, '%0');
    const start = (flags: string[]) =>
      inside.nudge(
        [
          'watch',
          'start',
          'w',
          '-S',
          server.socket,
          '--plan',
          'p',
          '--assess-cmd',
          'true',
          ...flags,
        ],
        env,
      );
    const ok = await start(['--stall', '10m', '--on-stall', 'cancel', '--max-injections', '4']);
    expect(ok.exitCode, shown(ok)).toBe(0);
    const record = JSON.parse(readFileSync(join(home, 'watchers', 'w', 'watcher.json'), 'utf8'));
    expect(record.options).toMatchObject({
      stall: {stallMs: 600_000, onStall: {kind: 'cancel'}},
      maxInjections: 4,
    });
    const shownW = await runNudge(['watch', 'show', 'w'], env);
    expect(shownW.stdout).toContain('typed    0 line(s) of at most 4 (--max-injections)');
    const refused = await start(['--stall', '10m', '--on-stall', 'continue:2']);
    expect(refused.exitCode).toBe(2);
    expect(refused.stderr).toContain('--max-injections');
  });
});

describe('a tmux server that goes away', () => {
  test('its waiting and queued jobs end lost at once, each told once; a later command tells no one again', async () => {
    const {server, home} = await serverWorld();
    const http = await startHttpSink();
    const pane = await server.newPane(['bash', '--norc', '--noprofile']);
    const flags = ['--until', 'exit', '--no-notice', '--notify', `webhook:${http.url}/hook`];
    const env = {NUDGE_HOME: home, ...allowSinks([`webhook:${http.url}/hook`])};
    const first = await submitTo(server.socket, pane, 'sleep 60', flags, env);
    const second = await submitTo(server.socket, pane, 'echo 2', flags, env);
    // Each queued: a submit refused would leave no job to watch (and say why here).
    for (const r of [first, second]) expect(r.exitCode, shown(r)).toBe(0);
    await waitForJobEnd(home, first.id, 1).catch(() => undefined);
    const waiting = async () =>
      (await readJobEvents(home, first.id)).some((e) => e.event === 'waiting');
    for (let i = 0; i < 100 && !(await waiting()); i++)
      await new Promise((r) => setTimeout(r, 100));
    const killedAt = Date.now();
    await server.tmux('kill-server').catch(() => '');
    for (const id of [first.id, second.id]) {
      const end = await waitForJobEnd(home, id, 30_000);
      expect(end.state, String(end.reason)).toBe('lost');
      expect(String(end.reason)).toMatch(/tmux server at .* (stopped|is gone)/);
    }
    process.stdout.write(
      `lost: both jobs ended lost ${Date.now() - killedAt} ms after kill-server\n`,
    );
    const posts = await http.waitFor('/hook', 2);
    expect(posts.map((p) => [JSON.parse(p.body).event, JSON.parse(p.body).job]).sort()).toEqual(
      [
        ['lost', first.id],
        ['lost', second.id],
      ].sort(),
    );
    const jobs = await runNudge(['jobs', '--json'], {NUDGE_HOME: home});
    expect(JSON.parse(jobs.stdout).map((j: {state: string}) => j.state)).toEqual(['lost', 'lost']);
    await new Promise((r) => setTimeout(r, 1_000));
    expect(http.received).toHaveLength(2);
  });
});
