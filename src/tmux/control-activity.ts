import {realClock} from '../base/clock.js';
import {type PaneActivity, untilAborted} from './activity.js';
import type {ControlRunner} from './control-types.js';
import {PaneHearing} from './pane-hearing.js';

/** Notifications after which a pane of the session may be gone or elsewhere: a window's
 * layout changed (a pane closed, broken out or joined), a window closed or left the session,
 * the sessions changed. */
const PANES_MOVED =
  /^%(?:layout-change|window-close|unlinked-window-close|window-add|unlinked-window-add|sessions-changed|session-window-changed) /;

/**
 * Output events from a control-mode client, for event-driven waiting: what its PaneHearing
 * knows of each pane held (src/tmux/pane-hearing.ts: a pane heard to the millisecond, or a
 * busy one followed by subscription once a second), and the rest of its session muted.
 *
 * Reach: tmux sends `%output` (and subscription changes) to a control client only for panes
 * whose window is linked into the session it is attached to
 * (test/integration/control-activity.test.ts). A pane elsewhere (a `--notify-pane` in another
 * session, or a window moved away during the wait) stays silent for us however much it
 * prints, so `covers` asks tmux whether the pane is in the session's windows right now; a
 * wait then polls a pane out of reach instead of taking silence for quiet. (We do not attach
 * a second client for such a pane: nothing waits on the notify pane, and polling is the
 * proven path for a rare case.)
 *
 * Lost output: `%pause` from tmux itself (we fell behind: pause-after) counts as output in the
 * control runner and the pane is resumed at once, so a paused pane reads as busy. When the
 * client ends (`%exit`, the client killed, hung), `isEnded` turns true, waiters wake up, and
 * the wait falls back to polling over the spawn runner.
 */
export function createControlActivity(control: ControlRunner): PaneActivity {
  const hearing = new PaneHearing({switches: control.switches, now: realClock.now});
  control.onOutput((paneId, at) => hearing.output(paneId, at));
  control.switches.changes.add((change) => hearing.subscription(change));
  const endListeners = new Set<() => void>();
  let isEnded = control.isClosed;
  void control.closed.then(() => {
    isEnded = true;
    hearing.close();
    for (const listener of [...endListeners]) listener();
    endListeners.clear();
  });
  const onEnd = (listener: () => void) => {
    if (isEnded) {
      listener();
      return () => {};
    }
    endListeners.add(listener);
    return () => endListeners.delete(listener);
  };
  /** Resolves on `listen`'s first call or the end of events. */
  const firstOf = (signal: AbortSignal, listen: (resolve: () => void) => () => void) =>
    untilAborted<void>(signal, (resolve) => {
      const off = listen(resolve);
      const offEnd = onEnd(resolve);
      return () => {
        off();
        offEnd();
      };
    });

  return {
    get isEnded() {
      return isEnded || control.isClosed;
    },
    lastOutputAt: (paneId) => hearing.changedAt(paneId),
    printedAfter: (paneId, at) => hearing.changedAfter(paneId, at),
    hold: (paneId, need) => hearing.hold(paneId, need),
    followedAs: (paneId) => hearing.followedAs(paneId),
    followed: (paneId) => hearing.isFollowed(paneId),
    async covers(paneId) {
      if (control.isClosed) return false;
      try {
        const panes = await control.run([
          'list-panes',
          '-s',
          '-t',
          control.sessionId,
          '-F',
          '#{pane_id}',
        ]);
        return !control.isClosed && panes.split('\n').includes(paneId);
      } catch {
        // The client ended meanwhile, or the session is gone: no events either way.
        return false;
      }
    },
    nextOutput: (paneId, signal) => firstOf(signal, (resolve) => hearing.onChange(paneId, resolve)),
    settled: (paneId, signal) =>
      hearing.isSettled(paneId)
        ? Promise.resolve()
        : firstOf(signal, (resolve) => hearing.onSettled(paneId, resolve)),
    ended: (signal) => untilAborted<void>(signal, (resolve) => onEnd(resolve)),
    layoutChanged: (signal) =>
      firstOf(signal, (resolve) =>
        control.onNotification((line) => {
          if (PANES_MOVED.test(line)) resolve();
        }),
      ),
  };
}
