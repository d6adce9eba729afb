// The pane, the tmux server or tmux itself goes away under a job: the job fails with a clear
// reason, its lock is freed, and nothing is typed anywhere else — not into a new pane that
// takes the same index, not into the %0 of a restarted server.
import {execFileSync} from 'node:child_process';
import {mkdirSync, symlinkSync, unlinkSync} from 'node:fs';
import {readFile} from 'node:fs/promises';
import {join} from 'node:path';
import {setTimeout as sleep} from 'node:timers/promises';
import {describe, expect, it} from 'vitest';
import {
  endedOnceAndFreed,
  recordFigure,
  submitJob,
  TRANSPORTS,
  waitForEvent,
  waitForGroupGone,
  waitForLocksFree,
  workerPid,
} from '../helpers/faults.js';
import {waitForJobEnd} from '../helpers/job-files.js';
import {jobIds, serverWorld, useNudgeHome} from '../helpers/nudge-home.js';
import {hex, recorderWorld, startRecorder} from '../helpers/recorder-pane.js';
import {FIXTURES, runNudge, submitArgv} from '../helpers/run-nudge.js';
import {useTempDir} from '../helpers/temp-dir.js';
import {MAIN_SESSION, startTmuxServer, type TmuxTestServer} from '../helpers/tmux-server.js';
import {waitFor} from '../helpers/wait-for.js';

const RECORDER = join(FIXTURES, 'recorder.mjs');

/** Start a recorder as the first pane (%0) of a fresh session on `server`'s socket. */
async function recorderAsFirstPane(server: TmuxTestServer, file: string): Promise<void> {
  // The old server may still be going away from the socket ("server exited unexpectedly").
  await waitFor(
    'the old server to be gone',
    async () =>
      (await server.tmux('has-session').catch(() => 'gone')) === 'gone' ? true : undefined,
    {timeoutMs: 10_000},
  );
  for (let attempt = 1; ; attempt++) {
    try {
      await startRecorderSession(server, file);
      break;
    } catch (error) {
      if (attempt >= 5) throw error;
      await sleep(200);
    }
  }
  await server.waitForScreen('%0', /RECORDER READY/);
}

async function startRecorderSession(server: TmuxTestServer, file: string): Promise<void> {
  await server.tmux(...MAIN_SESSION, process.execPath, RECORDER, file);
}

const recorded = (file: string) => readFile(file).catch(() => Buffer.alloc(0));

/** A job that is typing (slowly) or waiting (a thousand stable checks) when tmux goes. */
const doomed = (phase: 'typing' | 'waiting') => ({
  delay: 0,
  typeDelay: phase === 'typing' ? '100ms' : 0,
  stableChecks: phase === 'typing' ? undefined : 1000,
  notice: 'NOTICE {job}',
});

describe.each(TRANSPORTS)('tmux goes away under a job (%s transport)', (transport) => {
  const env = {NUDGE_TRANSPORT: transport};

  it.each(['waiting', 'typing'] as const)(
    'the target pane is killed while %s: "pane gone", lock freed, nothing typed elsewhere',
    async (phase) => {
      const server = await startTmuxServer();
      const bystander = await startRecorder(server);
      const target = await startRecorder(server);
      const home = useNudgeHome();
      const windowIndex = (
        await server.tmux('display-message', '-p', '-t', target.pane, '#{window_index}')
      ).trim();
      const id = await submitJob(
        home,
        submitArgv(server.socket, target.pane, doomed(phase), `doomed text ${'d'.repeat(60)}`),
        env,
      );
      const pid = await workerPid(home, id);
      await waitForEvent(home, id, phase);
      if (phase === 'typing') await target.waitForLength(5);

      await server.tmux('kill-pane', '-t', target.pane);
      // A new window at once, which takes the killed window's index.
      const newcomer = await startRecorder(server);
      const newIndex = (
        await server.tmux('display-message', '-p', '-t', newcomer.pane, '#{window_index}')
      ).trim();
      expect(newIndex).toBe(windowIndex);

      const final = await waitForJobEnd(home, id, 30_000);
      expect(final.state, JSON.stringify(final)).toBe('failed');
      expect(final.reason).toMatch(new RegExp(`Pane ${target.pane} is gone`));
      const freeMs = await endedOnceAndFreed(home, id, pid);
      expect(hex(await newcomer.bytes())).toBe('');
      expect(hex(await bystander.bytes())).toBe('');
      recordFigure({
        scenario: `target pane killed while ${phase}`,
        transport,
        jobs: 1,
        accounted: 1,
        recoveryMs: freeMs,
        bytesVerified: 0,
      });
    },
  );

  it.each(['locked', 'waiting'] as const)(
    'the server restarts while %s and its new first pane (%0 again) is a recorder: nothing reaches it',
    async (phase) => {
      const dir = useTempDir('nudge-restart-');
      // A server whose %0 is a recorder, on a socket of our own.
      const server = await startTmuxServer([process.execPath, RECORDER, join(dir, 'first.bin')]);
      await server.waitForScreen('%0', /RECORDER READY/);
      const home = useNudgeHome();
      const id = await submitJob(
        home,
        submitArgv(server.socket, '%0', [
          ...(phase === 'locked'
            ? ['--delay', '4s', '--type-delay', '0']
            : ['--delay', '0', '--type-delay', '0', '--stable-checks', '1000', '--timeout', '4s']),
          '--notice',
          'NOTICE {job}',
          '--',
          'for the first server',
        ]),
        env,
      );
      const pid = await workerPid(home, id);
      await waitForEvent(home, id, phase);

      await server.tmux('kill-server');
      const second = join(server.dir, 'second.bin');
      await recorderAsFirstPane(server, second);

      const final = await waitForJobEnd(home, id, 30_000);
      expect(final.state, JSON.stringify(final)).toBe('lost');
      expect(final.reason).toMatch(/server restarted|stopped while/);
      await waitForGroupGone(pid);
      await waitForLocksFree(home);
      expect(hex(await recorded(second))).toBe('');
      recordFigure({
        scenario: `tmux server restarted (new %0) while ${phase}`,
        transport,
        jobs: 1,
        accounted: 1,
        bytesVerified: 0,
      });
    },
  );

  it.each(['typing', 'waiting'] as const)(
    'the tmux server is killed while %s: the job fails saying so',
    async (phase) => {
      const {server, rec, home} = await recorderWorld();
      const id = await submitJob(
        home,
        submitArgv(
          server.socket,
          rec.pane,
          {...doomed(phase), notice: undefined},
          `text ${'t'.repeat(60)}`,
        ),
        env,
      );
      const pid = await workerPid(home, id);
      await waitForEvent(home, id, phase);
      await server.tmux('kill-server');
      const final = await waitForJobEnd(home, id, 30_000);
      expect(final.state, JSON.stringify(final)).toBe('lost');
      expect(final.reason).toMatch(/tmux server .* stopped while|is gone/);
      await endedOnceAndFreed(home, id, pid);
      recordFigure({
        scenario: `tmux server killed while ${phase}`,
        transport,
        jobs: 1,
        accounted: 1,
      });
    },
  );

  it('tmux disappears from PATH while the job waits to type: "tmux is no longer on PATH"', async () => {
    const {server, rec, home} = await recorderWorld();
    const bin = join(server.dir, 'bin');
    mkdirSync(bin);
    const which = execFileSync('sh', ['-c', 'command -v tmux'], {encoding: 'utf8'});
    symlinkSync(which.trim(), join(bin, 'tmux'));
    const id = await submitJob(
      home,
      submitArgv(server.socket, rec.pane, {delay: '3s'}, 'never typed'),
      {...env, PATH: bin},
    );
    const pid = await workerPid(home, id);
    await waitForEvent(home, id, 'locked');
    unlinkSync(join(bin, 'tmux'));
    const final = await waitForJobEnd(home, id, 30_000);
    await waitForGroupGone(pid);
    await waitForLocksFree(home);
    if (String(final.transport).startsWith('control')) {
      // The control client attached when the lock was taken (fencing the pane is the job's
      // first tmux call): the job needs no tmux on PATH after that, and finishes over it.
      expect(final.state, JSON.stringify(final)).toBe('done');
      expect((await rec.bytes()).toString('latin1')).toMatch(/^never typed\r/);
    } else {
      expect(final.state, JSON.stringify(final)).toBe('failed');
      expect(final.reason).toMatch(/tmux is no longer on PATH/);
      expect(hex(await rec.bytes())).toBe('');
    }
    recordFigure({scenario: 'tmux removed from PATH mid-job', transport, jobs: 1, accounted: 1});
  });
});

describe('tmux missing at submit time', () => {
  it('exits 1 with one sentence and spawns nothing', async () => {
    const {server, home} = await serverWorld();
    const empty = join(server.dir, 'empty-bin');
    mkdirSync(empty);
    const r = await runNudge(['submit', '-S', server.socket, '--pane', '%0', '--', 'x'], {
      NUDGE_HOME: home,
      PATH: empty,
    });
    expect(r.exitCode, r.stderr).toBe(1);
    expect(r.stderr.trim().split('\n')).toHaveLength(1);
    expect(r.stderr).toMatch(/tmux is not installed or not on PATH/);
    expect(jobIds(home)).toEqual([]);
    recordFigure({scenario: 'tmux missing from PATH at submit', jobs: 0, accounted: 0});
  });
});
