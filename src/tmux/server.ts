import {NudgeError} from '../base/errors.js';
import {shellWord} from '../base/shell.js';

/** Which tmux server to talk to. */
export type ServerSpec =
  | {kind: 'socket-path'; path: string}
  | {kind: 'socket-name'; name: string}
  | {kind: 'default'};

/** Where the server choice may come from, besides the flags. */
export interface ServerEnv {
  TMUX?: string | undefined;
  NUDGE_TMUX_SOCKET?: string | undefined;
}

/** A tmux server as nudge identifies it: its socket, and its pid (pane ids restart at %0
 * when a server restarts, so a socket alone does not say which panes are meant). */
export interface ServerRef {
  socketPath: string;
  serverPid: number;
}

/** One pane of one tmux server. */
export interface PaneRef extends ServerRef {
  pane: string;
}

/** The tmux this process runs inside, from the environment tmux gives every pane: `$TMUX` is
 * "<socket path>,<server pid>,<session index>" and `$TMUX_PANE` the pane id. The one reader
 * of both. `serverPid` and `pane` are undefined where they do not parse. */
export function insideTmux(env: {
  TMUX?: string | undefined;
  TMUX_PANE?: string | undefined;
}): {socketPath: string; serverPid: number | undefined; pane: string | undefined} | undefined {
  const [socketPath, pid] = env.TMUX?.split(',') ?? [];
  if (!socketPath) return undefined;
  const serverPid = Number(pid);
  const pane = env.TMUX_PANE;
  return {
    socketPath,
    serverPid: pid && Number.isSafeInteger(serverPid) ? serverPid : undefined,
    pane: pane && /^%\d+$/.test(pane) ? pane : undefined,
  };
}

/**
 * Pick the tmux server: `-S path`, else `-L name`, else `$NUDGE_TMUX_SOCKET` (a socket path;
 * schedulers have no `$TMUX`), else the socket in `$TMUX` (we are inside tmux), else tmux's
 * default socket.
 */
export function resolveServerSpec(
  flags: {socketName?: string | undefined; socketPath?: string | undefined},
  env: ServerEnv,
): ServerSpec {
  if (flags.socketName !== undefined && flags.socketPath !== undefined) {
    throw new NudgeError(
      'bad-usage',
      'Give either -L/--socket-name or -S/--socket-path, not both.',
    );
  }
  if (flags.socketPath !== undefined) {
    if (flags.socketPath === '') throw new NudgeError('bad-usage', '-S/--socket-path is empty.');
    return {kind: 'socket-path', path: flags.socketPath};
  }
  if (flags.socketName !== undefined) {
    if (flags.socketName === '' || flags.socketName.includes('/')) {
      throw new NudgeError(
        'bad-usage',
        `-L/--socket-name must be a plain name without "/", got ${JSON.stringify(flags.socketName)}; use -S for a path.`,
      );
    }
    return {kind: 'socket-name', name: flags.socketName};
  }
  if (env.NUDGE_TMUX_SOCKET) return {kind: 'socket-path', path: env.NUDGE_TMUX_SOCKET};
  const fromTmux = insideTmux(env)?.socketPath;
  if (fromTmux) return {kind: 'socket-path', path: fromTmux};
  return {kind: 'default'};
}

/** Why resolveServerSpec picks the server it picks, for `nudge doctor` (the same order). */
export function serverChoiceReason(
  flags: {socketName?: string | undefined; socketPath?: string | undefined},
  env: ServerEnv,
): string {
  if (flags.socketPath !== undefined) return 'from -S';
  if (flags.socketName !== undefined) return 'from -L';
  if (env.NUDGE_TMUX_SOCKET) return 'from $NUDGE_TMUX_SOCKET';
  if (env.TMUX) return 'from $TMUX: this shell runs inside it';
  return "tmux's default socket: not inside tmux, no -L/-S, no $NUDGE_TMUX_SOCKET";
}

/**
 * The global tmux flags nudge runs tmux with: `-u`, then the server's. `-u` makes tmux write
 * UTF-8 whatever the locale: a client in a bare environment (cron, launchd, systemd: no LANG)
 * otherwise gets every control or non-ASCII character of a format or a capture as `_` — the
 * field separator of nudge's formats among them, so no pane would be found.
 */
export function serverArgs(spec: ServerSpec): string[] {
  switch (spec.kind) {
    case 'socket-path':
      return ['-u', '-S', spec.path];
    case 'socket-name':
      return ['-u', '-L', spec.name];
    case 'default':
      return ['-u'];
  }
}

/** The command line a person runs to list every pane of the server `spec` names, the server
 * flags as given (`tmux -L work list-panes -a`), for a hint. */
export function listPanesLine(spec: ServerSpec): string {
  return ['tmux', ...serverArgs(spec).filter((a) => a !== '-u'), 'list-panes', '-a']
    .map(shellWord)
    .join(' ');
}

/** The socket file of a server: tmux puts named sockets (and the default one) in
 * `${TMUX_TMPDIR:-/tmp}/tmux-UID/`. */
export function socketFile(
  spec: ServerSpec,
  env: {TMUX_TMPDIR?: string | undefined},
  uid: number,
): string {
  if (spec.kind === 'socket-path') return spec.path;
  const dir = `${(env.TMUX_TMPDIR || '/tmp').replace(/\/$/, '')}/tmux-${uid}`;
  return `${dir}/${spec.kind === 'socket-name' ? spec.name : 'default'}`;
}

/** A human name for the server, for messages. */
export function describeServer(spec: ServerSpec): string {
  switch (spec.kind) {
    case 'socket-path':
      return `the tmux server at ${spec.path}`;
    case 'socket-name':
      return `the tmux server named "${spec.name}"`;
    case 'default':
      return 'the default tmux server';
  }
}
