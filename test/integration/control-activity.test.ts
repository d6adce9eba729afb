// Output events from a real control-mode client (src/tmux/control-activity.ts): which panes
// they reach, the next output, and the end of the client; and a wait driven by them.
import {readFileSync} from 'node:fs';
import {join} from 'node:path';
import {describe, expect, it, onTestFinished} from 'vitest';
import {realClock} from '../../src/base/clock.js';
import {waitUntil} from '../../src/detect/wait-until.js';
import {StableWatcher} from '../../src/detect/watchers.js';
import {COARSE_AFTER_MS} from '../../src/tmux/hearing-state.js';
import {openTransport} from '../../src/tmux/transport.js';
import {FIXTURES} from '../helpers/run-nudge.js';
import {useTempDir} from '../helpers/temp-dir.js';
import {startTmuxServer, type TmuxTestServer} from '../helpers/tmux-server.js';

async function controlFor(server: TmuxTestServer, pane: string) {
  const transport = await openTransport({kind: 'socket-path', path: server.socket}, pane);
  onTestFinished(() => transport.close());
  expect(transport.kind, transport.fallbackReason).toBe('control');
  const activity = transport.activity;
  if (!activity) throw new Error('a control transport without activity');
  return {transport, activity};
}

describe('control-mode output events', () => {
  it('cover the panes of the attached session only, and none once the client has ended', async () => {
    const server = await startTmuxServer();
    const sibling = await server.newPane(['sh', '-c', 'exec cat']);
    const elsewhere = (
      await server.tmux('new-session', '-d', '-s', 'other', '-P', '-F', '#{pane_id}', 'cat')
    ).trim();
    const {transport, activity} = await controlFor(server, '%0');
    expect(await activity.covers('%0')).toBe(true);
    expect(await activity.covers(sibling)).toBe(true);
    expect(await activity.covers(elsewhere)).toBe(false);
    expect(await activity.covers('%999')).toBe(false);

    // Moving the window to the other session takes it out of reach.
    await server.tmux('move-window', '-s', sibling, '-t', 'other:');
    expect(await activity.covers(sibling)).toBe(false);

    await transport.close();
    expect(activity.isEnded).toBe(true);
    expect(await activity.covers('%0')).toBe(false);
  });

  it('report the next output of a pane and when it was, and wake waiters when the client dies', async () => {
    const server = await startTmuxServer(['sh', '-c', 'read line; echo "got $line"; exec cat']);
    const {transport, activity} = await controlFor(server, '%0');
    const before = activity.lastOutputAt('%0');
    const next = activity.nextOutput('%0', new AbortController().signal);
    await server.tmux('send-keys', '-t', '%0', '-l', 'hello');
    await server.tmux('send-keys', '-t', '%0', 'Enter');
    await next;
    const at = activity.lastOutputAt('%0');
    expect(at).toBeGreaterThan(before ?? 0);

    // Killing the client (not closing it): waiters wake, and isEnded says why they did.
    const waiting = activity.nextOutput('%0', new AbortController().signal);
    const ended = activity.ended(new AbortController().signal);
    process.kill(transport.control?.pid ?? 0, 'SIGKILL');
    await Promise.all([waiting, ended]);
    expect(activity.isEnded).toBe(true);
    // The transport carries on over spawned processes.
    expect(await transport.tmux.describePane('%0')).toMatchObject({paneId: '%0'});
  });

  it('drive a stable wait: done after the window, having looked at the pane once', async () => {
    const chatty = `'${process.execPath}' '${join(FIXTURES, 'chatty.mjs')}' 800; exec cat`;
    const server = await startTmuxServer(['sh', '-c', chatty]);
    const {transport, activity} = await controlFor(server, '%0');
    const result = await waitUntil(
      transport.tmux,
      '%0',
      new StableWatcher(3, {baselineKey: undefined, graceChecks: 2, ignore: [], shellPane: false}),
      {
        intervalMs: 500,
        timeoutMs: 30_000,
        clock: realClock,
        signal: new AbortController().signal,
        activity,
        typedAt: Date.now(),
      },
    );
    expect(result).toMatchObject({status: 'done', watchedBy: 'events'});
    expect(result.lastScreen).toContain('CHATTY DONE');
    // Looked at once or twice (a second look if the program paused for a whole window on a
    // loaded machine), not every interval.
    expect(result.checks).toBeLessThanOrEqual(2);
  });

  it('follow a pane busy for longer than COARSE_AFTER_MS by its checks: the stream stops, the reports come once a second', async () => {
    const chatty = `'${process.execPath}' '${join(FIXTURES, 'chatty.mjs')}' 60000; exec cat`;
    const server = await startTmuxServer(['sh', '-c', chatty]);
    const {transport, activity} = await controlFor(server, '%0');
    const outputs: number[] = [];
    transport.control?.onOutput((pane, at) => {
      if (pane === '%0') outputs.push(at);
    });
    const changes: number[] = [];
    const waiting = new AbortController();
    onTestFinished(() => waiting.abort());
    void (async () => {
      for (;;) {
        await activity.nextOutput('%0', waiting.signal).catch(() => {});
        if (waiting.signal.aborted) return;
        changes.push(Date.now());
      }
    })();
    const deadline = Date.now() + COARSE_AFTER_MS + 20_000;
    while (!activity.followed('%0')) {
      expect(Date.now(), 'the pane was never followed').toBeLessThan(deadline);
      await new Promise((r) => setTimeout(r, 100));
    }
    const from = Date.now();
    const [heardBefore, toldBefore] = [outputs.length, changes.length];
    await new Promise((r) => setTimeout(r, 5_000));
    // It printed ten lines a second; we heard at most what was in flight when it was paused,
    // and were told of a change about once a second (the checks), not fifty times.
    expect(outputs.filter((at) => at > from + 500).length).toBe(0);
    expect(outputs.length - heardBefore).toBeLessThanOrEqual(10);
    expect(changes.length - toldBefore).toBeGreaterThanOrEqual(3);
    expect(changes.length - toldBefore).toBeLessThanOrEqual(7);
    // Its last change is never later than now, never older than a check ago.
    const last = activity.lastOutputAt('%0') ?? 0;
    expect(Date.now() - last).toBeLessThan(2_500);
  });

  it('a stable wait on a followed pane ends only after its last output and the window, whatever the checks saw', async () => {
    const dir = useTempDir('nudge-followed-');
    const lastFile = join(dir, 'last');
    const sim = `'${process.execPath}' '${join(FIXTURES, 'job-sim.mjs')}' '${lastFile}'`;
    const server = await startTmuxServer(['sh', '-c', sim]);
    await server.waitForScreen('%0', /JOB-SIM READY/);
    const {transport, activity} = await controlFor(server, '%0');
    const windowMs = 3_000;
    // Busy past COARSE_AFTER_MS, so that it ends while followed.
    await server.tmux('send-keys', '-t', '%0', '-l', `work ${COARSE_AFTER_MS + 3_000}`);
    await server.tmux('send-keys', '-t', '%0', 'Enter');
    let followed = false;
    const watch = setInterval(() => {
      followed ||= activity.followed('%0');
    }, 50);
    onTestFinished(() => clearInterval(watch));
    const result = await waitUntil(
      transport.tmux,
      '%0',
      new StableWatcher(3, {baselineKey: undefined, graceChecks: 2, ignore: [], shellPane: false}),
      {
        intervalMs: windowMs / 3,
        timeoutMs: 60_000,
        clock: realClock,
        signal: new AbortController().signal,
        activity,
        typedAt: Date.now(),
      },
    );
    const decidedAt = Date.now();
    expect(result).toMatchObject({status: 'done', watchedBy: 'events'});
    expect(followed).toBe(true);
    const lastOutput = Number(readFileSync(lastFile, 'utf8'));
    // Never sooner than a whole window after the last output; late by at most a check and
    // the check that confirms the quiet (and the machine's load).
    expect(decidedAt).toBeGreaterThanOrEqual(lastOutput + windowMs);
    expect(decidedAt - (lastOutput + windowMs)).toBeLessThan(4_000);
    expect(activity.followed('%0')).toBe(false);
  });
});
