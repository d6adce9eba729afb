import {basename} from 'node:path';
import {runFile, runFileSync, viewEnv} from './spawn.js';
import {
  type Foreground,
  groupVerdict,
  type InputState,
  type MemberState,
  waitKindOf,
} from './view.js';

/**
 * The `ps` reader of the process view (src/process/view.ts): the same facts the /proc reader
 * gives, from `ps -o …` with the keywords procps (Linux) and BSD ps (macOS, FreeBSD) share —
 * `stat`, `lstart`, `pgid`, `tpgid`, `tty`, `wchan`, `comm`, `command` — and, for what a
 * process could be reading, `lsof`'s list of its open descriptors. Each `-o` list ends with
 * the one field that may hold spaces or be long (procps cuts a column short unless it is the
 * last).
 */

const PS = 'ps';
const LSOF = 'lsof';
const PS_TIMEOUT_MS = 5_000;
const PS_BUFFER = 16 * 1024 * 1024;
/** State (first letter of `stat`) and start time of `pid`; `gone` when ps lists no such
 * process; `unreadable` when ps could not say (it timed out, failed or is missing): a live
 * process is never taken for a gone one because ps was slow. The start time is `@` and the
 * seconds since the epoch (`lstart`, in the C locale's English whatever the user's). */
export function psStat(pid: number): {state: string; start: string} | 'gone' | 'unreadable' {
  if (!Number.isSafeInteger(pid) || pid <= 0) return 'gone';
  const r = runFileSync(PS, ['-o', 'stat=,lstart=', '-p', String(pid)], {
    timeoutMs: PS_TIMEOUT_MS,
    env: viewEnv(),
  });
  if (!r.ok) return r.reason === 'gone' ? 'gone' : 'unreadable';
  return parseStatLine(r.stdout) ?? 'unreadable';
}

/** `S+   Thu Nov 26 14:10:18 2026` → {state: 'S', start: '@1795702218'}. */
export function parseStatLine(line: string): {state: string; start: string} | undefined {
  const m = /^\s*(\S+)\s+(.+?)\s*$/.exec(line);
  if (!m) return undefined;
  const at = Date.parse(m[2] ?? '');
  if (!Number.isFinite(at)) return undefined;
  return {state: (m[1] ?? '').charAt(0), start: `@${Math.floor(at / 1000)}`};
}

/** The process group of `pid` (sync: this process's own, once). */
export function psGroupSync(pid: number): number | undefined {
  const r = runFileSync(PS, ['-o', 'pgid=', '-p', String(pid)], {
    timeoutMs: PS_TIMEOUT_MS,
    env: viewEnv(),
  });
  return r.ok ? positive(r.stdout) : undefined;
}

/** What `ps ARGS` prints (run with viewEnv, bounded in time and size), or undefined where it
 * fails (the process gone, ps missing or slow). */
export async function ps(args: readonly string[]): Promise<string | undefined> {
  const r = await runFile(PS, args, {
    timeoutMs: PS_TIMEOUT_MS,
    maxBuffer: PS_BUFFER,
    env: viewEnv(),
  });
  return r.ok ? r.stdout : undefined;
}

/** A positive integer from ps's or /proc's text, else undefined. */
export function positive(text: string | undefined): number | undefined {
  const n = Number((text ?? '').trim());
  return Number.isSafeInteger(n) && n > 0 ? n : undefined;
}

/** The foreground process group of the terminal of `panePid`. */
async function foregroundGroup(panePid: number): Promise<number | undefined> {
  if (!Number.isSafeInteger(panePid) || panePid <= 0) return undefined;
  return positive(await ps(['-o', 'tpgid=', '-p', String(panePid)]));
}

/** The command line of the foreground group's leader, split at spaces: ps joins the
 * arguments with spaces, so one that holds a space reads as two (the names nudge looks for —
 * `claude`, `@google/gemini-cli`, `codex` — hold none). */
async function foregroundCommandLine(panePid: number): Promise<string[] | undefined> {
  if (!Number.isSafeInteger(panePid) || panePid <= 0) return undefined;
  const leader = (await foregroundGroup(panePid)) ?? panePid;
  const out = await ps(['-ww', '-o', 'command=', '-p', String(leader)]);
  const argv = (out ?? '').trim().split(/\s+/).filter(Boolean);
  return argv.length > 0 ? argv : undefined;
}

/** One line of `ps -t TTY -o pid=,pgid=,stat=,wchan=`. */
export interface PsMember {
  pid: number;
  pgid: number;
  state: string;
  wchan: string;
}

export function parseMembers(out: string): PsMember[] {
  const members: PsMember[] = [];
  for (const line of out.split('\n')) {
    const m = /^\s*(\d+)\s+(\d+)\s+(\S+)\s*(\S*)/.exec(line);
    if (m)
      members.push({
        pid: Number(m[1]),
        pgid: Number(m[2]),
        state: (m[3] ?? '').charAt(0),
        wchan: m[4] ?? '',
      });
  }
  return members;
}

/** What `lsof` says a process has open: the terminal, an event loop's set (epoll, kqueue),
 * sockets, and other sources a poll can wake on (pipes, inotify, eventfd, timers). */
export interface Descriptors {
  tty: number;
  eventSets: number;
  sockets: number;
  others: number;
}

const SOCKET_TYPES = /^(IPv4|IPv6|unix|sock|SOCK|netlink|systm|ax25|inet)$/;
const OTHER_INODES = /inotify|eventfd|signalfd|timerfd|pidfd/;

/** `lsof -F tn` output (lines `f<fd>`, `t<type>`, `n<name>`) → what the process has open. */
export function parseDescriptors(out: string, terminal: string): Descriptors {
  const d: Descriptors = {tty: 0, eventSets: 0, sockets: 0, others: 0};
  let type = '';
  for (const line of out.split('\n')) {
    const tag = line.charAt(0);
    const value = line.slice(1);
    if (tag === 'f') type = '';
    else if (tag === 't') type = value;
    else if (tag === 'n') {
      if (type === 'CHR' && (value === terminal || value === '/dev/tty')) d.tty++;
      else if (type === 'KQUEUE' || (type === 'a_inode' && value.startsWith('[eventpoll')))
        d.eventSets++;
      else if (SOCKET_TYPES.test(type)) d.sockets++;
      else if (
        type === 'FIFO' ||
        type === 'PIPE' ||
        (type === 'a_inode' && OTHER_INODES.test(value))
      )
        d.others++;
    }
  }
  return d;
}

async function descriptors(pid: number, terminal: string): Promise<Descriptors | undefined> {
  const r = await runFile(
    LSOF,
    ['-w', '-n', '-P', '-a', '-p', String(pid), '-d', '0-65535', '-F', 'tn'],
    {timeoutMs: PS_TIMEOUT_MS, maxBuffer: PS_BUFFER, env: viewEnv()},
  );
  // lsof exits 1 when it lists nothing; a process with no descriptors reads as none open.
  if (!r.ok && r.code !== undefined) return undefined;
  return parseDescriptors(r.stdout, terminal);
}

/**
 * What one member of the foreground group is doing, by its state, its wait channel and what
 * it has open: the rule of the /proc reader (foreground.ts), but for an event loop (epoll,
 * kqueue), whose set ps cannot see: one with the terminal open and no socket waits for input.
 * `undefined` descriptors: lsof is missing or failed.
 */
export function psMemberState(
  m: Pick<PsMember, 'state' | 'wchan'>,
  fds: Descriptors | undefined | 'not-read',
): MemberState | 'needs-descriptors' {
  if (m.state === 'Z' || m.state === 'X') return 'neutral';
  if (m.state !== 'S' && m.state !== 'I') return 'running';
  const kind = waitKindOf(m.wchan);
  if (kind === 'none') return 'unknown';
  if (kind === 'child') return 'neutral';
  if (kind === 'other') return 'running';
  // A read on the terminal is the terminal's own wait message on the BSDs: no doubt there.
  if (kind === 'tty-read' && m.wchan === 'ttyin') return 'waiting';
  if (fds === 'not-read') return 'needs-descriptors';
  if (fds === undefined) return 'unknown';
  if (fds.tty === 0) return 'running';
  if (kind === 'event-loop') return fds.sockets === 0 ? 'waiting' : 'running';
  return fds.sockets + fds.others + fds.eventSets === 0 ? 'waiting' : 'running';
}

/** A process's program name: `comm` without a folder (BSD ps may print the path) or a login
 * shell's leading `-` (`-zsh`). */
async function comm(pid: number): Promise<string> {
  const out = (await ps(['-o', 'comm=', '-p', String(pid)]))?.trim();
  return out ? programName(out) : '?';
}

export function programName(comm: string): string {
  return basename(comm.trim()).replace(/^-/, '');
}

/** Whether the foreground of the pane whose first process is `panePid` waits for input. */
async function foregroundInputState(panePid: number): Promise<InputState> {
  const line = await ps(['-o', 'tpgid=,tty=', '-p', String(panePid)]);
  if (line === undefined)
    return {kind: 'unknown', why: `ps does not list the pane's process (${panePid})`};
  const [group, tty = ''] = line.trim().split(/\s+/);
  if (tty === '' || tty.startsWith('?')) return {kind: 'unknown', why: 'the pane has no terminal'};
  const terminal = tty.startsWith('/') ? tty : `/dev/${tty}`;
  const tpgid = positive(group);
  if (tpgid === undefined)
    return {kind: 'unknown', why: 'the pane has no foreground process group'};
  // The processes of the pane's terminal only (`-t`), not the whole table at every look.
  const all = await ps(['-t', tty, '-o', 'pid=,pgid=,stat=,wchan=']);
  if (all === undefined) return {kind: 'unknown', why: 'ps could not be run'};
  const members = parseMembers(all)
    .filter((m) => m.pgid === tpgid)
    .sort((a, b) => (a.pid === tpgid ? -1 : b.pid === tpgid ? 1 : a.pid - b.pid));
  return groupVerdict(
    members,
    async (m) => {
      const first = psMemberState(m, 'not-read');
      if (first !== 'needs-descriptors') return {state: first, why: psCannotTell};
      const fds = await descriptors(m.pid, terminal);
      const state = psMemberState(m, fds);
      return {
        state: state === 'needs-descriptors' ? 'unknown' : state,
        why: fds === undefined ? (p) => `lsof could not list what ${p} has open` : psCannotTell,
      };
    },
    (m) => comm(m.pid),
  );
}

const psCannotTell = (program: string) => `ps does not say where ${program} waits`;

/** The foreground of a pane's terminal, as ps (and lsof) tell it. */
export const psForeground: Foreground = {
  commandLine: foregroundCommandLine,
  group: foregroundGroup,
  inputState: foregroundInputState,
};

/**
 * Whether this system's ps shows wait channels (run-time probe, for doctor): procps (Linux)
 * and FreeBSD's do for sleeping processes; macOS's prints `-` for every one (XNU gives user
 * space none). Undefined when ps could not be run.
 */
export async function psShowsWaitChannels(): Promise<boolean | undefined> {
  const out = await ps(['-A', '-o', 'wchan=']);
  if (out === undefined) return undefined;
  return out.split('\n').some((line) => waitKindOf(line) !== 'none');
}
