import type {SharedServer} from '../agents/identity.js';
import {NudgeError} from '../base/errors.js';
import type {ProcessLink, ProcessTree} from '../process/tree.js';
import {insideTmux} from '../tmux/server.js';
import type {Tmux} from '../tmux/tmux.js';
import {otherThreadShown, paneShowingThread} from './thread-pane.js';

/**
 * Which pane a nudge process runs in, proven rather than taken from `$TMUX_PANE`: an inherited
 * environment is a claim (Codex's shared app-server hands the first pane's `$TMUX_PANE` to the
 * calls of every session). The proof is the process tree: the caller descends from the pane's
 * first process (`#{pane_pid}`), through no server an agent shares between its sessions.
 */
export type OwnPane =
  /** Nothing claims a pane: no `$TMUX_PANE`, and no pane of the server is an ancestor. */
  | {kind: 'outside'}
  /** The pane the process tree proves; `claimed` when `$TMUX_PANE` said another; `thread`
   * when the call runs under a server its agent shares and its thread shows in the pane's
   * title (src/pane/thread-pane.ts). */
  | {
      kind: 'proven';
      pane: string;
      panePid: number;
      claimed?: string | undefined;
      thread?: string | undefined;
    }
  /** A pane was claimed (or asked for with `self`) and cannot be proven; `why` is a clause;
   * `shared` when the call runs under a server an agent shares, with the thread it names. */
  | {
      kind: 'unproven';
      claimed: string | undefined;
      why: string;
      shared?: {server: SharedServer; thread: string} | undefined;
      /** The thread is a side thread of the shared server that no pane is. */
      side?: true | undefined;
    };

/** What proving a pane reads. Every member is required: a front end that forgets one does not
 * compile. */
export interface OwnPaneDeps {
  /** The server whose panes are looked at (the one the command talks to). */
  tmux: Tmux;
  tree: ProcessTree;
  /** The process that asks (the CLI, `nudge mcp`, a hook). */
  pid: number;
  env: Record<string, string | undefined>;
  /** The shared servers the profiles name. */
  servers: () => readonly SharedServer[];
}

/**
 * Prove the pane this process runs in. Walks only when there is something to prove: a
 * `$TMUX_PANE`, or `self` asked for (`always`).
 */
export async function proveOwnPane(deps: OwnPaneDeps, always = false): Promise<OwnPane> {
  const claimed = insideTmux(deps.env)?.pane ?? validPane(deps.env.TMUX_PANE);
  if (claimed === undefined && !always) return {kind: 'outside'};
  const [chain, rows] = await Promise.all([
    deps.tree.ancestry(deps.pid),
    deps.tmux.paneStates().catch(() => undefined),
  ]);
  const panes = new Map(
    (rows ?? []).filter((r) => r.panePid > 0).map((r) => [r.panePid, r.paneId]),
  );
  const own: OwnPane =
    rows === undefined
      ? {kind: 'unproven', claimed, why: 'the tmux server did not list its panes'}
      : judgeAncestry(chain, panes, deps.servers(), claimed, deps.env);
  // Under a shared server, the thread the call names proves the pane that shows it.
  if (own.kind === 'unproven' && own.shared && rows) {
    const {server, thread} = own.shared;
    const found = await paneShowingThread(deps, rows, server, thread);
    if ('row' in found) {
      const pane = found.row.paneId;
      return {
        kind: 'proven',
        pane,
        panePid: found.row.panePid,
        thread: `${server.agent} thread ${thread}`,
        ...(claimed !== undefined && claimed !== pane ? {claimed} : {}),
      };
    }
    return {...own, why: `${own.why}; ${found.why}`, ...(found.side ? {side: true} : {})};
  }
  // In its pane, a call from another thread than the one the pane's title shows: a side
  // thread of the session there, which is not the pane's conversation.
  if (own.kind === 'proven') {
    const title = rows?.find((r) => r.paneId === own.pane)?.title ?? '';
    for (const server of deps.servers()) {
      const thread = server.thread ? deps.env[server.thread] : undefined;
      if (thread && otherThreadShown(title, server, thread))
        return {
          kind: 'unproven',
          claimed,
          side: true,
          why: `thread ${thread} is not the one pane ${own.pane}'s title shows: a side thread of its ${server.agent} session`,
        };
    }
  }
  // Nothing claimed and no pane found: nudge is simply not in a pane.
  return own.kind === 'unproven' && claimed === undefined ? {kind: 'outside'} : own;
}

function validPane(pane: string | undefined): string | undefined {
  return pane && /^%\d+$/.test(pane) ? pane : undefined;
}

/**
 * The pure decision: walk `chain` (the caller first) to the nearest pane's first process. A
 * link under a shared server on the way proves nothing (the server is a child of whichever
 * pane's agent started it); no pane at all proves nothing either.
 */
export function judgeAncestry(
  chain: readonly ProcessLink[],
  panes: ReadonlyMap<number, string>,
  servers: readonly SharedServer[],
  claimed: string | undefined,
  env: Record<string, string | undefined> = {},
): OwnPane {
  for (const link of chain) {
    // A shared server proves nothing, even as a pane's own first process (`opencode serve`
    // run as the pane's program): its calls may be any session's.
    const server = servers.find((s) => s.pattern.test(link.command));
    if (server) {
      const thread = server.thread ? env[server.thread] : undefined;
      return {
        kind: 'unproven',
        claimed,
        ...(thread ? {shared: {server, thread}} : {}),
        why: `it runs under the ${server.agent} server that all ${server.agent} sessions share (pid ${link.pid}: ${short(link.command)}), which hands every session's calls the environment of the pane that started it${thread ? ` (this call is from ${server.agent} thread ${thread})` : ''}`,
      };
    }
    const pane = panes.get(link.pid);
    if (pane !== undefined)
      return {
        kind: 'proven',
        pane,
        panePid: link.pid,
        ...(claimed !== undefined && claimed !== pane ? {claimed} : {}),
      };
  }
  const last = chain.at(-1);
  return {
    kind: 'unproven',
    claimed,
    why:
      chain.length === 0
        ? 'its process ancestry could not be read'
        : `it does not run in any pane of that tmux server (its ancestry ends at pid ${last?.pid}: ${short(last?.command ?? '')})`,
  };
}

function short(command: string): string {
  const words = command.split(' ');
  const first = words[0]?.split('/').at(-1) ?? '';
  const rest = words.slice(1).join(' ');
  const line = rest ? `${first} ${rest}` : first;
  return line.length > 60 ? `${line.slice(0, 57)}...` : line;
}

/** The pane an `OwnPane` names, if it proves one. */
export function provenPane(own: OwnPane): string | undefined {
  return own.kind === 'proven' ? own.pane : undefined;
}

/** The one sentence that refuses a pane nudge cannot prove (exit 2), naming what was claimed
 * and why it is not believed: `lead` says what wanted the pane ("--notify-pane self names the
 * pane nudge runs in"), `fix` what to do instead. */
export function unprovenPaneError(
  lead: string,
  own: OwnPane & {kind: 'unproven'},
  fix = 'name the pane as %N',
): NudgeError {
  const told = own.claimed
    ? `$TMUX_PANE says ${own.claimed} and nudge cannot prove that is its pane: ${own.why}`
    : `nudge cannot find which pane it runs in: ${own.why}`;
  return new NudgeError('unproven-pane', `${lead}, but ${told}; nothing was typed: ${fix}.`);
}

/** How a proven or refused pane reads in `doctor` and `explain`. */
export function describeOwnPane(own: OwnPane): string {
  switch (own.kind) {
    case 'outside':
      return 'not inside a tmux pane';
    case 'proven':
      return `${own.pane}, proven: ${own.thread ? `the call is from ${own.thread}, which that pane's title shows` : `nudge descends from the pane's first process (pid ${own.panePid})`}${own.claimed ? `; $TMUX_PANE said ${own.claimed}, which is not believed` : ''}`;
    case 'unproven':
      return `${own.claimed ? `$TMUX_PANE says ${own.claimed}, ` : ''}not proven: ${own.why}`;
  }
}
