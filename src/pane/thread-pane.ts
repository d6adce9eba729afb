import type {SharedServer} from '../agents/identity.js';
import {runsProgram} from '../agents/programs.js';
import type {ProcessTree} from '../process/tree.js';
import type {PaneStateRow} from '../tmux/pane-options.js';

/** What finding a thread's pane by its title reads. */
export interface ThreadPaneDeps {
  tree: ProcessTree;
}

/** A thread id as agents write them (Codex: a UUID): nothing else is looked for in titles. */
const THREAD_ID = /^[0-9A-Za-z][0-9A-Za-z-]{7,63}$/;

/**
 * The pane whose title shows `thread` (its first `server.titleThread` characters) and whose
 * foreground program is the server's agent — Codex's shared app-server runs every session's
 * calls outside their panes, and `nudge install codex` has each TUI put its thread id in its
 * title (`#{pane_title}`). Exactly one such pane, or why not (a clause).
 */
export async function paneShowingThread(
  deps: ThreadPaneDeps,
  rows: readonly PaneStateRow[],
  server: SharedServer,
  thread: string,
): Promise<{row: PaneStateRow} | {why: string; side?: true}> {
  if (server.titleThread === undefined)
    return {why: `${server.agent} shows no thread in its pane's title`};
  if (!THREAD_ID.test(thread)) return {why: `its thread id ${JSON.stringify(thread)} is not one`};
  const shown = thread.slice(0, server.titleThread);
  const running: PaneStateRow[] = [];
  for (const row of rows.filter((r) => r.panePid > 0 && r.title.includes(shown)))
    if (await runsAgent(deps, row, server)) running.push(row);
  const [one, ...more] = running;
  if (one && more.length === 0) return {row: one};
  // Its agent's panes show their threads, and none this one: a thread of the server that no
  // pane is (Codex's side threads end turns of their own), not a title left unset.
  if (running.length === 0 && (await showsThreads(deps, rows, server)))
    return {
      why: `thread ${thread} is no pane's: a side thread of a ${server.agent} session`,
      side: true,
    };
  return {
    why:
      running.length === 0
        ? `no pane running ${server.agent} shows thread ${thread} in its title (nudge install ${server.agent} has it shown there)`
        : `${running.length} panes running ${server.agent} show thread ${thread} in their titles`,
  };
}

/** The start of a UUID, as Codex names its threads (the title shows `titleThread` characters
 * of it): what a title must show to say which thread a pane is. */
const UUID_START = /\b[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]+/i;

/**
 * Whether `thread` is a side thread of the session in a pane nudge proved by the process tree
 * (`codex --no-daemon`: its side threads end turns of their own, with the session's
 * environment): the pane's title shows a thread (a UUID's start) and not this one. A title
 * that shows no thread says nothing.
 */
export function otherThreadShown(title: string, server: SharedServer, thread: string): boolean {
  if (server.titleThread === undefined || !UUID_START.test(thread)) return false;
  return UUID_START.test(title) && !title.includes(thread.slice(0, server.titleThread));
}

/** Whether some pane running the server's agent shows a thread id in its title. */
async function showsThreads(
  deps: ThreadPaneDeps,
  rows: readonly PaneStateRow[],
  server: SharedServer,
): Promise<boolean> {
  const width = server.titleThread ?? 0;
  const id = new RegExp(`[0-9A-Za-z][0-9A-Za-z-]{${width - 1}}`);
  for (const row of rows.filter((r) => r.panePid > 0 && id.test(r.title)))
    if (await runsAgent(deps, row, server)) return true;
  return false;
}

/** Whether the program in front in `row`'s pane is the server's agent. */
async function runsAgent(
  deps: ThreadPaneDeps,
  row: PaneStateRow,
  server: SharedServer,
): Promise<boolean> {
  const groups = await deps.tree.groupsOf(row.panePid).catch(() => undefined);
  const [front] = groups ? await deps.tree.ancestry(groups.foreground).catch(() => []) : [];
  return front !== undefined && runsProgram(server.programs, front.command);
}
