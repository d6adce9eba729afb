import type {ProcessLink, ProcessTree} from '../../src/process/tree.js';
import type {PaneStateRow} from '../../src/tmux/pane-options.js';

/** A process tree whose caller has `chain` as its ancestry (nearest first) and `terminal` as
 * its controlling terminal; nothing else is known. */
export function treeWith(chain: ProcessLink[] = [], terminal?: string): ProcessTree {
  return {
    parentOf: async (pid) => chain[chain.findIndex((l) => l.pid === pid) + 1]?.pid,
    procStartOf: async () => undefined,
    terminalOf: async () => terminal,
    ancestry: async () => chain,
  };
}

/** A process tree of parent links and /proc start times (no ancestry, no terminal). */
export function parentsTree(
  parents: Record<number, number>,
  starts: Record<number, string> = {},
): ProcessTree {
  return {
    parentOf: async (pid) => parents[pid],
    procStartOf: async (pid) => starts[pid],
    terminalOf: async () => undefined,
    ancestry: async () => [],
  };
}

/** A row of `list-panes -a` as paneStates gives it, for pane `paneId` in `sessionId`. */
export function paneRow(
  paneId: string,
  sessionId: string,
  more: Partial<PaneStateRow> = {},
): PaneStateRow {
  return {
    paneId,
    target: `s:0.${paneId.slice(1)}`,
    command: 'bash',
    state: '',
    job: '',
    queue: '',
    needs: '',
    panePid: 0,
    sessionId,
    tty: '',
    ...more,
  };
}
