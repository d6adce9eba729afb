import {NudgeError} from '../base/errors.js';
import type {PaneInfo, PanePlace} from '../tmux/tmux.js';

/** Where a run's pane goes (a split of the caller's pane, or a new window in a session), and
 * how to say it. */
export async function placeOf(
  o: {split?: string | undefined; session?: string | undefined},
  caller: PaneInfo | undefined,
  recentSession: () => Promise<string | undefined>,
): Promise<[PanePlace, string]> {
  if (o.split !== undefined) {
    if (!caller) {
      throw new NudgeError(
        'no-pane',
        '--split splits the window nudge runs in, but nudge is not running inside tmux on that server; use --window (the default).',
      );
    }
    return [
      {kind: 'split', of: caller.paneId, direction: o.split as 'h' | 'v'},
      `split of ${caller.paneId}`,
    ];
  }
  const session = o.session ?? caller?.sessionId ?? (await recentSession());
  if (session === undefined) {
    throw new NudgeError(
      'no-server',
      'The tmux server has no session to open a window in; start one (tmux new-session -d) or pass --session.',
    );
  }
  if (/[\0\n]/.test(session) || session.trim() === '') {
    throw new NudgeError(
      'bad-usage',
      `--session ${JSON.stringify(session)} is not a session name.`,
    );
  }
  return [{kind: 'window', session}, `new window in session ${session}`];
}
