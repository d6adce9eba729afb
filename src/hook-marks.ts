import {mkdir, readFile} from 'node:fs/promises';
import {join} from 'node:path';
import {paneLockKey} from './pane-lock.js';
import {DIR_MODE} from './paths.js';
import {writeFileAtomic} from './util/fs.js';

/** "This pane's agent finished a turn", as an agent's hook reported it. */
export interface HookMark {
  source: 'claude-stop' | 'codex-notify';
  /** Milliseconds since the epoch when the hook ran. */
  atMs: number;
  pane: string;
  /** The agent's session/thread id, when the hook said. */
  session?: string;
}

/** The pane a hook runs in, from the environment tmux gives every pane: `$TMUX` is
 * "<socket>,<server pid>,<session>", `$TMUX_PANE` the pane id. */
export function hookPaneFromEnv(
  env: Record<string, string | undefined>,
): {socketPath: string; serverPid: number; pane: string} | undefined {
  const [socketPath, pid] = env.TMUX?.split(',') ?? [];
  const pane = env.TMUX_PANE;
  const serverPid = Number(pid);
  if (!socketPath || !Number.isSafeInteger(serverPid) || !pane || !/^%\d+$/.test(pane))
    return undefined;
  return {socketPath, serverPid, pane};
}

function markPath(
  stateDir: string,
  where: {socketPath: string; serverPid: number; pane: string},
): string {
  return join(
    stateDir,
    'marks',
    `${paneLockKey(where.socketPath, where.serverPid, where.pane)}.json`,
  );
}

/** Record a mark for a pane (the newest replaces the previous one). */
export async function recordHookMark(
  stateDir: string,
  where: {socketPath: string; serverPid: number; pane: string},
  mark: HookMark,
): Promise<void> {
  await mkdir(join(stateDir, 'marks'), {recursive: true, mode: DIR_MODE});
  await writeFileAtomic(markPath(stateDir, where), JSON.stringify(mark));
}

/** The newest mark of a pane, if any. */
export async function readHookMark(
  stateDir: string,
  where: {socketPath: string; serverPid: number; pane: string},
): Promise<HookMark | undefined> {
  try {
    return JSON.parse(await readFile(markPath(stateDir, where), 'utf8')) as HookMark;
  } catch {
    return undefined;
  }
}
