// Output events from a real control-mode client (src/tmux/control-activity.ts): which panes
// they reach, the next output, and the end of the client; and a wait driven by them.
import {join} from 'node:path';
import {describe, expect, it, onTestFinished} from 'vitest';
import {realClock} from '../../src/base/clock.js';
import {waitUntil} from '../../src/detect/wait-until.js';
import {StableWatcher} from '../../src/detect/watchers.js';
import {openTransport} from '../../src/tmux/transport.js';
import {FIXTURES} from '../helpers/run-nudge.js';
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
});
