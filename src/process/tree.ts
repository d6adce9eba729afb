import {readFileSync} from 'node:fs';
import {statFields} from './proc-stat.js';
import {positive, ps} from './ps.js';
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
  /** `pid` and its ancestors, nearest first, each with its command line (at most
   * {@link MAX_GENERATIONS}; a process that cannot be read ends the list). */
  ancestry(pid: number): Promise<ProcessLink[]>;
  /** The controlling terminal of `pid` as a path (`/dev/pts/3`, `/dev/ttys003`, as tmux's
   * `#{pane_tty}` names a pane's), undefined where it has none or cannot be read. */
  terminalOf(pid: number): Promise<string | undefined>;
  /** `pid`'s process group, and the foreground process group of its controlling terminal
   * (the program a pane's terminal gives its keys to), where they can be read. */
  groupsOf(pid: number): Promise<{group: number; foreground: number} | undefined>;
}

/** One process of an ancestry: its id and its command line, its arguments joined by spaces
 * (as `ps` shows them: an argument holding a space cannot be told apart). */
export interface ProcessLink {
  pid: number;
  command: string;
  /** The name the process gave itself (Linux's /proc/PID/comm: a tmux server says `tmux:
   * server`), where read. */
  name?: string | undefined;
  /** Its controlling terminal as a path (terminalOf's), where read: the ancestry reads it with
   * the rest, so who asks needs no second question (on macOS, a second `ps`). */
  terminal?: string | undefined;
}

/** How far up an ancestry is walked: deeper than any real chain of shells and agents. */
export const MAX_GENERATIONS = 64;

/** The real tree, from the process view in use at each question. */
export const systemTree: ProcessTree = {
  async parentOf(pid) {
    if (!Number.isSafeInteger(pid) || pid <= 0) return undefined;
    if (processView() === 'ps') return positive(await ps(['-o', 'ppid=', '-p', String(pid)]));
    return positive((await procStat(pid))?.[1]);
  },
  async procStartOf(pid) {
    if (processView() === 'ps') return undefined;
    return (await procStat(pid))?.[19];
  },
  async terminalOf(pid) {
    if (!Number.isSafeInteger(pid) || pid <= 0) return undefined;
    if (processView() === 'ps') {
      const tty = await ps(['-o', 'tty=', '-p', String(pid)]);
      return tty === undefined ? undefined : terminalOfPs(tty);
    }
    return terminalOfDevice(Number((await procStat(pid))?.[4]));
  },
  async groupsOf(pid) {
    if (!Number.isSafeInteger(pid) || pid <= 0) return undefined;
    const stat = processView() === 'ps' ? undefined : await procStat(pid);
    const fields =
      processView() === 'ps'
        ? (await ps(['-o', 'pgid=,tpgid=', '-p', String(pid)]))?.trim().split(/\s+/)
        : stat && [stat[2], stat[5]];
    const [group, foreground] = [positive(fields?.[0]), positive(fields?.[1])];
    return group !== undefined && foreground !== undefined ? {group, foreground} : undefined;
  },
  async ancestry(pid) {
    if (processView() === 'ps') return psAncestry(pid);
    const chain: ProcessLink[] = [];
    let at: number | undefined = pid;
    while (at !== undefined && at > 0 && chain.length < MAX_GENERATIONS) {
      const stat = await procStat(at);
      if (!stat) break;
      chain.push({
        pid: at,
        command: await procCommand(at),
        name: await procName(at),
        terminal: terminalOfDevice(Number(stat[4])),
      });
      at = positive(stat[1]);
    }
    return chain;
  },
};

/** The controlling terminal as `ps -o tty=` prints it (`pts/3` on Linux, `ttys003` on
 * macOS; `?` or `??` for none), as a path. */
export function terminalOfPs(out: string): string | undefined {
  const tty = out.trim();
  return /^[\w/.-]+$/.test(tty) && !/^[?-]+$/.test(tty) ? `/dev/${tty}` : undefined;
}

/** A controlling terminal's device number (field 7 of /proc/PID/stat) as a path: Unix98
 * pseudo-terminals only (majors 136–143, `/dev/pts/N`), the only kind a tmux pane has. */
export function terminalOfDevice(ttyNr: number): string | undefined {
  if (!Number.isSafeInteger(ttyNr) || ttyNr <= 0) return undefined;
  const major = (ttyNr >> 8) & 0xfff;
  const minor = (ttyNr & 0xff) | ((ttyNr >> 12) & 0xfff00);
  return major >= 136 && major <= 143 ? `/dev/pts/${(major - 136) * 256 + minor}` : undefined;
}

// /proc's files are read at once (a synchronous read of one is a few microseconds; an
// asynchronous one four trips to Node's thread pool, and an ancestry reads three a process).

async function procName(pid: number): Promise<string | undefined> {
  try {
    return readFileSync(`/proc/${pid}/comm`, 'utf8').replace(/\n$/, '');
  } catch {
    return undefined;
  }
}

/** A process's command line from /proc (NUL-separated arguments, joined by spaces); '' for a
 * kernel thread or one that cannot be read. */
async function procCommand(pid: number): Promise<string> {
  try {
    return readFileSync(`/proc/${pid}/cmdline`, 'utf8').replace(/\0+$/, '').replace(/\0/g, ' ');
  } catch {
    return '';
  }
}

/** The ancestry from one `ps -A` listing (one process, whatever the depth; macOS and the BSDs
 * take the same keywords): `pid`, `ppid`, the terminal, then the command line last, where ps
 * may not cut it. */
async function psAncestry(pid: number): Promise<ProcessLink[]> {
  const out = await ps(['-ww', '-A', '-o', 'pid=,ppid=,tty=,command=']);
  return out === undefined ? [] : ancestryOf(parsePsTable(out, {tty: true}), pid);
}

/** A process of a `ps` listing: its parent, command line and, where listed, terminal. */
export interface PsRow {
  ppid: number;
  command: string;
  /** As ps prints it (`pts/3`, `ttys003`, `?` or `??` for none). */
  tty?: string;
}

/** `ps -o pid=,ppid=,command=` lines (with `tty`: `pid=,ppid=,tty=,command=`) as a table: pid
 * → its row. */
export function parsePsTable(out: string, o: {tty?: boolean} = {}): Map<number, PsRow> {
  const table = new Map<number, PsRow>();
  const line = o.tty ? /^\s*(\d+)\s+(\d+)\s+(\S+)\s?(.*)$/ : /^\s*(\d+)\s+(\d+)()\s?(.*)$/;
  for (const text of out.split('\n')) {
    const m = line.exec(text);
    if (!m) continue;
    const row: PsRow = {ppid: Number(m[2]), command: (m[4] ?? '').trim()};
    table.set(Number(m[1]), o.tty ? {...row, tty: m[3] ?? ''} : row);
  }
  return table;
}

/** `pid` and its ancestors from a table of processes, nearest first. */
export function ancestryOf(table: ReadonlyMap<number, PsRow>, pid: number): ProcessLink[] {
  const chain: ProcessLink[] = [];
  let at: number | undefined = pid;
  while (at !== undefined && at > 0 && chain.length < MAX_GENERATIONS) {
    const row = table.get(at);
    if (!row) break;
    const link: ProcessLink = {pid: at, command: row.command};
    chain.push(row.tty === undefined ? link : {...link, terminal: terminalOfPs(row.tty)});
    at = row.ppid;
  }
  return chain;
}

async function procStat(pid: number): Promise<string[] | undefined> {
  try {
    return statFields(readFileSync(`/proc/${pid}/stat`, 'utf8'));
  } catch {
    return undefined;
  }
}

/** Whether `pid` is `root` or descends from it (at most 64 generations are walked). */
export async function descendsFrom(tree: ProcessTree, pid: number, root: number): Promise<boolean> {
  let at: number | undefined = pid;
  for (let i = 0; i < MAX_GENERATIONS && at !== undefined && at > 1; i++) {
    if (at === root) return true;
    at = await tree.parentOf(at);
  }
  return at === root;
}
