import {readdir, readFile, readlink} from 'node:fs/promises';
import {runFile} from './spawn.js';
import {processView} from './view.js';

/**
 * Which processes listen on a TCP port of this machine: before nudge hands a program's server
 * a secret (opencode's password), it proves the listener is that program. Read from Linux's
 * /proc (the LISTEN sockets of /proc/net/tcp and tcp6, then the processes holding their
 * inodes as /proc/PID/fd/N → `socket:[INODE]`), or from `lsof -nP -iTCP:PORT -sTCP:LISTEN
 * -Fp` where there is no /proc or NUDGE_PROCESS_VIEW=ps (macOS). Only the caller's own
 * processes can be seen (another user's descriptors are not readable), which is the answer
 * wanted: a listener nudge cannot see is not the pane's program.
 */
export type Listeners = {pids: number[]} | {why: string};

/** The inodes of the sockets listening on `port` in a /proc/net/tcp or tcp6 table. */
export function listeningInodes(table: string, port: number): string[] {
  const inodes: string[] = [];
  for (const line of table.split('\n').slice(1)) {
    const f = line.trim().split(/\s+/);
    // sl local_address rem_address st tx:rx tr:when retrnsmt uid timeout inode
    const local = f[1] ?? '';
    const at = local.lastIndexOf(':');
    if (at < 0 || f[3] !== '0A') continue; // 0A: TCP_LISTEN
    if (Number.parseInt(local.slice(at + 1), 16) === port && f[9] && f[9] !== '0')
      inodes.push(f[9]);
  }
  return inodes;
}

/** The process ids of `lsof -F p` output (lines `p<pid>`; other fields ignored). */
export function pidsOfLsof(out: string): number[] {
  const pids: number[] = [];
  for (const line of out.split('\n')) {
    if (!line.startsWith('p')) continue;
    const pid = Number(line.slice(1));
    if (Number.isSafeInteger(pid) && pid > 0 && !pids.includes(pid)) pids.push(pid);
  }
  return pids;
}

async function procListeners(port: number): Promise<Listeners> {
  const inodes = new Set<string>();
  for (const table of ['/proc/net/tcp', '/proc/net/tcp6']) {
    const text = await readFile(table, 'utf8').catch(() => '');
    for (const inode of listeningInodes(text, port)) inodes.add(inode);
  }
  if (inodes.size === 0) return {pids: []};
  const pids: number[] = [];
  for (const entry of await readdir('/proc')) {
    const pid = Number(entry);
    if (!Number.isSafeInteger(pid) || pid <= 0) continue;
    const fds = await readdir(`/proc/${pid}/fd`).catch(() => [] as string[]);
    for (const fd of fds) {
      const target = await readlink(`/proc/${pid}/fd/${fd}`).catch(() => '');
      const m = /^socket:\[(\d+)\]$/.exec(target);
      if (m && inodes.has(m[1] ?? '')) {
        pids.push(pid);
        break;
      }
    }
  }
  return {pids};
}

async function lsofListeners(port: number): Promise<Listeners> {
  const r = await runFile('lsof', ['-w', '-nP', `-iTCP:${port}`, '-sTCP:LISTEN', '-Fp'], {
    timeoutMs: 5_000,
    maxBuffer: 64 * 1024,
  });
  // lsof exits 1 when nothing matches: a failure to start it or a timeout is no answer.
  if (!r.ok && (r.code !== undefined || r.killed))
    return {why: `lsof could not list who listens on port ${port}`};
  return {pids: pidsOfLsof(r.stdout)};
}

/** The processes (of this user) listening on TCP `port`, by the process view in use. */
export function listenersOf(port: number): Promise<Listeners> {
  return processView() === 'ps' ? lsofListeners(port) : procListeners(port);
}
