import {existsSync} from 'node:fs';

/**
 * Where nudge reads what processes do: Linux's `/proc`, or `ps` (with `lsof` for open
 * descriptors) where there is no /proc — macOS and the BSDs. `NUDGE_PROCESS_VIEW=ps` (or
 * `proc`) forces one, so the `ps` reader runs in CI on Linux too; any other value is ignored
 * (and `doctor` says so).
 */
export type ProcessViewName = 'proc' | 'ps';

let procThere: boolean | undefined;

/** The reader in use: the one forced by NUDGE_PROCESS_VIEW, else /proc where it exists. */
export function processView(env: NodeJS.ProcessEnv = process.env): ProcessViewName {
  const forced = env.NUDGE_PROCESS_VIEW;
  if (forced === 'ps' || forced === 'proc') return forced;
  procThere ??= existsSync('/proc/self/stat');
  return procThere ? 'proc' : 'ps';
}

/** What NUDGE_PROCESS_VIEW says when it names no reader (for doctor), else undefined. */
export function badProcessView(env: NodeJS.ProcessEnv = process.env): string | undefined {
  const forced = env.NUDGE_PROCESS_VIEW;
  return forced === undefined || forced === '' || forced === 'ps' || forced === 'proc'
    ? undefined
    : forced;
}

/**
 * Where a sleeping process waits, by its wait channel — Linux's kernel function names
 * (/proc/PID/wchan, `ps -o wchan`) and the BSD wait messages (`ps -o wchan` on macOS and
 * FreeBSD shows the kernel's `wmesg`: a terminal read sleeps in `ttyin` — XNU
 * bsd/kern/tty.c, ttread → ttysleep(…, "ttyin", 0); FreeBSD sys/kern/tty_ttydisc.c —
 * `select`/`poll` in `select`, a kqueue wait in `kqread`, a parent waiting for its child in
 * `wait`).
 */
export type WaitKind = 'tty-read' | 'poll' | 'event-loop' | 'child' | 'other' | 'none';

const TTY_READ = /^(wait_woken|n_tty_read|tty_read|ttyin$)/;
const POLL = /^(poll_schedule_timeout|do_select|do_sys_poll|core_sys_select|select$|poll$)/;
const EVENT_LOOP = /^(do_epoll_wait|ep_poll|kqread$|kevent$)/;
const CHILD_WAIT = /^(do_wait|kernel_wait4|wait_consider_task|wait$)/;

export function waitKindOf(wchan: string): WaitKind {
  const w = wchan.trim();
  if (w === '' || w === '0' || w === '-') return 'none';
  if (CHILD_WAIT.test(w)) return 'child';
  if (TTY_READ.test(w)) return 'tty-read';
  if (POLL.test(w)) return 'poll';
  if (EVENT_LOOP.test(w)) return 'event-loop';
  return 'other';
}

/** What nudge asks about the program in the foreground of a pane's terminal (Linux /proc, or
 * ps and lsof). */
export interface Foreground {
  /** The foreground program's command line: it names an agent whose screen does not. */
  commandLine(panePid: number): Promise<readonly string[] | undefined>;
  /** The terminal's foreground process group: another group than before means another
   * program took the terminal. */
  group(panePid: number): Promise<number | undefined>;
  /** Whether the foreground waits for its user's input. */
  inputState(panePid: number): Promise<InputState>;
}

/** Whether the program in the foreground of a pane's terminal waits for its user: what the
 * reader in use found (foreground.ts for /proc, ps.ts for ps), or `unknown` and why it cannot
 * tell (nudge then decides as it did before: a command in a shell's pane counts as busy). */
export type InputState =
  | {kind: 'waiting-for-input'; program: string}
  | {kind: 'running'; program: string}
  | {kind: 'unknown'; why: string};

/** What one process of the foreground group is doing. */
export type MemberState = 'waiting' | 'neutral' | 'running' | 'unknown';

/**
 * The foreground group's verdict from its members, leader first (both readers): the first
 * member found running makes it running; one whose wait cannot be told makes it unknown (with
 * `look`'s why); else it waits for input when a member does, and runs otherwise (its leader).
 */
export async function groupVerdict<M>(
  members: readonly M[],
  look: (m: M) => Promise<{state: MemberState; why?: (program: string) => string}>,
  name: (m: M) => Promise<string>,
): Promise<InputState> {
  let waiting: M | undefined;
  for (const m of members) {
    const {state, why} = await look(m);
    if (state === 'running') return {kind: 'running', program: await name(m)};
    if (state === 'unknown') {
      const program = await name(m);
      return {kind: 'unknown', why: why?.(program) ?? `nothing says where ${program} waits`};
    }
    if (state === 'waiting' && waiting === undefined) waiting = m;
  }
  if (waiting !== undefined) return {kind: 'waiting-for-input', program: await name(waiting)};
  const leader = members[0];
  return leader === undefined
    ? {kind: 'unknown', why: 'the foreground process group is empty'}
    : {kind: 'running', program: await name(leader)};
}
