import {watch} from 'node:fs';
import {mkdir, readFile} from 'node:fs/promises';
import {join} from 'node:path';
import {writeFileAtomic} from '../base/fs.js';
import {DIR_MODE} from '../base/paths.js';
import {paneKey} from '../locks/key.js';
import type {PaneRef, ServerRef} from '../tmux/server.js';
import type {DialogKind} from './profile.js';
import type {HookKind} from './registry.js';
import type {WorkItem} from './work.js';

/** "This pane's agent finished a turn", as an agent's hook reported it. */
export interface HookMark {
  source: HookKind;
  /** Milliseconds since the epoch when the hook ran. */
  atMs: number;
  pane: string;
  /** The agent's session/thread id, when the hook said. */
  session?: string;
  /** How the pane was proven when the hook ran outside it: the job that typed the turn's
   * input there (src/jobs/typed-turn.ts). Absent: the hook ran in the pane. */
  provenBy?: string;
  /** What the agent said still runs after the turn (src/agents/work.ts); absent where its
   * payload does not say. */
  work?: WorkItem[];
}

/** One kind of a pane's mark: a file `<pane key><suffix>` in the state dir's marks/, the
 * newest replacing the previous one. */
function markFile<M>(suffix: string) {
  const path = (stateDir: string, where: PaneRef) =>
    join(stateDir, 'marks', `${paneKey(where)}${suffix}`);
  return {
    async write(stateDir: string, where: PaneRef, mark: M): Promise<void> {
      await mkdir(join(stateDir, 'marks'), {recursive: true, mode: DIR_MODE});
      await writeFileAtomic(path(stateDir, where), JSON.stringify(mark));
    },
    async read(stateDir: string, where: PaneRef): Promise<M | undefined> {
      try {
        return JSON.parse(await readFile(path(stateDir, where), 'utf8')) as M;
      } catch {
        return undefined;
      }
    },
  };
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

/** A hook that ran with `$TMUX_PANE` naming a pane it could not prove it runs in (a Codex
 * `notify` under the shared app-server): nothing was recorded for that pane; this says so, to
 * the job waiting there and to `doctor`. */
export interface RefusedMark {
  source: string;
  /** The pane `$TMUX_PANE` named. */
  claimed: string;
  /** Why it was not believed (a clause). */
  why: string;
  atMs: number;
}

const TURN_END = markFile<HookMark>('.json');
const NEEDS = markFile<NeedsMark>('.needs.json');
const REFUSED = markFile<RefusedMark>('.refused.json');

/** Record a turn-end mark for a pane; read the newest. */
export const recordHookMark = TURN_END.write;
export const readHookMark = TURN_END.read;
/** Record that a pane's agent waits for a person; read the newest. */
export const recordNeedsMark = NEEDS.write;
export const readNeedsMark = NEEDS.read;
/** Record that a hook claimed a pane it could not prove; read the newest. */
export const recordRefusedMark = REFUSED.write;
export const readRefusedMark = REFUSED.read;

/** Where a job reads the turn-end marks of its server's panes. */
export interface HookMarkSource {
  /** The newest mark of a pane, if any. */
  read(pane: string): Promise<HookMark | undefined>;
  /** The newest "needs a person" mark of a pane, if any. */
  readNeeds(pane: string): Promise<NeedsMark | undefined>;
  /** The newest refusal of a hook that claimed the pane and could not prove it, if any. */
  readRefused(pane: string): Promise<RefusedMark | undefined>;
  /** A counter of file events in the marks folder: take it before `read`, and pass it to
   * `changed`, so an event between the two is not missed. */
  version(): number;
  /** Resolves once the marks folder changed after `since` (at once if it already has), or
   * after `backstopMs` at the latest (a second where the folder cannot be watched); rejects
   * when `signal` fires. */
  changed(signal: AbortSignal, backstopMs: number, since: number): Promise<void>;
}

/** How often the marks are read where their folder cannot be watched. */
const NO_EVENTS_POLL_MS = 1_000;

/** The marks of the panes of one tmux server, under `stateDir`. One watcher on the marks
 * folder (made on first use, never keeping the process alive) counts its events. */
export function hookMarkSource(stateDir: string, server: ServerRef): HookMarkSource {
  const dir = join(stateDir, 'marks');
  let events = 0;
  let watching = false;
  /** Whether file events come (else the backstop is all there is, and it polls). */
  let heard = false;
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
      watcher.on('error', () => {
        heard = false;
        watcher.close();
      });
      watcher.unref();
      heard = true;
    } catch {
      // cannot watch (no inotify): the backstop polls
    }
  };
  return {
    read: (pane) => readHookMark(stateDir, {...server, pane}),
    readNeeds: (pane) => readNeedsMark(stateDir, {...server, pane}),
    readRefused: (pane) => readRefusedMark(stateDir, {...server, pane}),
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
        // Without file events the backstop is the only news: at most a second apart.
        const timer = setTimeout(
          done,
          heard ? backstopMs : Math.min(backstopMs, NO_EVENTS_POLL_MS),
        );
        waiters.add(done);
        signal.addEventListener('abort', cancelled, {once: true});
      });
    },
  };
}
