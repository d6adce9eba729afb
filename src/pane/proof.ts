import type {ProcessLink} from '../process/tree.js';
import type {PaneStateRow} from '../tmux/pane-options.js';

/** Whether a process of an ancestry is a tmux server: the name tmux gives it on Linux (`tmux:
 * server`), or a command line that starts with tmux (macOS and the BSDs keep the argv of the
 * client that started it). A tmux client never has children: only a server's panes, jobs and
 * popups descend from a process named so. */
export function isTmuxServer(link: ProcessLink): boolean {
  if (link.name !== undefined && /^tmux(: server)?$/.test(link.name)) return true;
  const first = link.command.split(' ')[0]?.split('/').at(-1) ?? '';
  return /^tmux:?$/.test(first);
}

/** What the process tree proves of a caller on one server. */
export type Proof =
  /** It runs in this pane: below its first process, or on its terminal. */
  | {kind: 'pane'; pane: string; sessionId: string}
  /** Nothing ties it to a pane of this server: outside tmux, a key binding's `run-shell`, or a
   * pane of another tmux server (to this one, the person outside it). */
  | {kind: 'none'};

/**
 * The pure decision: the first of `chain` (the caller first) that is a pane's first process
 * of the server (`rows`, its pid `serverPid`) proves that pane; reaching the server itself
 * first (a `run-shell`, a popup), or another tmux server, proves none. Without a tmux server
 * in the chain, a terminal that is a pane's proves that pane.
 */
export function proofOf(
  chain: readonly ProcessLink[],
  terminal: string | undefined,
  rows: readonly PaneStateRow[],
  serverPid: number,
): Proof {
  for (const link of chain) {
    const row = rows.find((r) => r.panePid === link.pid);
    if (row) return {kind: 'pane', pane: row.paneId, sessionId: row.sessionId};
    if (link.pid === serverPid || isTmuxServer(link)) return {kind: 'none'};
  }
  const row = terminal === undefined ? undefined : rows.find((r) => r.tty === terminal);
  return row ? {kind: 'pane', pane: row.paneId, sessionId: row.sessionId} : {kind: 'none'};
}
