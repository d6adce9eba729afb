// The state directory under attack or out of space: symlinks, another owner, loose
// permissions, path traversal through job and pane arguments, read-only and full disks.
// Every refusal is one sentence with exit 1 or 2 and nothing spawned; every file nudge
// writes is 0600 in 0700 directories; the request never shows in any process's argv.
import {execFileSync} from 'node:child_process';
import {
  chmodSync,
  chownSync,
  existsSync,
  lchownSync,
  lstatSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import {join} from 'node:path';
import {execa} from 'execa';
import {describe, expect, it} from 'vitest';
import {paneKey} from '../../src/locks/key.js';
import {relayOf, writeRelay} from '../../src/relay/record.js';
import {
  childrenOf,
  recordFigure,
  submitJob,
  TRANSPORTS,
  waitForEvent,
  workerPid,
} from '../helpers/faults.js';
import {expectJobEnd, readJobState} from '../helpers/job-files.js';
import {jobIds, serverWorld, useNudgeHome} from '../helpers/nudge-home.js';
import {isAlive} from '../helpers/process-view.js';
import {recorderWorld, startRecorder} from '../helpers/recorder-pane.js';
import {CLI, runNudge, submitArgv, unwrapped} from '../helpers/run-nudge.js';
import {useTempDir} from '../helpers/temp-dir.js';
import {fillDisk, useTmpfs} from '../helpers/tmpfs.js';
import {cleanEnv, startTmuxServer} from '../helpers/tmux-server.js';

/** The refusal contract: exit code, one plain line naming the problem, no stack, no job. */
function expectRefused(
  r: {exitCode: number | undefined; stdout: string; stderr: string},
  code: number,
  says: RegExp,
) {
  const shown = `exit ${r.exitCode}\nstdout: ${r.stdout}\nstderr: ${r.stderr}`;
  expect(r.exitCode, shown).toBe(code);
  expect(r.stderr.trimEnd().split('\n'), shown).toHaveLength(1);
  expect(r.stderr, shown).toMatch(says);
  expect(r.stderr, shown).not.toMatch(/internal error|^\s+at /im);
}

describe("another user's state directory behind a symlinked NUDGE_HOME: readers refuse it as writers do (issue 61)", () => {
  it('jobs, status, logs, top, wait and explain: exit 1, one sentence, nothing of it shown; doctor says why and lists none of it', async () => {
    const server = await startTmuxServer();
    await server.waitForScreen('%0', /^\$/m);
    const base = useTempDir('nudge-foreign-');
    // Their folder, with a job of theirs, and our NUDGE_HOME a link to it.
    const real = join(base, 'theirs');
    const id = '0mxbdtpzh-zzzz';
    mkdirSync(join(real, 'jobs', id), {recursive: true, mode: 0o700});
    writeFileSync(
      join(real, 'jobs', id, 'state.json'),
      JSON.stringify({id, state: 'waiting', pane: '%0', preview: 'THEIR-SECRET'}),
    );
    writeFileSync(join(real, 'jobs', id, 'log'), 'THEIR-SECRET\n');
    for (const dir of [real, join(real, 'jobs'), join(real, 'jobs', id)])
      chownSync(dir, 12345, 12345);
    const home = join(base, 'home');
    symlinkSync(real, home);
    const env = {NUDGE_HOME: home};
    for (const args of [
      ['jobs', '--host', 'local'],
      ['status', id],
      ['logs', id],
      ['top', '--once', '-S', server.socket],
      ['wait', '-S', server.socket, '--pane', '%0', '--timeout', '1s'],
      ['explain', '-S', server.socket, '%0'],
    ]) {
      const r = await runNudge(args, env);
      expectRefused(
        r,
        1,
        /The state directory .*home is not a plain directory \(a symlink or a file\)/,
      );
      expect(r.stdout, args.join(' ')).not.toContain('THEIR-SECRET');
      expect(r.stdout, args.join(' ')).not.toContain(id);
    }
    const doctor = await runNudge(['doctor', '-S', server.socket], env);
    expect(unwrapped(doctor.stdout)).toMatch(/state-dir .*not a plain directory/);
    expect(doctor.stdout).not.toContain(id);
    expect(doctor.stdout).not.toContain('THEIR-SECRET');
  });
});

describe('an unsafe state directory is refused', () => {
  const cases: Array<[string, (base: string) => string, RegExp]> = [
    [
      'a symlink to a directory',
      (base) => {
        mkdirSync(join(base, 'real'), {mode: 0o700});
        symlinkSync(join(base, 'real'), join(base, 'home'));
        return join(base, 'home');
      },
      /symlink/,
    ],
    [
      'owned by another user',
      (base) => {
        mkdirSync(join(base, 'home'), {mode: 0o700});
        chownSync(join(base, 'home'), 12345, 12345);
        return join(base, 'home');
      },
      /belongs to another user/,
    ],
    [
      'writable by others (0777)',
      (base) => {
        mkdirSync(join(base, 'home'));
        chmodSync(join(base, 'home'), 0o777);
        return join(base, 'home');
      },
      /writable by others|chmod/,
    ],
    [
      'with jobs/ a symlink to elsewhere',
      (base) => {
        mkdirSync(join(base, 'home'), {mode: 0o700});
        mkdirSync(join(base, 'elsewhere'), {mode: 0o700});
        symlinkSync(join(base, 'elsewhere'), join(base, 'home', 'jobs'));
        return join(base, 'home');
      },
      /jobs.*(symlink|plain directory)/,
    ],
    [
      "under a symbolic link of another user's (its owner could point it elsewhere later)",
      (base) => {
        mkdirSync(join(base, 'real'), {mode: 0o700});
        symlinkSync(join(base, 'real'), join(base, 'link'));
        lchownSync(join(base, 'link'), 12345, 12345);
        return join(base, 'link', 'home');
      },
      /symbolic link of another user/,
    ],
    [
      'under a regular file',
      (base) => {
        writeFileSync(join(base, 'file'), 'x');
        return join(base, 'file', 'home');
      },
      /state directory/,
    ],
  ];
  it.each(cases)('%s → exit 1, nothing written through it', async (_name, make, says) => {
    const server = await startTmuxServer();
    const rec = await startRecorder(server);
    const base = useTempDir('nudge-unsafe-');
    const home = make(base);
    const r = await runNudge(submitArgv(server.socket, rec.pane, {delay: 0}, 'x'), {
      NUDGE_HOME: home,
    });
    expectRefused(r, 1, says);
    expect(existsSync(join(base, 'elsewhere', 'x'))).toBe(false);
    if (existsSync(join(base, 'elsewhere')))
      expect(readdirSync(join(base, 'elsewhere'))).toEqual([]);
    expect((await rec.bytes()).length).toBe(0);
    recordFigure({scenario: 'unsafe state dir refused', jobs: 0, accounted: 0});
  });

  it('a read-only state directory (tmpfs remounted ro) → exit 1, nothing spawned', async () => {
    const fs = useTmpfs('1m');
    if (!fs) return; // mounting is not allowed here (the README says so)
    const server = await startTmuxServer();
    const rec = await startRecorder(server);
    const home = join(fs, 'home');
    mkdirSync(home, {mode: 0o700});
    execFileSync('mount', ['-o', 'remount,ro', fs]);
    const r = await runNudge(submitArgv(server.socket, rec.pane, {delay: 0}, 'x'), {
      NUDGE_HOME: home,
    });
    expectRefused(r, 1, /state directory/);
    expect(jobIds(home)).toEqual([]);
    recordFigure({scenario: 'read-only state dir at submit', jobs: 0, accounted: 0});
  });
});

describe('a state directory not made yet on a read-only file system (issue 62)', () => {
  it('says the file system is read-only, not that a folder is missing', async () => {
    const fs = useTmpfs('1m');
    if (!fs) return; // mounting is not allowed here (the README says so)
    const server = await startTmuxServer();
    const rec = await startRecorder(server);
    execFileSync('mount', ['-o', 'remount,ro', fs]);
    const home = join(fs, 'not', 'made');
    const r = await runNudge(submitArgv(server.socket, rec.pane, {delay: 0}, 'x'), {
      NUDGE_HOME: home,
    });
    expectRefused(
      r,
      1,
      new RegExp(
        `^nudge: Cannot use the state directory ${home}: the file system is read-only; make it writable or set NUDGE_HOME to a writable directory\\.$`,
      ),
    );
    expect((await rec.bytes()).length).toBe(0);
  });
});

describe('a full disk', () => {
  it('at submit: exit 1 with one sentence, no worker, no half-made job left', async () => {
    const fs = useTmpfs('256k');
    if (!fs) return;
    const server = await startTmuxServer();
    const rec = await startRecorder(server);
    const home = join(fs, 'home');
    // A first job works and leaves the state dir in place.
    await submitJob(
      home,
      submitArgv(server.socket, rec.pane, {delay: 0, notice: false, wait: true}, 'first'),
    );
    fillDisk(fs);
    const r = await runNudge(
      submitArgv(server.socket, rec.pane, {delay: 0, notice: false}, 'second'),
      {NUDGE_HOME: home},
    );
    expectRefused(r, 1, /space|ENOSPC|full/i);
    expect(jobIds(home)).toHaveLength(1);
    recordFigure({scenario: 'disk full at submit', jobs: 1, accounted: 1});
  });

  it("at submit, the pane's queue cannot be written: exit 1, no job left behind", async () => {
    const {server, rec, home} = await recorderWorld();
    await submitJob(
      home,
      submitArgv(server.socket, rec.pane, {delay: 0, notice: false, wait: true}, 'first'),
    );
    // The job is recorded first; then joining the pane's queue fails (a file stands where
    // the queue directory goes).
    const serverPid = Number((await server.tmux('display-message', '-p', '#{pid}')).trim());
    const queueDir = join(
      home,
      'locks',
      `${paneKey({socketPath: server.socket, serverPid: serverPid, pane: rec.pane})}.queue`,
    );
    rmSync(queueDir, {recursive: true, force: true});
    writeFileSync(queueDir, '');
    const r = await runNudge(
      submitArgv(server.socket, rec.pane, {delay: 0, notice: false}, 'second'),
      {NUDGE_HOME: home},
    );
    expectRefused(r, 1, /locks|write|state/i);
    expect(jobIds(home)).toHaveLength(1);
    expect((await rec.bytes()).toString()).not.toContain('second');
    recordFigure({scenario: 'queue unwritable at submit', jobs: 1, accounted: 1});
  });

  it.each(TRANSPORTS)(
    'during a job (%s transport): nothing typed blind, the pane is free once space returns',
    async (transport) => {
      const fs = useTmpfs('256k');
      if (!fs) return;
      const server = await startTmuxServer();
      const rec = await startRecorder(server);
      const home = join(fs, 'home');
      const env = {NUDGE_TRANSPORT: transport};
      const id = await submitJob(
        home,
        submitArgv(server.socket, rec.pane, {delay: '2s', notice: false}, 'while full'),
        env,
      );
      const pid = await workerPid(home, id);
      await waitForEvent(home, id, 'locked');
      const filler = fillDisk(fs);
      // Its delay (2 s) over, the job would type: it cannot record that it types, so it
      // waits — alive, nothing typed — rather than type blind or die (issue 62).
      await new Promise((resolve) => setTimeout(resolve, 5_000));
      expect(isAlive(pid)).toBe(true);
      expect((await rec.bytes()).toString()).toBe('');
      expect((await readJobState(home, id)).state).toBe('locked');
      // Space comes back: the job types, once, and records it; then the next job runs.
      execFileSync('rm', ['-f', filler]);
      await expectJobEnd(home, id, 'done', 30_000);
      const next = await submitJob(
        home,
        submitArgv(server.socket, rec.pane, {delay: 0, notice: false}, 'after'),
        env,
      );
      await expectJobEnd(home, next, 'done', 30_000);
      recordFigure({
        scenario: 'disk full mid-job',
        transport,
        jobs: 2,
        accounted: 2,
      });
      expect((await rec.bytes()).toString()).toBe('while full\rafter\r');
    },
  );
});

describe('path traversal through arguments', () => {
  it('job ids like ../../x are refused by status, cancel and logs (exit 2)', async () => {
    const home = useNudgeHome();
    mkdirSync(join(home, 'jobs'), {recursive: true, mode: 0o700});
    for (const command of ['status', 'cancel', 'logs']) {
      for (const id of ['../../x', '..', 'a/b', '/etc/passwd', '0mwr37p8o-u853/../../x']) {
        const r = await runNudge([command, id], {NUDGE_HOME: home});
        expectRefused(r, 2, /not a job id/);
      }
    }
    recordFigure({scenario: 'job id path traversal refused', jobs: 0, accounted: 0});
  });

  it('a pane argument like ../../x is no pane (exit 2), and nothing is created for it', async () => {
    const {server, home} = await serverWorld();
    for (const pane of ['../../x', '%0/../../x', 'main:0.0/x', '%0;kill-server']) {
      const r = await runNudge(['submit', '-S', server.socket, '--pane', pane, '--', 'x'], {
        NUDGE_HOME: home,
      });
      expectRefused(r, 2, /was not found|not a pane/);
    }
    expect(jobIds(home)).toEqual([]);
    // The server is still there (no command was smuggled in through the pane name).
    await server.tmux('has-session', '-t', 'main');
  });

  it('a worker started with --id ../../victim writes nothing outside the jobs dir', async () => {
    const home = useNudgeHome();
    mkdirSync(join(home, 'jobs'), {recursive: true, mode: 0o700});
    // What the traversal would hit: <home>/../victim/state.json
    const victim = join(home, '..', 'victim');
    mkdirSync(victim);
    const decoy = JSON.stringify({state: 'queued', id: 'victim'});
    writeFileSync(join(victim, 'state.json'), decoy);
    const worker = join(CLI, '..', '..', 'workers', 'job-worker.js');
    const r = await execa(process.execPath, [worker, '--id', '../../victim'], {
      env: cleanEnv({NUDGE_HOME: home}),
      extendEnv: false,
      reject: false,
      timeout: 20_000,
    });
    expect(r.exitCode).toBe(1);
    expect(readFileSync(join(victim, 'state.json'), 'utf8')).toBe(decoy);
    expect(readdirSync(victim)).toEqual(['state.json']);
    recordFigure({scenario: 'worker --id ../../victim', jobs: 0, accounted: 0});
  });

  it('a relay worker whose record is garbage records why in its own record and exits 1; a watch worker named ../x touches nothing', async () => {
    const home = useNudgeHome();
    const job = '0mwt00000-abcd';
    // A relay record that names no pane to type into.
    await writeRelay(home, {
      job,
      to: 'nowhere' as never,
      notice: {},
      state: 'following',
      updatedAt: 'x',
    });
    const worker = (kind: string) => join(CLI, '..', '..', 'workers', `${kind}-worker.js`);
    const run = (kind: string, id: string) =>
      execa(process.execPath, [worker(kind), '--id', id], {
        env: cleanEnv({NUDGE_HOME: home}),
        extendEnv: false,
        reject: false,
        timeout: 20_000,
      });
    const relay = await run('relay', job);
    expect(relay.exitCode).toBe(1);
    expect(await relayOf(home, job)).toMatchObject({
      state: 'failed',
      error: `Worker failed: the relay recorded for job ${job} is not one.`,
    });
    const before = readdirSync(home).sort();
    const watch = await run('watch', '../x');
    expect(watch.exitCode).toBe(1);
    expect(watch.stderr).toContain('"../x" is not an id of a watch');
    expect(readdirSync(home).sort()).toEqual(before);
    recordFigure({scenario: 'relay and watch workers handed garbage', jobs: 0, accounted: 0});
  });
});

/** Every path under `dir` with its mode. */
function modes(dir: string): Array<[string, 'dir' | 'file', number]> {
  const out: Array<[string, 'dir' | 'file', number]> = [];
  for (const name of readdirSync(dir)) {
    const path = join(dir, name);
    const st = lstatSync(path);
    out.push([path, st.isDirectory() ? 'dir' : 'file', st.mode & 0o777]);
    if (st.isDirectory()) out.push(...modes(path));
  }
  return out;
}

describe('privacy of the state and of the request', () => {
  it.each(TRANSPORTS)(
    'files 0600, dirs 0700, and no argv or environment ever holds the request (%s transport)',
    async (transport) => {
      const {server, rec, home} = await recorderWorld();
      const env = {NUDGE_TRANSPORT: transport};
      const secret = `s3cret-${Date.now()}-token`;
      const encoded = Buffer.from(secret).toString('base64').slice(0, 12);
      // A job that waits: a quiet pane needing 1000 identical captures.
      const id = await submitJob(
        home,
        submitArgv(
          server.socket,
          rec.pane,
          {delay: 0, typeDelay: 0, stableChecks: 1000},
          `echo ${secret}`,
        ),
        env,
      );
      const pid = await workerPid(home, id);
      await waitForEvent(home, id, 'waiting');
      // A second job queued behind it holds the lock queue too.
      await submitJob(
        home,
        submitArgv(server.socket, rec.pane, {delay: 0}, `second ${secret}`),
        env,
      );
      const ps = execFileSync('ps', ['-eo', 'pid,args'], {encoding: 'utf8'});
      const leaks = ps.split('\n').filter((l) => l.includes(secret) || l.includes(encoded));
      expect(leaks, ps).toEqual([]);
      // Nor in the environment of the worker or of anything it started (the tmux client): the
      // store is the request's one carrier.
      for (const p of [pid, ...childrenOf(pid)]) {
        let environ = '';
        try {
          environ = readFileSync(`/proc/${p}/environ`, 'latin1');
        } catch {
          continue; // a tmux call that just ended
        }
        expect(environ).not.toContain(secret);
        expect(environ).not.toContain('NUDGE_REQUEST');
      }
      for (const [path, kind, mode] of modes(home)) {
        expect(`${path} ${mode.toString(8)}`).toBe(
          `${path} ${(kind === 'dir' ? 0o700 : 0o600).toString(8)}`,
        );
      }
      expect(lstatSync(home).mode & 0o777).toBe(0o700);
      recordFigure({scenario: 'state modes and argv privacy', transport, jobs: 2, accounted: 2});
    },
  );
});
