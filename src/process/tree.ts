import {readFile} from 'node:fs/promises';
import {statFields} from './proc-stat.js';
import {runFile} from './spawn.js';
import {processView} from './view.js';

/**
 * Which processes run in a pane: a process belongs to a pane when the pane's first process
 * (`#{pane_pid}`) is it or one of its ancestors. Read from /proc (`ppid`, field 4 of stat), or
 * from `ps -o ppid=` where there is no /proc or NUDGE_PROCESS_VIEW=ps (src/process/view.ts).
 */
export interface ProcessTree {
  /** The parent of `pid`, or undefined where it cannot be read (gone, another user's). */
  parentOf(pid: number): Promise<number | undefined>;
  /** The start time as Linux's /proc writes it (field 22 of stat, clock ticks since boot),
   * where there is a /proc in use: what Claude Code records as `procStart`. */
  procStartOf(pid: number): Promise<string | undefined>;
}

/** The real tree, from the process view in use at each question. */
export const systemTree: ProcessTree = {
  async parentOf(pid) {
    if (!Number.isSafeInteger(pid) || pid <= 0) return undefined;
    if (processView() === 'ps') {
      const r = await runFile('ps', ['-o', 'ppid=', '-p', String(pid)], {
        timeoutMs: 5_000,
        maxBuffer: 64 * 1024,
      });
      return r.ok ? positive(r.stdout) : undefined;
    }
    return positive((await procStat(pid))?.[1]);
  },
  async procStartOf(pid) {
    if (processView() === 'ps') return undefined;
    return (await procStat(pid))?.[19];
  },
};

async function procStat(pid: number): Promise<string[] | undefined> {
  try {
    return statFields(await readFile(`/proc/${pid}/stat`, 'utf8'));
  } catch {
    return undefined;
  }
}

function positive(text: string | undefined): number | undefined {
  const n = Number((text ?? '').trim());
  return Number.isSafeInteger(n) && n > 0 ? n : undefined;
}

/** Whether `pid` is `root` or descends from it (at most 64 generations are walked). */
export async function descendsFrom(tree: ProcessTree, pid: number, root: number): Promise<boolean> {
  let at: number | undefined = pid;
  for (let i = 0; i < 64 && at !== undefined && at > 1; i++) {
    if (at === root) return true;
    at = await tree.parentOf(at);
  }
  return at === root;
}
