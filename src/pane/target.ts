import {sharedServers} from '../agents/registry.js';
import {NudgeError} from '../base/errors.js';
import type {ProcessTree} from '../process/tree.js';
import {TmuxCommandError} from '../tmux/runner.js';
import {
  describeServer,
  insideTmux,
  listPanesLine,
  type PaneRef,
  resolveServerSpec,
  type ServerSpec,
} from '../tmux/server.js';
import type {PaneInfo, Tmux} from '../tmux/tmux.js';
import {PaneDied} from '../tmux/view.js';
import {askerOf} from './asker.js';
import {type OwnPane, proveOwnPane, unprovenPaneError} from './own-pane.js';
import {checkReachOf} from './reach.js';

/** A pane found for a command: what tmux says of it, and how the user named it. */
export interface Target {
  info: PaneInfo;
  /** As given (`%3`, `work:1.0`, `self`'s pane id). */
  target: string;
}

/** A pane's reference (server and pane ids) from what tmux says of it. */
export function paneRefOf(info: PaneInfo): PaneRef {
  return {socketPath: info.socketPath, serverPid: info.serverPid, pane: info.paneId};
}

/** Where a server was looked for, for messages. */
function whereServer(spec: ServerSpec): string {
  switch (spec.kind) {
    case 'socket-path':
      return `at ${spec.path}`;
    case 'socket-name':
      return `with socket name "${spec.name}"`;
    case 'default':
      return 'on the default socket';
  }
}

/** What proving the caller's own pane needs from a command's context. */
export interface Caller {
  env: Record<string, string | undefined>;
  pid: number;
  tree: ProcessTree;
}

/** Whether `$TMUX_PANE` could name a pane of the server `spec` names: it names a pane of the
 * server in $TMUX only (a -L/-S elsewhere is another server). */
function onOwnServer(spec: ServerSpec, env: Record<string, string | undefined>): boolean {
  const tmuxSocket = insideTmux(env)?.socketPath;
  return spec.kind === 'default' || (spec.kind === 'socket-path' && spec.path === tmuxSocket);
}

/**
 * The pane nudge runs in on the server `spec` names, proven by the process tree
 * (src/pane/own-pane.ts), never taken from `$TMUX_PANE` alone. `always`: look even without a
 * `$TMUX_PANE` (`self` was asked for).
 */
export async function ownPane(
  tmux: Tmux,
  spec: ServerSpec,
  caller: Caller,
  always = false,
): Promise<OwnPane> {
  if (!onOwnServer(spec, caller.env)) return {kind: 'outside'};
  return proveOwnPane(
    {tmux, tree: caller.tree, pid: caller.pid, env: caller.env, servers: sharedServers},
    always,
  );
}

/**
 * The caller's own pane where something is sent there on the caller's behalf: proven, or
 * `undefined` when nudge runs in no pane; a claimed pane it cannot prove is refused in one
 * sentence (`lead` says what wanted it, `fix` what to do instead).
 */
export async function ownPaneOrRefuse(
  tmux: Tmux,
  spec: ServerSpec,
  caller: Caller,
  lead: string,
  fix: string,
  always = false,
): Promise<string | undefined> {
  const own = await ownPane(tmux, spec, caller, always).catch((error: unknown) => {
    throw serverError(error, spec);
  });
  if (own.kind === 'unproven') throw unprovenPaneError(lead, own, fix);
  return own.kind === 'proven' ? own.pane : undefined;
}

/** Find the pane to work on, or throw a NudgeError saying exactly what is wrong. Without a
 * target, or with `self`, the caller's own pane — only where the process tree proves it. */
export async function resolvePane(
  tmux: Tmux,
  spec: ServerSpec,
  paneTarget: string | undefined,
  caller: Caller,
  flag = '--pane',
): Promise<Target> {
  const {env} = caller;
  // `self`: the pane nudge runs in, as a literal word (an agent's command-approval rules
  // match plain commands, not ones that expand "$TMUX_PANE").
  if (paneTarget === 'self' && !onOwnServer(spec, env)) {
    throw new NudgeError(
      'no-pane',
      `${flag} self means the pane nudge runs in, but ${env.TMUX_PANE ? 'that pane is on another tmux server than -L/-S names' : 'nudge is not running inside tmux ($TMUX_PANE is not set)'}; pass the pane as %N.`,
    );
  }
  let target = paneTarget;
  if (paneTarget === 'self' || paneTarget === undefined) {
    const own = await ownPane(tmux, spec, caller, paneTarget === 'self').catch((error: unknown) => {
      throw serverError(error, spec);
    });
    if (own.kind === 'unproven')
      throw unprovenPaneError(
        paneTarget === 'self'
          ? `${flag} self names the pane nudge runs in`
          : `Without ${flag}, the pane is the one nudge runs in`,
        own,
        `pass ${flag} %N`,
      );
    if (own.kind === 'outside')
      throw paneTarget === 'self'
        ? new NudgeError(
            'no-pane',
            `${flag} self means the pane nudge runs in, but nudge is not running inside tmux ($TMUX_PANE is not set); pass the pane as %N.`,
          )
        : new NudgeError(
            'no-pane',
            'No target pane: pass --pane %N (or session:window.pane), or run nudge inside tmux so $TMUX_PANE is set.',
          );
    target = own.pane;
  }
  if (target === undefined) throw new Error('unreachable: a pane was resolved');
  if (target.trim() === '' || /[\0\n]/.test(target)) {
    throw new NudgeError(
      'bad-pane',
      `${flag} ${JSON.stringify(target)} is not a pane; use %N or session:window.pane.`,
    );
  }
  let info: PaneInfo | undefined;
  try {
    info = await tmux.describePane(target);
  } catch (error) {
    throw serverError(error, spec);
  }
  if (!info) {
    throw new NudgeError(
      'no-such-pane',
      `Pane ${JSON.stringify(target)} (${flag}) was not found on ${describeServer(spec)}; list panes with "${listPanesLine(spec)}".`,
    );
  }
  return {info, target};
}

/** A failure to reach the tmux server as one sentence (other errors as they are). */
export function serverError(error: unknown, spec: ServerSpec): unknown {
  if (!(error instanceof TmuxCommandError)) return error;
  switch (error.kind) {
    case 'no-tmux':
      return new NudgeError(
        'no-tmux',
        'tmux is not installed or not on PATH; install it (e.g. apt-get install tmux) and try again.',
      );
    case 'no-access':
      return new NudgeError(
        'no-access',
        `nudge may not connect to the tmux server ${whereServer(spec)} (${/\(([^)]*)\)\s*$/.exec(error.stderr.trim())?.[1] ?? 'access denied'}); if it runs inside an agent's sandbox, let the agent run nudge outside it (Codex: a rule prefix_rule(pattern = ["nudge"], decision = "allow") in ~/.codex/rules/nudge.rules).`,
      );
    case 'no-server':
      return new NudgeError(
        'no-server',
        `No tmux server is running ${whereServer(spec)}; start tmux, or point -L/-S/NUDGE_TMUX_SOCKET at the right server.`,
      );
    default:
      return error;
  }
}

/** Any error as a front end shows it: a failure to reach the server its tmux command was sent
 * to as serverError's one sentence (every command says "no server" alike), others as they are. */
export function asServerSentence(error: unknown): unknown {
  return error instanceof TmuxCommandError && error.server
    ? serverError(error, error.server)
    : error;
}

/** A pane that closed (or whose server stopped) while a command watched it, as one sentence;
 * an abort as "interrupted"; other errors as they are. */
export function watchError(error: unknown, pane: string, doing: string): unknown {
  if (
    error instanceof TmuxCommandError &&
    (error.kind === 'no-target' || error.kind === 'no-server')
  )
    return new NudgeError('pane-gone', `Pane ${pane} closed while ${doing}.`);
  if (error instanceof PaneDied) return new NudgeError('pane-gone', `${error.message}.`);
  if (error instanceof Error && error.name === 'AbortError')
    return new NudgeError('interrupted', `Interrupted while ${doing}.`);
  return error;
}

/**
 * Least authority (docs/security.md): a nudge that runs inside a pane (an agent's tool, a
 * hook, `nudge mcp`) — as its process tree proves, whatever its environment says — types,
 * reads and closes only in the panes of that pane's own session, unless the person's config
 * widens it to the server; never another server's. A nudge started outside tmux (the person's
 * own terminal, a schedule) is not bounded here. The one check (src/pane/reach.ts); throws
 * exit 2 naming the flag, the pane and the setting to change.
 */
export async function checkReach(tmux: Tmux, target: PaneInfo, who: Caller, flag = '--pane') {
  await checkReachOf(
    await askerOf(who),
    {
      socketPath: target.socketPath,
      serverPid: target.serverPid,
      pane: target.paneId,
      sessionId: target.sessionId,
    },
    () => tmux,
    `${flag} ${target.paneId} is out of reach`,
  );
}

/**
 * The pane a command that reads or closes it names (`wait`, `expect`), on the server its
 * `-L`/`-S` name (or a submit's): resolved, then within the caller's reach (checkReach) —
 * reading a screen is reached as typing is. With the server and the target as given.
 */
export async function reachablePane(
  o: {socketName?: string | undefined; socketPath?: string | undefined; pane?: string | undefined},
  ctx: Caller & {tmux: (spec: ServerSpec) => Tmux},
  flag = 'PANE',
): Promise<Target & {tmux: Tmux; spec: ServerSpec}> {
  const spec = resolveServerSpec({socketName: o.socketName, socketPath: o.socketPath}, ctx.env);
  const tmux = ctx.tmux(spec);
  const {info, target} = await resolvePane(tmux, spec, o.pane, ctx, flag);
  await checkReach(tmux, info, ctx, flag);
  return {tmux, spec, info, target};
}
