import {createHash} from 'node:crypto';
import type {PaneRef} from '../tmux/server.js';

/**
 * The key of one pane of one tmux server, naming its files under the state dir (its lock and
 * queue, its hook marks, what nudge remembers of it). Pane ids restart at %0 when a server
 * restarts, so the key holds the server's socket and pid as well as the pane id. The server's
 * own files (the control mutex) use the pane name `control`.
 */
export function paneKey(ref: PaneRef): string {
  const socket = createHash('sha256').update(ref.socketPath).digest('hex').slice(0, 12);
  return `${socket}-${ref.serverPid}-${ref.pane.replace(/^%/, 'p')}`;
}
