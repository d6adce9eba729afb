import {readdirSync, readFileSync, readlinkSync} from 'node:fs';
import {statFields} from './proc-stat.js';
import {psForeground} from './ps.js';
import {
  type Foreground,
  groupVerdict,
  type InputState,
  type MemberState,
  processView,
  waitKindOf,
} from './view.js';

export type {Foreground, InputState};

// /proc is read synchronously: its files are made by the kernel as they are read and never
// wait on a disk, so each read takes microseconds, and a read through the thread pool would
// cost a wake-up of the process for each of the ten or so files a look reads (a waiting job's
// largest cost once it read the screen only on change; issue 44).

/** A directory's names, or none. */
function readdirOr(path: string): string[] {
  try {
    return readdirSync(path);
  } catch {
    return [];
  }
}

/** A file's text, or ''. */
function readFileOr(path: string): string {
  try {
    return readFileSync(path, 'utf8');
  } catch {
    return '';
  }
}

/** A link's target, or ''. */
function readlinkOr(path: string): string {
  try {
    return readlinkSync(path);
  } catch {
    return '';
  }
}

/** The answers from /proc. */
const procForeground: Foreground = {
  commandLine: foregroundCommandLine,
  group: foregroundGroup,
  inputState: foregroundInputState,
};

/** The real answers, from the process view in use (/proc, or ps where there is none or
 * NUDGE_PROCESS_VIEW=ps), chosen at each question. */
export const systemForeground: Foreground = {
  commandLine: (pid) => reader().commandLine(pid),
  group: (pid) => reader().group(pid),
  inputState: (pid) => reader().inputState(pid),
};

function reader(): Foreground {
  return processView() === 'ps' ? psForeground : procForeground;
}

/** The fields of /proc/PID/stat after the command name (see proc-stat.ts). */
async function readStat(path: string): Promise<string[]> {
  return statFields(readFileSync(path, 'utf8'));
}

/** The foreground process group of the terminal of `panePid` (`tpgid`, field 8). */
async function foregroundGroup(panePid: number): Promise<number | undefined> {
  if (!Number.isSafeInteger(panePid) || panePid <= 0) return undefined;
  try {
    const tpgid = Number((await readStat(`/proc/${panePid}/stat`))[5]);
    return Number.isSafeInteger(tpgid) && tpgid > 0 ? tpgid : undefined;
  } catch {
    return undefined;
  }
}

/**
 * What runs in the foreground of a pane's terminal, read from Linux's /proc: the terminal's
 * foreground process group (`tpgid`, field 8 of /proc/<pane pid>/stat) and the command line of
 * its leader. tmux's `pane_current_command` only says `node` for Gemini CLI and Codex (both
 * start from a Node launcher); the command line says which program it is. undefined where
 * /proc cannot tell (macOS, another user's process, a process that just ended).
 */
async function foregroundCommandLine(panePid: number): Promise<string[] | undefined> {
  if (!Number.isSafeInteger(panePid) || panePid <= 0) return undefined;
  try {
    const leader = (await foregroundGroup(panePid)) ?? panePid;
    const cmdline = readFileSync(`/proc/${leader}/cmdline`, 'utf8');
    const argv = cmdline.split('\0').filter(Boolean);
    return argv.length > 0 ? argv : undefined;
  } catch {
    return undefined;
  }
}

/** Descriptors that can wake a poll other than the terminal. */
const OTHER_SOURCE =
  /^(socket:|pipe:|anon_inode:(\[eventfd\]|inotify|\[signalfd\]|\[timerfd\]|\[eventpoll\]|\[pidfd\]))/;

async function comm(pid: number): Promise<string> {
  try {
    return readFileSync(`/proc/${pid}/comm`, 'utf8').trim();
  } catch {
    return '?';
  }
}

/** The pane's terminal: what the pane's first process has open as fd 0. */
async function terminalOf(panePid: number): Promise<string> {
  return readlinkSync(`/proc/${panePid}/fd/0`);
}

/** The members of process group `pgid` among `root` and its descendants (found through
 * /proc/PID/task/TID/children; a scan of all of /proc where the kernel lacks that file), the
 * leader first. */
async function groupMembers(root: number, pgid: number): Promise<number[]> {
  const all = await descendants(root).catch(async () =>
    readdirSync('/proc')
      .map(Number)
      .filter((pid) => Number.isSafeInteger(pid)),
  );
  const members: number[] = [];
  for (const pid of all) {
    try {
      if (Number((await readStat(`/proc/${pid}/stat`))[2]) === pgid) members.push(pid);
    } catch {
      // gone meanwhile
    }
  }
  return members.sort((a, b) => (a === pgid ? -1 : b === pgid ? 1 : a - b));
}

/** `root` and every process below it. */
async function descendants(root: number): Promise<number[]> {
  const found = [root];
  for (let i = 0; i < found.length && found.length < 10_000; i++) {
    const pid = found[i] ?? 0;
    for (const tid of readdirOr(`/proc/${pid}/task`)) {
      const children = readFileSync(`/proc/${pid}/task/${tid}/children`, 'utf8');
      for (const child of children.split(' ')) if (child.trim()) found.push(Number(child));
    }
  }
  return found;
}

/** A process's descriptors: which are the terminal, which are other input sources. */
async function descriptors(
  pid: number,
  terminal: string,
): Promise<{tty: Set<string>; others: number; epolls: string[]}> {
  const tty = new Set<string>();
  let others = 0;
  const epolls: string[] = [];
  for (const fd of readdirSync(`/proc/${pid}/fd`)) {
    const target = readlinkOr(`/proc/${pid}/fd/${fd}`);
    if (target === terminal || target === '/dev/tty') tty.add(fd);
    else if (target === 'anon_inode:[eventpoll]') epolls.push(fd);
    else if (OTHER_SOURCE.test(target)) others++;
  }
  return {tty, others, epolls};
}

/** Whether one of the process's epoll sets watches the terminal. */
async function epollWatchesTerminal(pid: number, epolls: string[], tty: Set<string>) {
  for (const fd of epolls) {
    const info = readFileOr(`/proc/${pid}/fdinfo/${fd}`);
    for (const m of info.matchAll(/^tfd:\s*(\d+)/gm)) if (tty.has(m[1] ?? '')) return true;
  }
  return false;
}

/**
 * Whether the program in the foreground of a pane's terminal is waiting for its user, read
 * from Linux's /proc without attaching to anything:
 *
 * - the terminal's foreground process group is field 8 (`tpgid`) of /proc/<pane pid>/stat;
 * - each member's threads say where they sleep in /proc/PID/task/TID/wchan (a read of a
 *   terminal sleeps in `wait_woken`, `poll`/`select` in `poll_schedule_timeout`, `epoll` in
 *   `do_epoll_wait`, `sleep` in `hrtimer_nanosleep`, a parent waiting for its child in
 *   `do_wait`);
 * - what a process could be reading is its open descriptors, /proc/PID/fd/N: the pane's
 *   terminal, or other sources (sockets, pipes, inotify, eventfd, timers); an epoll set's
 *   members are the `tfd:` lines of /proc/PID/fdinfo/N.
 *
 * A member blocked in a read, poll or select with only the terminal to read from, or in an
 * epoll whose set holds the terminal, waits for input; a member waiting for its child is
 * neutral; anything else (sleeping on a timer, reading a socket, running) is still running.
 * wchan, fd and fdinfo need only read access to the process (not ptrace attach, which
 * /proc/PID/syscall needs and a hardened kernel denies), so this works for the user's own
 * panes. Where /proc cannot tell (not Linux, another user's process, a kernel that hides
 * wchan), the answer is `unknown` and nudge decides as it did before.
 *
 * This is what one member of the foreground group is doing, by /proc.
 */
async function memberState(pid: number, terminal: string): Promise<MemberState> {
  const [state] = await readStat(`/proc/${pid}/stat`);
  if (state === 'Z' || state === 'X') return 'neutral';
  if (state !== 'S') return 'running';
  // Another thread at work (a REPL's worker threads sleep in futexes) means running.
  for (const tid of readdirSync(`/proc/${pid}/task`)) {
    if (tid === String(pid)) continue;
    const [t] = await readStat(`/proc/${pid}/task/${tid}/stat`).catch(() => ['S']);
    if (t === 'R' || t === 'D') return 'running';
  }
  const kind = waitKindOf(readFileSync(`/proc/${pid}/wchan`, 'utf8'));
  if (kind === 'none') return 'unknown';
  if (kind === 'child') return 'neutral';
  if (kind === 'other') return 'running';
  const epoll = kind === 'event-loop';
  const fds = await descriptors(pid, terminal);
  if (fds.tty.size === 0) return 'running';
  if (epoll) return (await epollWatchesTerminal(pid, fds.epolls, fds.tty)) ? 'waiting' : 'running';
  // A read, poll or select with nothing but the terminal to read from.
  return fds.others === 0 && fds.epolls.length === 0 ? 'waiting' : 'running';
}

/** Whether the foreground of the pane whose first process is `panePid` waits for input, by
 * /proc (memberState says how). */
async function foregroundInputState(panePid: number): Promise<InputState> {
  try {
    const terminal = await terminalOf(panePid);
    const tpgid = await foregroundGroup(panePid);
    if (tpgid === undefined)
      return {kind: 'unknown', why: 'the pane has no foreground process group'};
    return await groupVerdict(
      await groupMembers(panePid, tpgid),
      async (pid) => ({
        state: await memberState(pid, terminal).catch((): MemberState => 'unknown'),
        why: (program) => `/proc does not say where ${program} waits`,
      }),
      comm,
    );
  } catch (error) {
    return {kind: 'unknown', why: `/proc could not be read (${(error as Error).message})`};
  }
}
