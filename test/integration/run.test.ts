// `nudge run` through the built CLI and its detached run worker, with real commands in real
// panes of a private tmux server: exit statuses, the idle and the total timeout (and the
// processes gone after), cancel, a worktree run in a temporary git repository, --pr with and
// without gh, --wait, and bad input. The notice is read byte for byte from a recorder pane
// standing in for the calling agent.

import {chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync} from 'node:fs';
import {join} from 'node:path';
import {describe, expect, it} from 'vitest';
import type {RunReport} from '../../src/jobs/run-report.js';
import {runNotice} from '../../src/runs/report.js';
import {git} from '../helpers/git-repo.js';
import {allowSinks, startHttpSink} from '../helpers/http-sink.js';
import {jobEventNames, readJobEvents, TERMINAL, waitForJobEnd} from '../helpers/job-files.js';
import {useNudgeHome} from '../helpers/nudge-home.js';
import {isAlive, processViewEnv} from '../helpers/process-view.js';
import {startRecorder} from '../helpers/recorder-pane.js';
import {PROCESS_VIEWS, runNudge, shown} from '../helpers/run-nudge.js';
import {startTmuxServer, type TmuxTestServer} from '../helpers/tmux-server.js';
import {waitFor} from '../helpers/wait-for.js';

interface RunState {
  state: string;
  reason?: string;
  exitCode?: number;
  notified?: boolean;
  report: RunReport;
}

/** A test's world: a tmux server whose new windows run a plain bash, a recorder pane as the
 * caller (nudge runs inside it, as a child of the recorder), and a NUDGE_HOME. */
async function world() {
  const server = await startTmuxServer();
  await server.tmux('set-option', '-g', 'default-command', 'bash --norc --noprofile');
  const rec = await startRecorder(server);
  const home = useNudgeHome();
  // The caller: nudge run from inside the recorder's pane (a child of its program).
  const run = (args: string[], env: Record<string, string> = {}) =>
    rec.nudge(['run', '-S', server.socket, '--interval', '200ms', ...args], {
      NUDGE_HOME: home,
      ...env,
    });
  const start = async (args: string[], env: Record<string, string> = {}) => {
    const r = await run(args, env);
    expect(r.exitCode, shown(r)).toBe(0);
    return r.stdout.trim();
  };
  const ended = async (job: string, timeoutMs = 60_000): Promise<RunState> => {
    await waitForJobEnd(home, job, timeoutMs);
    // The ending is written after the report and the notice: the record first, then its event
    // (two writes; on a loaded machine a look can fall between them).
    await waitFor(
      `job ${job}'s ending event`,
      async () =>
        (await readJobEvents(home, job)).some((e) => TERMINAL.includes(e.event)) || undefined,
    );
    return JSON.parse(readFileSync(join(home, 'jobs', job, 'state.json'), 'utf8')) as RunState;
  };
  return {server, rec, home, run, start, ended};
}

/** Wait until `pidFile` holds a pid; return it. */
async function pidIn(pidFile: string): Promise<number> {
  const text = await waitFor(`a pid in ${pidFile}`, async () =>
    existsSync(pidFile) ? readFileSync(pidFile, 'utf8').trim() || undefined : undefined,
  );
  return Number(text);
}

async function repo(server: TmuxTestServer, name = 'repo'): Promise<string> {
  const dir = join(server.dir, name);
  mkdirSync(dir);
  git(dir, 'init', '-q', '-b', 'main');
  writeFileSync(join(dir, 'a.txt'), 'one\ntwo\nthree\n');
  writeFileSync(join(dir, 'gone.txt'), 'x\n');
  git(dir, 'add', '.');
  git(dir, 'commit', '-qm', 'init');
  return dir;
}

describe('nudge run', () => {
  it('a command that exits 0 and one that exits 3: done and failed (exit 3), each report has the output, each notice reaches the caller once, byte for byte', async () => {
    const w = await world();
    const ok = await w.start(['--cwd', w.server.dir, '--', 'echo "all good"; echo fine >&2']);
    // Several words: each is one word for the shell (no shell sees them joined).
    const bad = await w.start([
      '--cwd',
      w.server.dir,
      '--',
      'sh',
      '-c',
      'echo "it\'s broken: $0"; exit 3',
      'x y',
    ]);
    const [okState, badState] = await Promise.all([w.ended(ok), w.ended(bad)]);
    expect(okState).toMatchObject({state: 'done', exitCode: 0, notified: true});
    expect(okState.report).toMatchObject({status: 'success', changes: null, commits: []});
    expect(okState.report.outputTail).toEqual(['all good', 'fine']);
    expect(badState).toMatchObject({state: 'failed', exitCode: 3, notified: true});
    expect(badState.report.status).toBe('failed');
    expect(badState.report.outputTail).toEqual(["it's broken: x y"]);
    expect(badState.report.command).toBe(`sh -c 'echo "it'\\''s broken: $0"; exit 3' 'x y'`);
    const report = readFileSync(badState.report.path, 'utf8');
    expect(report).toContain('- **Status:** failed');
    expect(report).toContain('- **Exit code:** 3');
    expect(report).toContain("it's broken: x y");
    // Each notice once, whole, in the caller's pane (in whichever order the runs ended).
    const got = await w.rec.lines(2);
    expect(got.sort()).toEqual([runNotice(okState.report), runNotice(badState.report)].sort());
    expect(runNotice(badState.report)).toMatch(
      new RegExp(
        `^\\[nudge run ${bad}\\] failed \\(exit 3\\) after \\d+(\\.\\d)?(ms|s) — report: `,
      ),
    );
    // The run's pane is left open for a person to read, its shell at the prompt.
    const panes = await w.server.tmux('list-panes', '-a', '-F', '#{pane_id}');
    expect(panes.split('\n')).toContain(okState.report.pane);
  });

  it('a command that goes quiet ends on the idle timeout; what it started is gone', async () => {
    const w = await world();
    const pidFile = join(w.server.dir, 'quiet.pid');
    const job = await w.start([
      '--idle-timeout',
      '2s',
      '--cwd',
      w.server.dir,
      '--',
      `echo working; sleep 300 & echo $! > ${pidFile}; wait`,
    ]);
    const pid = await pidIn(pidFile);
    const end = await w.ended(job);
    expect(end).toMatchObject({state: 'timeout', notified: true});
    expect(end.reason).toMatch(/^idle timeout: no output and no file change for 2\.0s/);
    expect(end.report.status).toBe('idle-timeout');
    expect(isAlive(pid)).toBe(false);
    const [notice] = await w.rec.lines(1);
    expect(notice).toMatch(new RegExp(`^\\[nudge run ${job}\\] idle-timeout after \\d`));
    const events = await jobEventNames(w.home, job);
    expect(events).toEqual(expect.arrayContaining(['stopping', 'interrupted', 'timeout']));
  });

  it.each(PROCESS_VIEWS)(
    'a command that never stops printing ends on the total timeout: interrupted, its process group ended, the pane left open (%s reader)',
    async (view) => {
      const w = await world();
      const reader = processViewEnv(view, w.server.dir);
      const pidFile = join(w.server.dir, 'chatty.pid');
      // It ignores C-c: only ending its process group stops it.
      const job = await w.start(
        [
          '--timeout',
          '3s',
          '--cwd',
          w.server.dir,
          '--',
          `sh -c 'trap "" INT; echo $$ > ${pidFile}; while :; do echo tick; sleep 0.1; done'`,
        ],
        reader.env,
      );
      const pid = await pidIn(pidFile);
      const end = await w.ended(job);
      expect(end).toMatchObject({state: 'timeout', notified: true});
      expect(end.reason).toBe('total timeout: still running after 3.0s.');
      expect(end.report.status).toBe('timeout');
      expect(end.report.outputTail).toContain('tick');
      await waitFor('the command to be gone', async () => !isAlive(pid) || undefined);
      const events = await readJobEvents(w.home, job);
      expect(events.find((e) => e.event === 'group-ended')).toMatchObject({
        how: expect.stringMatching(/terminated|killed/),
      });
      expect(events.filter((e) => e.event === 'progress').length).toBeGreaterThan(0);
      // Through the ps reader, the group ended is the one ps named as the pane's foreground.
      if (view === 'ps')
        expect(reader.calls().some((c) => c.startsWith('ps -o tpgid= -p'))).toBe(true);
      // The pane's shell is still there (a person can read what happened).
      const cmd = await w.server.tmux(
        'display',
        '-p',
        '-t',
        end.report.pane,
        '#{pane_current_command}',
      );
      expect(cmd.trim()).toBe('bash');
    },
  );

  it.each(PROCESS_VIEWS)(
    'cancel stops a run: cancelled, the report written, its processes gone, no notice (%s reader)',
    async (view) => {
      const w = await world();
      const reader = processViewEnv(view, w.server.dir);
      const pidFile = join(w.server.dir, 'long.pid');
      const job = await w.start(
        ['--cwd', w.server.dir, '--', `echo $BASHPID > ${pidFile}; exec sleep 300`],
        reader.env,
      );
      const pid = await pidIn(pidFile);
      const cancelled = await runNudge(['cancel', job], {NUDGE_HOME: w.home, ...reader.env});
      expect(cancelled.exitCode, shown(cancelled)).toBe(0);
      expect(cancelled.stdout).toBe(`Cancelled job ${job}.`);
      const end = await w.ended(job);
      expect(end).toMatchObject({state: 'cancelled', notified: false});
      expect(end.report.status).toBe('cancelled');
      expect(existsSync(end.report.path)).toBe(true);
      expect(isAlive(pid)).toBe(false);
      expect((await w.rec.bytes()).length).toBe(0);
      // Through the ps reader, the worker signalled was identified by its start time from ps.
      if (view === 'ps')
        expect(reader.calls().some((c) => c.startsWith('ps -o stat=,lstart= -p'))).toBe(true);
    },
  );

  it('--worktree: a new branch from HEAD; what the command changed and committed is committed on the branch, counted, and reported; --pr without gh says so and skips', async () => {
    const w = await world();
    const dir = await repo(w.server);
    const job = await w.start(
      [
        '--cwd',
        dir,
        '--worktree',
        '--pr',
        '--',
        [
          'echo new > b.txt',
          'printf "four\\nfive\\n" >> a.txt',
          'git rm -q gone.txt',
          'git -c user.name=t -c user.email=t@example.com commit -qm "remove gone.txt"',
          'mkdir -p sub && printf "1\\n2\\n3\\n" > sub/c.txt',
        ].join(' && '),
      ],
      {NUDGE_GH: join(w.server.dir, 'no-such-gh')},
    );
    const end = await w.ended(job);
    expect(end.state, end.reason).toBe('done');
    const r = end.report;
    const worktree = `${dir}-nudge-${job}`;
    expect(r).toMatchObject({worktree, branch: `nudge/${job}`, cwd: worktree});
    expect(r.changes).toEqual([
      {file: 'a.txt', added: 2, deleted: 0},
      {file: 'b.txt', added: 1, deleted: 0},
      {file: 'gone.txt', added: 0, deleted: 1},
      {file: 'sub/c.txt', added: 3, deleted: 0},
    ]);
    expect(r.commits).toHaveLength(2);
    expect(r.commits[0]).toMatch(/^[0-9a-f]{7,} remove gone\.txt$/);
    expect(r.commits[1]).toMatch(new RegExp(`^[0-9a-f]{7,} nudge run ${job}: `));
    expect(r.pr).toEqual({skipped: 'gh is not installed (see https://cli.github.com).'});
    // The branch holds it all; the repository's own checkout is untouched.
    expect(git(dir, 'log', '--format=%s', `nudge/${job}`).trim().split('\n')).toHaveLength(3);
    expect(git(dir, 'status', '--porcelain').trim()).toBe('');
    expect(git(worktree, 'status', '--porcelain').trim()).toBe('');
    const md = readFileSync(r.path, 'utf8');
    expect(md).toContain('- a.txt (+2, -0)');
    expect(md).toContain('- gone.txt (+0, -1)');
    expect(md).toContain('- **Pull request:** skipped: gh is not installed');
    const [notice] = await w.rec.lines(1);
    expect(notice).toBe(runNotice(r));
    expect(notice).toContain(' — 4 files changed — report: ');
  });

  it('--pr with gh and a remote: the branch is pushed and the pull request address recorded', async () => {
    const w = await world();
    const dir = await repo(w.server);
    const remote = join(w.server.dir, 'remote.git');
    git(w.server.dir, 'init', '-q', '--bare', remote);
    git(dir, 'remote', 'add', 'origin', remote);
    // A stand-in for gh: records its arguments, prints an address as `gh pr create` does.
    const ghLog = join(w.server.dir, 'gh.log');
    const gh = join(w.server.dir, 'gh');
    writeFileSync(
      gh,
      `#!/bin/sh\necho "$*" >> ${ghLog}\n[ "$1" = pr ] && echo https://github.example/o/r/pull/7\nexit 0\n`,
    );
    chmodSync(gh, 0o755);
    const job = await w.start(
      ['--cwd', dir, '--worktree', 'feature/x', '--pr', '--no-notice', '--', 'echo x > x.txt'],
      {NUDGE_GH: gh},
    );
    const end = await w.ended(job);
    expect(end.state, end.reason).toBe('done');
    expect(end.report.pr).toEqual({url: 'https://github.example/o/r/pull/7'});
    expect(readFileSync(ghLog, 'utf8')).toBe('--version\npr create --fill --head feature/x\n');
    expect(git(remote, 'log', '--format=%s', 'feature/x').trim()).toMatch(`nudge run ${job}: `);
    expect((await w.rec.bytes()).length).toBe(0);
  });

  it('outside a worktree, in a git directory: only the files the run changed are listed', async () => {
    const w = await world();
    const dir = await repo(w.server);
    // A change that was there before the run is not the run's.
    writeFileSync(join(dir, 'before.txt'), 'old\n');
    const job = await w.start([
      '--cwd',
      dir,
      '--no-notice',
      '--',
      'echo more >> a.txt; echo n > new.txt',
    ]);
    const end = await w.ended(job);
    expect(end.report.changes).toEqual([
      {file: 'a.txt', added: 1, deleted: 0},
      {file: 'new.txt', added: 1, deleted: 0},
    ]);
    expect(end.report.commits).toEqual([]);
  });

  it('from outside tmux (a script, a scheduler): a window in the most recently used session, or --session; nobody is told', async () => {
    const w = await world();
    await w.server.tmux('new-session', '-d', '-s', 'later', 'bash', '--norc', '--noprofile');
    const outside = (args: string[]) =>
      runNudge(['run', '-S', w.server.socket, '--cwd', w.server.dir, ...args], {
        NUDGE_HOME: w.home,
      });
    const sessionOf = async (pane: string) =>
      (await w.server.tmux('display', '-p', '-t', pane, '#{session_name}')).trim();
    const recent = await outside(['--json', '--', 'echo hi']);
    expect(recent.exitCode, shown(recent)).toBe(0);
    const a = JSON.parse(recent.stdout) as {job: string; pane: string; place: string};
    expect(await sessionOf(a.pane)).toBe('later');
    const named = await outside(['--session', 'main', '--json', '--', 'echo hi']);
    const b = JSON.parse(named.stdout) as {job: string; pane: string; place: string};
    expect(b.place).toBe('new window in session main');
    expect(await sessionOf(b.pane)).toBe('main');
    for (const job of [a.job, b.job]) {
      expect(await w.ended(job)).toMatchObject({state: 'done', notified: false});
    }
    const split = await outside(['--split', 'h', '--', 'true']);
    expect(split.exitCode).toBe(2);
    expect(split.stderr).toMatch(/^nudge: --split splits the window nudge runs in/);
    expect((await w.rec.bytes()).length).toBe(0);
  });

  it("--split: the pane goes beside the caller's, in its window; --close closes it at the end", async () => {
    const w = await world();
    const r = await w.run(['--split', 'v', '--close', '--no-notice', '--json', '--', 'sleep 1']);
    expect(r.exitCode, shown(r)).toBe(0);
    const {job, pane, place} = JSON.parse(r.stdout) as {job: string; pane: string; place: string};
    expect(place).toBe(`split of ${w.rec.pane}`);
    const windowOf = async (p: string) =>
      (await w.server.tmux('display', '-p', '-t', p, '#{window_id}')).trim();
    expect(await windowOf(pane)).toBe(await windowOf(w.rec.pane));
    expect(await w.ended(job)).toMatchObject({state: 'done'});
    const panes = await w.server.tmux('list-panes', '-a', '-F', '#{pane_id}');
    expect(panes.split('\n')).not.toContain(pane);
  });

  it('--notify: the person is told of the end (a webhook on 127.0.0.1), once', async () => {
    const w = await world();
    const http = await startHttpSink();
    const r = await w.run(
      [
        '--wait',
        '--cwd',
        w.server.dir,
        '--no-notice',
        '--notify',
        `webhook:${http.url}/run`,
        '--',
        'exit 3',
      ],
      allowSinks([`webhook:${http.url}/run`]),
    );
    expect(r.exitCode, shown(r)).toBe(1);
    const [post] = await http.waitFor('/run');
    expect(JSON.parse(post?.body ?? '')).toMatchObject({
      event: 'failed',
      state: 'failed',
      reason: 'The command exited with status 3.',
    });
    // The command's text stays here (config.toml's [notify] preview = true sends it).
    expect(JSON.parse(post?.body ?? '')).not.toHaveProperty('preview');
    await new Promise((done) => setTimeout(done, 500));
    expect(http.received).toHaveLength(1);
  });

  it('--wait runs in the foreground with the exit codes of submit --wait', async () => {
    const w = await world();
    const failed = await w.run(['--wait', '--cwd', w.server.dir, '--no-notice', '--', 'exit 3']);
    expect(failed.exitCode, shown(failed)).toBe(1);
    expect(failed.stdout).toMatch(
      /^\S+ failed after \S+, exit 3: The command exited with status 3\.\nreport: \//,
    );
    const slow = await w.run([
      '--wait',
      '--timeout',
      '1s',
      '--cwd',
      w.server.dir,
      '--no-notice',
      '--json',
      '--',
      'sleep 30',
    ]);
    expect(slow.exitCode, shown(slow)).toBe(124);
    expect(JSON.parse(slow.stdout)).toMatchObject({state: 'timeout', report: {status: 'timeout'}});
  });

  it('bad input: one sentence, exit 2, and no pane opened, no worktree made', async () => {
    const w = await world();
    const windows = async () => (await w.server.tmux('list-windows', '-a')).split('\n').length;
    const before = await windows();
    const dir = await repo(w.server);
    const cases: Array<[string[], RegExp]> = [
      [[], /^nudge: Nothing to run: give the command after "--"/],
      [['--agent', 'claude', '--'], /^nudge: Nothing to ask claude: give the prompt after "--"/],
      [
        ['--pr', '--', 'true'],
        /^nudge: --pr opens a pull request for the run's branch: it needs --worktree\.$/,
      ],
      [
        ['--cwd', w.server.dir, '--worktree', '--', 'true'],
        /^nudge: --worktree needs a git repository, and .* is not in one\.$/,
      ],
      [
        ['--cwd', join(w.server.dir, 'nope'), '--', 'true'],
        /is not a folder; --cwd names the folder to run in\.$/,
      ],
      [
        ['--cwd', dir, '--worktree', 'bad..name', '--', 'true'],
        /^nudge: "bad\.\.name" is not a valid git branch name\.$/,
      ],
      [['--idle-timeout', 'soon', '--', 'true'], /--idle-timeout/],
      [['--split', 'x', '--', 'true'], /split/],
      [['--notify-pane', '%0', '--no-notice', '--', 'true'], /exclude each other/],
    ];
    for (const [args, message] of cases) {
      const r = await w.run(args);
      expect(r.exitCode, `${args.join(' ')}\n${shown(r)}`).toBe(2);
      expect(r.stderr, args.join(' ')).toMatch(message);
      expect(r.stderr.split('\n')).toHaveLength(1);
    }
    expect(await windows()).toBe(before);
    expect(git(dir, 'worktree', 'list').trim().split('\n')).toHaveLength(1);
    expect(git(dir, 'branch').trim()).toBe('* main');
  });
});
