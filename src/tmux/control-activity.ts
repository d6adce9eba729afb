import {type PaneActivity, untilAborted} from './activity.js';
import type {ControlRunner} from './control-types.js';

/**
 * Output events from a control-mode client, for event-driven waiting.
 *
 * Reach: tmux sends `%output` to a control client only for panes whose window is linked into
 * the session it is attached to (test/integration/control-activity.test.ts). A pane elsewhere (a `--notify-pane` in
 * another session, or a window moved away during the wait) stays silent for us however much
 * it prints, so `covers` asks tmux whether the pane is in the session's windows right now; a
 * wait then polls a pane out of reach instead of taking silence for quiet. (We do not attach
 * a second client for such a pane: nothing waits on the notify pane, and polling is the
 * proven path for a rare case.)
 *
 * A client therefore reads every pane of its session, busy agents beside the job's pane too
 * (`npm run bench -- --only neighbours`). It never turns a pane's output off for itself
 * (`refresh-client -A '%N:off'`): toggled off while output for the client is queued, tmux may
 * drain the pane's buffer past the client's offset and later read out of bounds (tmux#5054,
 * fixed upstream in 2026-05). Tried here on 3.3a: the tmux server segfaulted twice at the same
 * address in one CI run, taking every session with it.
 *
 * Lost output: `%pause` (tmux dropped output for us, pause-after) counts as output in the
 * control runner and the pane is resumed at once, so a paused pane reads as busy. When the
 * client ends (`%exit`, the client killed, hung), `isEnded` turns true, waiters wake up, and
 * the wait falls back to polling over the spawn runner.
 */
export function createControlActivity(control: ControlRunner): PaneActivity {
  const endListeners = new Set<() => void>();
  let isEnded = control.isClosed;
  void control.closed.then(() => {
    isEnded = true;
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

  return {
    get isEnded() {
      return isEnded || control.isClosed;
    },
    lastOutputAt: (paneId) => control.lastOutputAt(paneId),
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
    nextOutput: (paneId, signal) =>
      untilAborted<void>(signal, (resolve) => {
        const offOutput = control.onOutput(() => resolve(), paneId);
        const offEnd = onEnd(resolve);
        return () => {
          offOutput();
          offEnd();
        };
      }),
    ended: (signal) => untilAborted<void>(signal, (resolve) => onEnd(resolve)),
  };
}
