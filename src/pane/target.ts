import {type ConfigEnv, configTable} from '../base/config.js';
import {NudgeError} from '../base/errors.js';
import {TmuxCommandError} from '../tmux/runner.js';
import {describeServer, insideTmux, type PaneRef, type ServerSpec} from '../tmux/server.js';
import type {PaneInfo, Tmux} from '../tmux/tmux.js';

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

/** The pane nudge runs in ($TMUX_PANE), when it is a pane of the server `spec` names:
 * $TMUX_PANE names a pane of the server in $TMUX only (a -L/-S elsewhere is another server). */
export function ownPaneOn(
  spec: ServerSpec,
  env: Record<string, string | undefined>,
): string | undefined {
  const tmuxSocket = insideTmux(env)?.socketPath;
  const sameServer =
    spec.kind === 'default' || (spec.kind === 'socket-path' && spec.path === tmuxSocket);
  return sameServer ? env.TMUX_PANE : undefined;
}

/** Find the pane to work on, or throw a NudgeError saying exactly what is wrong. */
export async function resolvePane(
  tmux: Tmux,
  spec: ServerSpec,
  paneTarget: string | undefined,
  env: Record<string, string | undefined>,
  flag = '--pane',
): Promise<Target> {
  const own = ownPaneOn(spec, env);
  // `self`: the pane nudge runs in, as a literal word (an agent's command-approval rules
  // match plain commands, not ones that expand "$TMUX_PANE").
  if (paneTarget === 'self' && !own) {
    throw new NudgeError(
      'no-pane',
      `${flag} self means the pane nudge runs in, but ${env.TMUX_PANE ? 'that pane is on another tmux server than -L/-S names' : 'nudge is not running inside tmux ($TMUX_PANE is not set)'}; pass the pane as %N.`,
    );
  }
  const target = paneTarget === 'self' ? own : (paneTarget ?? own);
  if (!target) {
    throw new NudgeError(
      'no-pane',
      'No target pane: pass --pane %N (or session:window.pane), or run nudge inside tmux so $TMUX_PANE is set.',
    );
  }
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
      `Pane ${JSON.stringify(target)} (${flag}) was not found on ${describeServer(spec)}; list panes with "tmux list-panes -a".`,
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

/** A pane that closed (or whose server stopped) while a command watched it, as one sentence;
 * an abort as "interrupted"; other errors as they are. */
export function watchError(error: unknown, pane: string, doing: string): unknown {
  if (
    error instanceof TmuxCommandError &&
    (error.kind === 'no-target' || error.kind === 'no-server')
  )
    return new NudgeError('pane-gone', `Pane ${pane} closed while ${doing}.`);
  if (error instanceof Error && error.name === 'AbortError')
    return new NudgeError('interrupted', `Interrupted while ${doing}.`);
  return error;
}

/** How far a nudge started inside a pane may type (config.toml `[submit] panes`): the panes
 * of its own session (the default), or of its whole server. */
export type PaneReach = 'session' | 'server';

/** `[submit] panes` from the person's config file (default `session`). */
export function paneReachOf(env: ConfigEnv): PaneReach {
  const found = configTable(env, 'submit');
  const value = found?.table.panes;
  if (value === undefined) return 'session';
  if (value === 'session' || value === 'server') return value;
  throw new NudgeError(
    'bad-config',
    `${found?.file}: submit.panes must be "session" or "server", not ${JSON.stringify(value)}.`,
  );
}

/**
 * Least authority (docs/security.md): a nudge started inside a pane (an agent's tool, a hook,
 * `nudge mcp`) types only into the panes of that pane's own session, unless the person's
 * config widens it to the server; never into another server's. A nudge started outside tmux
 * (the person's own terminal, a schedule) is not bounded here. Throws exit 2 naming the
 * setting to change.
 */
export async function checkReach(
  tmux: Tmux,
  target: PaneInfo,
  env: Record<string, string | undefined>,
  flag = '--pane',
): Promise<void> {
  const inside = insideTmux(env);
  if (!inside?.pane) return;
  const here = inside.pane;
  const sameServer =
    inside.socketPath === target.socketPath || inside.serverPid === target.serverPid;
  if (!sameServer)
    throw new NudgeError(
      'bad-pane',
      `${flag} ${target.paneId} is on another tmux server than the pane nudge runs in (${here}); nudge started inside a pane types only into panes of its own server: run it from that server or outside tmux.`,
    );
  const reach = paneReachOf(env);
  if (reach === 'server' || target.paneId === here) return;
  const mine = await tmux.describePane(here).catch(() => undefined);
  if (mine?.sessionId === target.sessionId) return;
  throw new NudgeError(
    'bad-pane',
    `${flag} ${target.paneId} is in another session than the pane nudge runs in (${here}); nudge started inside a pane types only into its own session's panes unless your config.toml says [submit] panes = "server".`,
  );
}
