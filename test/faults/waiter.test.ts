// The server's waiter (src/waiter/waiter.ts) under faults: three jobs waiting on three panes of
// one server run in one process; killed (SIGKILL) it loses no job (each shows lost, the next
// job gets a new waiter); stopped (SIGSTOP 20 s) the next job is served by a new waiter within
// the stop, and each job of the stopped one ends once, its notice typed at most once; the
// tmux server killed under it ends every job once and the waiter goes.
import {execFileSync} from 'node:child_process';
import {mkdirSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync} from 'node:fs';
import {join} from 'node:path';
import {describe, expect, it} from 'vitest';
import {
  statusOf,
  submitJob,
  TERMINAL,
  terminalEvents,
  waitForEvent,
  waitForGroupGone,
  workerPid,
} from '../helpers/faults.js';
import {expectJobEnd, readJobEvents, readJobState, waitForJobEnd} from '../helpers/job-files.js';
import {useNudgeHome} from '../helpers/nudge-home.js';
import {runNudge, submitArgs} from '../helpers/run-nudge.js';
import {useTempDir} from '../helpers/temp-dir.js';
import {fillDisk} from '../helpers/tmpfs.js';
import {startTmuxServer, type TmuxTestServer} from '../helpers/tmux-server.js';
import {waitFor} from '../helpers/wait-for.js';

const SHELL = ['bash', '--norc', '--noprofile'];
/** The waiter runs every job by default; said here so that the suite tests it whatever the
 * environment says. */
const ENV = {NUDGE_WAITER: '1'};
const JOBS = 3;

/** A command that waits for `go` to exist, then prints FINISHED-n (typed so that the screen
 * shows FINISHED-n only once the command prints it). */
const command = (go: string, n: number) =>
  `until [ -e ${go} ]; do sleep 0.2; done; echo FIN''ISHED-${n}`;

/** `count` jobs waiting on panes of their own of one server, each until its FINISHED-n. */
async function waitingJobs(count: number) {
  const server = await startTmuxServer(SHELL);
  const home = useNudgeHome();
  const go = join(useTempDir('nudge-waiter-go-'), 'go');
  const panes = ['%0'];
  while (panes.length < count) panes.push(await server.newPane(SHELL));
  const ids: string[] = [];
  for (const [i, pane] of panes.entries()) {
    ids.push(await submitJob(home, jobArgs(server, pane, i, go), ENV));
  }
  for (const id of ids) await waitForEvent(home, id, 'waiting', 60_000);
  const pids = await Promise.all(ids.map((id) => workerPid(home, id)));
  return {server, home, go, panes, ids, pids};
}

function jobArgs(server: TmuxTestServer, pane: string, n: number, go: string): string[] {
  return submitArgs(
    server.socket,
    pane,
    {until: `regex:FINISHED-${n}`, notice: `NOTICE-${n} {job}`, timeout: '5m'},
    command(go, n),
  );
}

/** Put job `id`'s entry in the waiter's `inbox` as a worker does: whole, by a rename (a file
 * written in place can be read half-written, and a malformed entry is dropped; CI saw it). */
function putEntry(inbox: string, id: string): void {
  const tmp = join(inbox, `${id}.json.test.tmp`);
  writeFileSync(tmp, JSON.stringify({job: id, vars: {}}));
  renameSync(tmp, join(inbox, `${id}.json`));
}

/** How many times pane `pane` shows job `n`'s notice (its history and screen). */
async function noticesIn(server: TmuxTestServer, pane: string, n: number): Promise<number> {
  const text = await server.tmux('capture-pane', '-p', '-J', '-S', '-', '-t', pane);
  return text.split('\n').filter((line) => line.includes(`NOTICE-${n} `)).length;
}

describe('the waiter under faults', () => {
  it('runs the jobs of one server in one process; killed, it loses none of them', async () => {
    const w = await waitingJobs(JOBS);
    // One waiter for the three, holding one control client (the pool).
    expect(new Set(w.pids).size).toBe(1);
    const waiter = w.pids[0] ?? 0;
    // A fourth job queues behind the first, on its pane, in the same waiter.
    const pane = w.panes[0] ?? '%0';
    const queued = await submitJob(w.home, jobArgs(w.server, pane, 9, w.go), ENV);
    await waitForEvent(w.home, queued, 'waiting-for-lock', 60_000);
    expect(await workerPid(w.home, queued)).toBe(waiter);
    process.kill(waiter, 'SIGKILL');
    await waitForGroupGone(waiter);
    // The three had typed: each ends lost, once, with the reason.
    for (const id of w.ids) {
      const record = await waitForJobEnd(w.home, id, 30_000);
      expect(record.state).toBe('lost');
      expect(String(record.reason)).toMatch(/waiter .* was killed while the job was waiting/);
      expect(await terminalEvents(w.home, id)).toHaveLength(1);
      expect((await statusOf(w.home, id)).state).toBe('lost');
    }
    // The queued one had typed nothing: it is started again, in a new waiter, and finishes once
    // the pane's lock (the killed waiter's) has gone stale.
    mkdirSync(w.go, {recursive: true});
    const ended = await expectJobEnd(w.home, queued, 'done', 90_000);
    expect(ended.pid).not.toBe(waiter);
    expect(await terminalEvents(w.home, queued)).toHaveLength(1);
    // Told once: typed as a comment at the shell's prompt, or — when the regex matched the
    // echo before the shell had drawn its prompt again (a loaded machine: CI, tmux 3.5a on
    // Node 22) — shown as a tmux message, never typed into a busy shell.
    expect(await noticesIn(w.server, pane, 9), JSON.stringify(ended)).toBe(
      ended.noticeVia === 'message' ? 0 : 1,
    );
    expect(ended.notified).toBe(true);
    const typed = (await readJobEvents(w.home, queued)).filter((e) => e.event === 'typed');
    expect(typed).toHaveLength(1);
  }, 180_000);

  it('stopped 20 s: a new waiter serves the next job; each job of the stopped one ends once', async () => {
    const w = await waitingJobs(2);
    const stopped = w.pids[0] ?? 0;
    const late = await w.server.newPane(SHELL);
    process.kill(stopped, 'SIGSTOP');
    const stoppedAt = Date.now();
    try {
      writeFileSync(w.go, '');
      // Submitted while the waiter is stopped: its worker takes the waiter's lock once the
      // stopped one's goes stale (8 s), and serves it.
      const next = await submitJob(w.home, jobArgs(w.server, late, 7, w.go), ENV);
      const ended = await expectJobEnd(w.home, next, 'done', 20_000);
      expect(ended.pid).not.toBe(stopped);
      expect(Date.now() - stoppedAt).toBeLessThan(20_000);
      await new Promise((resolve) =>
        setTimeout(resolve, Math.max(0, 20_000 - (Date.now() - stoppedAt))),
      );
    } finally {
      process.kill(stopped, 'SIGCONT');
    }
    for (const [i, id] of w.ids.entries()) {
      const record = await waitForJobEnd(w.home, id, 90_000);
      expect(TERMINAL).toContain(record.state);
      expect(await terminalEvents(w.home, id)).toHaveLength(1);
      const notified = (await readJobEvents(w.home, id)).filter((e) => e.event === 'notified');
      expect(notified.length).toBeLessThanOrEqual(1);
      expect(await noticesIn(w.server, w.panes[i] ?? '', i)).toBe(notified.length);
    }
    await waitForGroupGone(stopped, 60_000);
  }, 240_000);

  it('the tmux server killed under it: every job ends once, and the waiter goes', async () => {
    const w = await waitingJobs(JOBS);
    const waiter = w.pids[0] ?? 0;
    await w.server.tmux('kill-server').catch(() => '');
    await waitForGroupGone(waiter, 60_000);
    for (const id of w.ids) {
      await waitFor(
        `job ${id} to end`,
        async () => {
          const s = await readJobState(w.home, id);
          return TERMINAL.includes(s.state) ? s : undefined;
        },
        {timeoutMs: 30_000},
      );
      expect(await terminalEvents(w.home, id)).toHaveLength(1);
    }
  }, 180_000);

  it('an inbox entry written again for a running or ended job is ignored: its text typed once (issue 61)', async () => {
    const w = await waitingJobs(2);
    const [running, other] = w.ids as [string, string];
    const inbox = join(w.home, 'waiters', readdirSync(join(w.home, 'waiters'))[0] ?? '', 'inbox');
    const again = (id: string) => putEntry(inbox, id);
    again(running);
    const ignored = await waitForEvent(w.home, running, 'entry-ignored', 60_000);
    expect(ignored).toMatchObject({why: 'it is running already (waiting)'});
    // Ended: cancelled while the other job keeps the waiter (stop 68 saw this entry untaken for
    // 60 s; issue 62 item 5).
    const cancelled = await runNudge(['cancel', running], {NUDGE_HOME: w.home});
    expect(cancelled.exitCode, cancelled.stderr).toBe(0);
    await expectJobEnd(w.home, running, 'cancelled');
    const written = Date.now();
    again(running);
    const ended = await waitForEvent(
      w.home,
      running,
      'entry-ignored',
      60_000,
      (e) => e.why === 'it ended (cancelled)',
    );
    expect(Date.parse(ended.t) - written).toBeLessThan(15_000);
    // The text went into its pane once; the other job still waits, untouched.
    const typed = await w.server.tmux(
      'capture-pane',
      '-p',
      '-J',
      '-S',
      '-',
      '-t',
      w.panes[0] ?? '%0',
    );
    expect(typed.split('\n').filter((l) => l.includes('until [ -e')).length, typed).toBe(1);
    expect((await readJobState(w.home, other)).state).toBe('waiting');
    expect(await terminalEvents(w.home, running)).toHaveLength(1);
  }, 180_000);

  it('an entry the waiter cannot take yet (a write of it fails) stays in the inbox, and is taken once the write works (issue 62)', async () => {
    const w = await waitingJobs(1);
    const [first] = w.ids as [string];
    const pane = await w.server.newPane(SHELL);
    // A job queued for the waiter, as a worker leaves it: its record, and its inbox entry.
    const id = `${first.slice(0, -4)}zzzz`;
    const dir = join(w.home, 'jobs', id);
    mkdirSync(dir, {mode: 0o700});
    const read = (f: string) => JSON.parse(readFileSync(join(w.home, 'jobs', first, f), 'utf8'));
    const request = read('request.json');
    writeFileSync(
      join(dir, 'request.json'),
      JSON.stringify({...request, jobId: id, pane, text: `echo FIN''ISHED-0`}),
      {mode: 0o600},
    );
    const {pid: _p, pidStart: _s, waiter: _w, transport: _t, ...state} = read('state.json');
    writeFileSync(
      join(dir, 'state.json'),
      JSON.stringify({...state, id, state: 'queued', pane, paneTarget: pane}),
      {mode: 0o600},
    );
    // The waiter's first write for it fails: a folder where its caller file goes.
    mkdirSync(join(dir, 'caller.json'));
    const inbox = join(w.home, 'waiters', readdirSync(join(w.home, 'waiters'))[0] ?? '', 'inbox');
    putEntry(inbox, id);
    await new Promise((resolve) => setTimeout(resolve, 5_000));
    expect(readdirSync(inbox).filter((n) => n.startsWith(id))).not.toEqual([]);
    expect((await readJobState(w.home, id)).state).toBe('queued');
    rmSync(join(dir, 'caller.json'), {recursive: true});
    const ended = await expectJobEnd(w.home, id, 'done', 60_000);
    expect(ended.pid).toBe(w.pids[0]);
  }, 180_000);

  it('its inbox read-only, then full: each new job fails in one sentence naming the folder; both removed, the next job is taken at once (issue 62)', async () => {
    const w = await waitingJobs(1);
    const inbox = join(w.home, 'waiters', readdirSync(join(w.home, 'waiters'))[0] ?? '', 'inbox');
    const mount = (...args: string[]) => execFileSync('mount', args, {stdio: 'ignore'});
    try {
      mount('--bind', inbox, inbox);
      mount('-o', 'remount,bind,ro', inbox);
    } catch {
      return; // no bind mounts here (not root): what the read-only state folder tests cover
    }
    const [late, full, later] = [
      await w.server.newPane(SHELL),
      await w.server.newPane(SHELL),
      await w.server.newPane(SHELL),
    ];
    const failsSaying = async (pane: string, n: number, sentence: string) => {
      const refused = await submitJob(w.home, jobArgs(w.server, pane, n, w.go), ENV);
      const failed = await expectJobEnd(w.home, refused, 'failed', 60_000);
      expect(String(failed.reason)).toBe(
        `Worker failed: nudge could not write in ${inbox}: ${sentence}`,
      );
    };
    try {
      await failsSaying(
        late,
        5,
        'the file system is read-only; make it writable (or set NUDGE_HOME to another folder), then try again.',
      );
    } finally {
      execFileSync('umount', [inbox], {stdio: 'ignore'});
    }
    // Then a small file system over it, full to the last byte.
    mount('-t', 'tmpfs', '-o', 'size=64k,mode=0700', 'tmpfs', inbox);
    try {
      fillDisk(inbox);
      await failsSaying(
        full,
        7,
        'the disk is full; free some space (or set NUDGE_HOME to another folder), then try again.',
      );
    } finally {
      execFileSync('umount', [inbox], {stdio: 'ignore'});
    }
    const submitted = Date.now();
    const next = await submitJob(w.home, jobArgs(w.server, later, 6, w.go), ENV);
    const locked = await waitForEvent(w.home, next, 'locked', 60_000);
    // Within one refresh of the waiter's lock (4 s), with room for a loaded machine.
    expect(Date.parse(locked.t) - submitted).toBeLessThan(15_000);
    expect(await workerPid(w.home, next)).toBe(w.pids[0]);
  }, 180_000);
});
