import type {ProcessLink, ProcessTree} from '../../src/process/tree.js';
import type {PaneStateRow} from '../../src/tmux/pane-options.js';

/** A process tree whose caller has `chain` as its ancestry (nearest first) and `terminal` as
 * its controlling terminal; nothing else is known. */
export function treeWith(chain: ProcessLink[] = [], terminal?: string): ProcessTree {
  return {
    parentOf: async (pid) => chain[chain.findIndex((l) => l.pid === pid) + 1]?.pid,
    procStartOf: async () => undefined,
    terminalOf: async () => terminal,
    groupsOf: async () => undefined,
    ancestry: async () => chain,
  };
}

/** A process tree of parent links, /proc start times, command lines and process groups (no
 * terminal); the
 * ancestry follows the parent links, a process without a command named `proc-PID`. */
export function parentsTree(
  parents: Record<number, number>,
  starts: Record<number, string> = {},
  commands: Record<number, string> = {},
  groups: Record<number, {group: number; foreground: number}> = {},
): ProcessTree {
  return {
    parentOf: async (pid) => parents[pid],
    procStartOf: async (pid) => starts[pid],
    terminalOf: async () => undefined,
    groupsOf: async (pid) => groups[pid],
    ancestry: async (pid) => {
      const chain: ProcessLink[] = [];
      for (
        let at: number | undefined = pid;
        at !== undefined && chain.length < 64;
        at = parents[at]
      )
        chain.push({pid: at, command: commands[at] ?? `proc-${at}`});
      return chain;
    },
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
    title: '',
    ...more,
  };
}
