import {type ConfigEnv, configTable} from '../base/config.js';
import {NudgeError} from '../base/errors.js';
import {insideTmux, type ServerSpec} from '../tmux/server.js';
import type {Tmux} from '../tmux/tmux.js';

/**
 * Who asks, for the one reach check (docs/security.md, "Reach"): the person outside tmux (their
 * own terminal, a schedule their crontab runs), or a process in a pane (an agent's tool, a
 * hook, `nudge mcp`), bounded to that pane's session unless config.toml's `[submit] panes =
 * "server"` widens it to the server, and never beyond its server. Known from the environment
 * tmux gives every process of a pane (`$TMUX`, `$TMUX_PANE`): a process that strips it is
 * not bounded here (docs/security.md says so; an agent's sandbox is the bound for that).
 */
export type Asker =
  | {kind: 'person'}
  | {
      kind: 'pane';
      socketPath: string;
      serverPid: number | undefined;
      pane: string;
      reach: PaneReach;
    };

/** Who asks, from the environment tmux gives a pane. */
export function askerOf(env: Record<string, string | undefined>): Asker {
  const inside = insideTmux(env);
  if (!inside?.pane) return {kind: 'person'};
  return {
    kind: 'pane',
    socketPath: inside.socketPath,
    serverPid: inside.serverPid,
    pane: inside.pane,
    reach: paneReachOf(env),
  };
}

/** A pane something would reach: its server, its id, and (when known) its session. */
export interface Reached {
  socketPath: string;
  serverPid: number;
  pane: string;
  sessionId?: string | undefined;
}

/**
 * Whether `asker` may reach `target`: undefined when it may, else the clause why not (for a
 * sentence that names the pane). `tmuxFor` gives the target's server (to learn sessions).
 */
export async function whyUnreachable(
  asker: Asker,
  target: Reached,
  tmuxFor: (spec: ServerSpec) => Tmux,
): Promise<string | undefined> {
  if (asker.kind === 'person') return undefined;
  const sameServer =
    asker.socketPath === target.socketPath ||
    (asker.serverPid !== undefined && asker.serverPid === target.serverPid);
  if (!sameServer)
    return `it is on another tmux server than the pane nudge runs in (${asker.pane})`;
  if (asker.reach === 'server' || target.pane === asker.pane) return undefined;
  const tmux = tmuxFor({kind: 'socket-path', path: target.socketPath});
  const [mine, theirs] = await Promise.all([
    tmux.describePane(asker.pane).catch(() => undefined),
    target.sessionId === undefined
      ? tmux.describePane(target.pane).catch(() => undefined)
      : {sessionId: target.sessionId},
  ]);
  if (mine && theirs && mine.sessionId === theirs.sessionId) return undefined;
  return `it is in another session than the pane nudge runs in (${asker.pane}), and config.toml's [submit] panes is not "server"`;
}

/** whyUnreachable as a refusal: exit 2, one sentence that says what was asked for. */
export async function checkReachOf(
  asker: Asker,
  target: Reached,
  tmuxFor: (spec: ServerSpec) => Tmux,
  what: string,
): Promise<void> {
  const why = await whyUnreachable(asker, target, tmuxFor);
  if (why !== undefined) throw new NudgeError('out-of-reach', `${what}: ${why}.`);
}

/** Of `items`, those `asker` may reach (each judged by `target`), in their order. */
export async function reachable<T>(
  asker: Asker,
  items: readonly T[],
  target: (item: T) => Reached,
  tmuxFor: (spec: ServerSpec) => Tmux,
): Promise<T[]> {
  if (asker.kind === 'person') return [...items];
  // Each pane is described once, however many items name it.
  const described = new Map<string, ReturnType<Tmux['describePane']>>();
  const memo = (spec: ServerSpec): Tmux => {
    const tmux = tmuxFor(spec);
    const key = (pane: string) => `${JSON.stringify(spec)}\0${pane}`;
    return {
      ...tmux,
      describePane: (pane: string) => {
        const found = described.get(key(pane)) ?? tmux.describePane(pane);
        described.set(key(pane), found);
        return found;
      },
    };
  };
  const kept: T[] = [];
  for (const item of items)
    if ((await whyUnreachable(asker, target(item), memo)) === undefined) kept.push(item);
  return kept;
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
