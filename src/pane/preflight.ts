import type {PaneInfo} from '../tmux/tmux.js';
import {PaneFailure, ServerGone} from './failures.js';
import type {PaneIo} from './keys.js';

/**
 * Check a pane before typing: it must still be the pane the work was for (same server pid:
 * ids restart at %0 after a server restart), alive, not in a mode (keys would drive the mode
 * instead of the program), accepting input, and not synchronized (keys would reach every pane
 * in the window). Copy mode and other modes are left; the rest throw a PaneFailure.
 */
export async function preflight(
  io: Pick<PaneIo, 'tmux' | 'note'>,
  pane: string,
  serverPid: number,
): Promise<PaneInfo> {
  const {tmux} = io;
  let info = await tmux.describePane(pane);
  if (!info) throw new PaneFailure(`Pane ${pane} is gone; nothing more was typed.`);
  if (info.serverPid !== serverPid) {
    throw new ServerGone(
      `The tmux server restarted (pid ${info.serverPid}, was ${serverPid}), so ${pane} is a different pane now; nothing was typed.`,
    );
  }
  if (info.dead)
    throw new PaneFailure(`Pane ${pane} is dead (its program exited); nothing was typed.`);
  if (info.inMode) {
    await io.note('left-mode', {pane, mode: info.mode});
    await tmux.leaveMode(pane);
    info = await tmux.describePane(pane);
    if (!info) throw new PaneFailure(`Pane ${pane} is gone; nothing more was typed.`);
    if (info.inMode)
      throw new PaneFailure(
        `Pane ${pane} stays in ${info.mode || 'a mode'} and would swallow the keys; nothing was typed.`,
      );
  }
  if (info.inputOff)
    throw new PaneFailure(
      `Pane ${pane} has input turned off; run "tmux select-pane -e -t ${pane}" and submit again.`,
    );
  if (info.synchronized) {
    throw new PaneFailure(
      `Pane ${pane} has synchronize-panes on, so keys would reach every pane in its window; turn it off and submit again.`,
    );
  }
  return info;
}
