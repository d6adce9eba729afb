import type {PaneRef} from '../tmux/server.js';
import {TERMINAL_STATES} from './states.js';
import {JobStore} from './store.js';

/** How long after its end a job's typing still proves a turn's pane. */
const RECENT_MS = 10 * 60_000;

const TERMINAL: readonly string[] = TERMINAL_STATES;

/** A pane whose turn a hook reports, proven by what nudge typed there (by `job`). */
export interface TypedTurn {
  where: PaneRef;
  job: string;
}

/**
 * The pane of a turn an agent's hook reports without proving where it runs (Codex's `notify`
 * under its shared app-server), proven by nudge's own typing: the turn's user input is exactly
 * the text a job typed — delivered, read back as the agent's prompt — into a pane, and that
 * job waits there now or ended within {@link RECENT_MS} (its screen may show the turn's end
 * before the agent runs its hook). Only when one pane fits: the same text typed into two
 * panes, or none, proves nothing.
 */
export async function paneTypedWith(
  stateDir: string,
  inputs: readonly string[],
  nowMs: number,
): Promise<TypedTurn | undefined> {
  if (inputs.length === 0) return undefined;
  const store = new JobStore(stateDir);
  const found = new Map<string, TypedTurn>();
  for (const record of await store.list()) {
    if (record.kind !== 'submit') continue;
    const recent = nowMs - Date.parse(record.updatedAt) < RECENT_MS;
    if (record.state !== 'waiting' && !(TERMINAL.includes(record.state) && recent)) continue;
    const handle = await store.open(record.id).catch(() => undefined);
    if (!handle) continue;
    const text = await handle.readText().catch(() => undefined);
    if (text === undefined || !inputs.includes(text)) continue;
    const typed = (await handle.readEvents().catch(() => [])).find((e) => e.event === 'typed');
    if ((typed as {delivery?: string} | undefined)?.delivery !== 'submitted') continue;
    const where = {socketPath: record.socketPath, serverPid: record.serverPid, pane: record.pane};
    found.set(JSON.stringify(where), {where, job: record.id});
  }
  const [only, ...more] = [...found.values()];
  return more.length === 0 ? only : undefined;
}
