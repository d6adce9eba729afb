import {watch} from 'node:fs';
import {mkdir, readFile} from 'node:fs/promises';
import {join} from 'node:path';
import {writeFileAtomic} from '../base/fs.js';
import {DIR_MODE} from '../base/paths.js';
import {paneKey} from '../locks/key.js';
import {insideTmux, type PaneRef, type ServerRef} from '../tmux/server.js';
import type {DialogKind} from './profile.js';
import type {HookKind} from './registry.js';

/** "This pane's agent finished a turn", as an agent's hook reported it. */
export interface HookMark {
  source: HookKind;
  /** Milliseconds since the epoch when the hook ran. */
  atMs: number;
  pane: string;
  /** The agent's session/thread id, when the hook said. */
  session?: string;
}

/** The pane a hook runs in, from the environment tmux gives every pane: `$TMUX` is
 * "<socket>,<server pid>,<session>", `$TMUX_PANE` the pane id. */
export function hookPaneFromEnv(env: Record<string, string | undefined>): PaneRef | undefined {
  const here = insideTmux(env);
  if (!here || here.serverPid === undefined || here.pane === undefined) return undefined;
  return {socketPath: here.socketPath, serverPid: here.serverPid, pane: here.pane};
}

function markPath(stateDir: string, where: PaneRef): string {
  return join(stateDir, 'marks', `${paneKey(where)}.json`);
}

/** Record a mark for a pane (the newest replaces the previous one). */
export async function recordHookMark(
  stateDir: string,
  where: PaneRef,
  mark: HookMark,
): Promise<void> {
  await mkdir(join(stateDir, 'marks'), {recursive: true, mode: DIR_MODE});
  await writeFileAtomic(markPath(stateDir, where), JSON.stringify(mark));
}

/** "This pane's agent waits for a person", as an agent's own notification hook reported it
 * (Claude Code's `Notification` hook for a permission prompt, Gemini CLI's for a tool
 * permission): what is asked, and when. */
export interface NeedsMark {
  source: string;
  kind: DialogKind;
  message: string;
  atMs: number;
  pane: string;
}

function needsPath(stateDir: string, where: PaneRef): string {
  return join(stateDir, 'marks', `${paneKey(where)}.needs.json`);
}

/** Record that a pane's agent waits for a person (the newest replaces the previous one). */
export async function recordNeedsMark(
  stateDir: string,
  where: PaneRef,
  mark: NeedsMark,
): Promise<void> {
  await mkdir(join(stateDir, 'marks'), {recursive: true, mode: DIR_MODE});
  await writeFileAtomic(needsPath(stateDir, where), JSON.stringify(mark));
}

/** The newest "needs a person" mark of a pane, if any. */
export async function readNeedsMark(
  stateDir: string,
  where: PaneRef,
): Promise<NeedsMark | undefined> {
  try {
    return JSON.parse(await readFile(needsPath(stateDir, where), 'utf8')) as NeedsMark;
  } catch {
    return undefined;
  }
}

/** The newest mark of a pane, if any. */
export async function readHookMark(
  stateDir: string,
  where: PaneRef,
): Promise<HookMark | undefined> {
  try {
    return JSON.parse(await readFile(markPath(stateDir, where), 'utf8')) as HookMark;
  } catch {
    return undefined;
  }
}

/** Where a job reads the turn-end marks of its server's panes. */
export interface HookMarkSource {
  /** The newest mark of a pane, if any. */
  read(pane: string): Promise<HookMark | undefined>;
  /** The newest "needs a person" mark of a pane, if any. */
  readNeeds(pane: string): Promise<NeedsMark | undefined>;
  /** A counter of file events in the marks folder: take it before `read`, and pass it to
   * `changed`, so an event between the two is not missed. */
  version(): number;
  /** Resolves once the marks folder changed after `since` (at once if it already has), or
   * after `backstopMs` at the latest; rejects when `signal` fires. */
  changed(signal: AbortSignal, backstopMs: number, since: number): Promise<void>;
}

/** The marks of the panes of one tmux server, under `stateDir`. One watcher on the marks
 * folder (made on first use, never keeping the process alive) counts its events. */
export function hookMarkSource(stateDir: string, server: ServerRef): HookMarkSource {
  const dir = join(stateDir, 'marks');
  let events = 0;
  let watching = false;
  const waiters = new Set<() => void>();
  const startWatching = async () => {
    if (watching) return;
    watching = true;
    await mkdir(dir, {recursive: true, mode: DIR_MODE}).catch(() => {});
    try {
      // A mark is written to a temp file and renamed into place: one event or more.
      const watcher = watch(dir, () => {
        events++;
        for (const wake of waiters) wake();
      });
      watcher.on('error', () => watcher.close());
      watcher.unref();
    } catch {
      // cannot watch (no inotify): the backstop polls
    }
  };
  return {
    read: (pane) => readHookMark(stateDir, {...server, pane}),
    readNeeds: (pane) => readNeedsMark(stateDir, {...server, pane}),
    version: () => events,
    async changed(signal, backstopMs, since) {
      signal.throwIfAborted();
      await startWatching();
      signal.throwIfAborted();
      if (events !== since) return;
      await new Promise<void>((resolve, reject) => {
        const cleanup = () => {
          clearTimeout(timer);
          waiters.delete(done);
          signal.removeEventListener('abort', cancelled);
        };
        const done = () => {
          cleanup();
          resolve();
        };
        const cancelled = () => {
          cleanup();
          reject(signal.reason);
        };
        const timer = setTimeout(done, backstopMs);
        waiters.add(done);
        signal.addEventListener('abort', cancelled, {once: true});
      });
    },
  };
}
