import {readdir, readFile, readlink} from 'node:fs/promises';
import {statFields} from './proc-stat.js';
import {ps} from './ps.js';
import {runFile, viewEnv} from './spawn.js';
import {processView} from './view.js';

/**
 * Which processes of a pane listen on a TCP port: background work that serves (a dev server)
 * rather than finishes, which never holds a "done" (src/agents/work.ts). Read from Linux's
 * /proc (the pane's process tree from each process's stat, the LISTEN sockets of
 * /proc/net/tcp and tcp6, each process's descriptors), or from `ps -A` and `lsof -a -p … -iTCP
 * -sTCP:LISTEN` where there is no /proc or NUDGE_PROCESS_VIEW=ps (macOS). Only the caller's own
 * processes can be seen, which is what is asked: the pane's programs are the caller's.
 */
export interface Served {
  pid: number;
  /** Its command line (arguments joined by spaces). */
  command: string;
  /** The ports it listens on. */
  ports: number[];
  /** Its ancestors below the pane's first process, nearest last: the background shell that
   * started it is among them. */
  ancestors: Link[];
  /** It leads its own process group (an agent ran it in a terminal of its own). */
  leader: boolean;
}

/** A process of a pane's tree, as a listener's ancestry holds it. */
export interface Link {
  pid: number;
  command: string;
  /** It leads its own process group. */
  leader: boolean;
}

/** A pane's listeners, or why they cannot be read. */
export type ServedInPane = {served: Served[]} | {why: string};

/** How many processes of a pane are looked at, at most (a pane's tree is a few dozen). */
const MAX_PROCESSES = 4_096;

/** A table of processes: pid → parent, command line, and whether it leads its group. */
type Table = ReadonlyMap<number, {ppid: number; command: string; leader?: boolean}>;

/** The descendants of `root` in `table` (root excluded), each with its chain of ancestors
 * below `root`, breadth first. */
export function descendantsOf(table: Table, root: number): Array<Link & {ancestors: Link[]}> {
  const children = new Map<number, number[]>();
  for (const [pid, row] of table) {
    const list = children.get(row.ppid);
    if (list) list.push(pid);
    else children.set(row.ppid, [pid]);
  }
  const out: ReturnType<typeof descendantsOf> = [];
  const queue: Array<{pid: number; ancestors: Link[]}> = [{pid: root, ancestors: []}];
  const seen = new Set<number>([root]);
  while (queue.length > 0 && out.length < MAX_PROCESSES) {
    const at = queue.shift()!;
    for (const child of children.get(at.pid) ?? []) {
      if (seen.has(child)) continue;
      seen.add(child);
      const row = table.get(child);
      const link = {pid: child, command: row?.command ?? '', leader: row?.leader === true};
      out.push({...link, ancestors: at.ancestors});
      queue.push({pid: child, ancestors: [...at.ancestors, link]});
    }
  }
  return out;
}

/** The LISTEN sockets of a /proc/net/tcp or tcp6 table: inode → port. */
export function listeningPorts(table: string): Map<string, number> {
  const ports = new Map<string, number>();
  for (const line of table.split('\n').slice(1)) {
    const f = line.trim().split(/\s+/);
    const local = f[1] ?? '';
    const at = local.lastIndexOf(':');
    // sl local_address rem_address st … inode; 0A: TCP_LISTEN
    if (at < 0 || f[3] !== '0A' || !f[9] || f[9] === '0') continue;
    ports.set(f[9], Number.parseInt(local.slice(at + 1), 16));
  }
  return ports;
}

/** `lsof -F pn` output: each process's listening ports (`p<pid>`, then `n<addr>:<port>`). */
export function portsOfLsof(out: string): Map<number, number[]> {
  const ports = new Map<number, number[]>();
  let pid = 0;
  for (const line of out.split('\n')) {
    if (line.startsWith('p')) pid = Number(line.slice(1));
    else if (line.startsWith('n') && pid > 0) {
      const port = Number(/:(\d+)$/.exec(line)?.[1]);
      if (!Number.isSafeInteger(port) || port <= 0) continue;
      const list = ports.get(pid) ?? [];
      if (!list.includes(port)) list.push(port);
      ports.set(pid, list);
    }
  }
  return ports;
}

async function procTable(): Promise<Table> {
  const table = new Map<number, {ppid: number; command: string; leader: boolean}>();
  for (const entry of await readdir('/proc')) {
    const pid = Number(entry);
    if (!Number.isSafeInteger(pid) || pid <= 0) continue;
    const stat = await readFile(`/proc/${pid}/stat`, 'utf8').catch(() => undefined);
    if (stat === undefined) continue;
    const fields = statFields(stat);
    const ppid = Number(fields[1]);
    const leader = Number(fields[2]) === pid;
    const command = await readFile(`/proc/${pid}/cmdline`, 'utf8')
      .then((c) => c.replace(/\0+$/, '').replace(/\0/g, ' '))
      .catch(() => '');
    table.set(pid, {ppid, command, leader});
  }
  return table;
}

/** `ps -o pid=,ppid=,pgid=,command=` output as a table. */
export function parsePsGroups(out: string): Table {
  const table = new Map<number, {ppid: number; command: string; leader: boolean}>();
  for (const line of out.split('\n')) {
    const m = /^\s*(\d+)\s+(\d+)\s+(\d+)\s?(.*)$/.exec(line);
    if (m)
      table.set(Number(m[1]), {
        ppid: Number(m[2]),
        command: (m[4] ?? '').trim(),
        leader: m[3] === m[1],
      });
  }
  return table;
}

async function procServed(panePid: number): Promise<ServedInPane> {
  const inodes = new Map<string, number>();
  for (const file of ['/proc/net/tcp', '/proc/net/tcp6']) {
    const text = await readFile(file, 'utf8').catch(() => '');
    for (const [inode, port] of listeningPorts(text)) inodes.set(inode, port);
  }
  if (inodes.size === 0) return {served: []};
  const served: Served[] = [];
  for (const p of descendantsOf(await procTable(), panePid)) {
    const ports: number[] = [];
    for (const fd of await readdir(`/proc/${p.pid}/fd`).catch(() => [] as string[])) {
      const target = await readlink(`/proc/${p.pid}/fd/${fd}`).catch(() => '');
      const port = inodes.get(/^socket:\[(\d+)\]$/.exec(target)?.[1] ?? '');
      if (port !== undefined && !ports.includes(port)) ports.push(port);
    }
    if (ports.length > 0) served.push({...p, ports});
  }
  return {served};
}

async function psServed(panePid: number): Promise<ServedInPane> {
  const table = await ps(['-ww', '-A', '-o', 'pid=,ppid=,pgid=,command=']);
  if (table === undefined) return {why: 'ps could not list the processes'};
  const inPane = descendantsOf(parsePsGroups(table), panePid);
  if (inPane.length === 0) return {served: []};
  const pids = inPane.map((p) => p.pid).join(',');
  const r = await runFile(
    'lsof',
    ['-w', '-nP', '-a', '-p', pids, '-iTCP', '-sTCP:LISTEN', '-Fpn'],
    {
      timeoutMs: 5_000,
      maxBuffer: 1024 * 1024,
      env: viewEnv(),
    },
  );
  // lsof exits 1 when nothing matches: a failure to start it or a timeout is no answer.
  if (!r.ok && (r.code !== undefined || r.killed))
    return {why: 'lsof could not list what the pane listens on'};
  const ports = portsOfLsof(r.stdout);
  return {
    served: inPane.flatMap((p) => {
      const on = ports.get(p.pid);
      return on ? [{...p, ports: on}] : [];
    }),
  };
}

/** The processes of the pane whose first process is `panePid` that listen on a TCP port. */
export function servedInPane(panePid: number): Promise<ServedInPane> {
  return processView() === 'ps' ? psServed(panePid) : procServed(panePid);
}
