import {readFile, writeFile} from 'node:fs/promises';
import {join} from 'node:path';
import type {Clock} from '../base/clock.js';
import {describeError} from '../base/errors.js';
import {FILE_MODE} from '../base/paths.js';
import {thisProcess} from '../base/this-process.js';
import type {ServerSpec} from '../tmux/server.js';
import type {Tmux} from '../tmux/tmux.js';

/** What telling of a lost job takes (a command's context has it). */
export interface LostDeps {
  env: Record<string, string | undefined>;
  clock: Clock;
  tmux(spec: ServerSpec): Tmux;
}

import {notifyPreviewOf} from '../notify/config.js';
import type {Tell} from '../notify/tell.js';
import {identify, signalProcess} from '../process/identity.js';
import {TmuxCommandError} from '../tmux/runner.js';
import {type ShownState, shownState, workerOf} from './liveness.js';
import type {JobRecord} from './record.js';
import {isTerminal} from './states.js';
import type {JobHandle, JobStore} from './store.js';

/** The marker that a lost job's person was told (at most once, whoever noticed first). */
const LOST_TOLD = 'lost-told';

/** Claim the telling of a lost job (true once, for the first who asks). */
async function claimTelling(dir: string): Promise<boolean> {
  try {
    await writeFile(join(dir, LOST_TOLD), `${thisProcess.pid}\n`, {flag: 'wx', mode: FILE_MODE});
    return true;
  } catch {
    return false;
  }
}

/** A worker's teller whose `lost` goes out once whoever finds the job lost first (the
 * worker, as its server goes; a command that finds the server gone). */
export function tellingLostOnce(dir: string, tell: Tell): Tell {
  return async (change) => {
    if (change.event === 'lost' && !(await claimTelling(dir))) return;
    await tell(change);
  };
}

/**
 * Tell a lost job's `--notify` sinks that it never finished (its worker is gone, or its tmux
 * server): done by the first nudge command that finds it so (`jobs`, `status`), once — the
 * marker is created exclusively, and a second command finds it there. Never throws.
 */
export async function tellLost(
  handle: JobHandle,
  record: JobRecord,
  ctx: LostDeps,
  reason = `Its process ${record.pid ?? '?'} is gone; the job never finished.`,
): Promise<void> {
  try {
    const sinks = await sinksOf(handle);
    if (sinks.length === 0 || !(await claimTelling(handle.dir))) return;
    // The sinks' senders (a command's runner among them) load only when one is told.
    const {teller} = await import('../notify/tell.js');
    const tell = teller({
      sinks,
      job: {id: record.id, pane: record.pane, preview: record.preview},
      previewOut: notifyPreviewOf(ctx.env),
      deps: {
        clock: ctx.clock,
        tmux: ctx.tmux({kind: 'socket-path', path: record.socketPath}),
        platform: thisProcess.platform,
        env: ctx.env,
      },
      record: (about, told) =>
        handle.appendEvent(told.ok ? 'notify-sent' : 'notify-failed', {about, ...told}),
    });
    await tell({event: 'lost', state: 'lost', reason});
  } catch (error) {
    // The request unreadable: nothing more to do.
    void describeError(error);
  }
}

/** A tmux server a job was made on: its socket and its pid then. */
interface ServerOfJob {
  socketPath: string;
  serverPid: number;
}

/** Whether the server is gone: its process is, or its socket has no server or another one
 * (restarted: pane ids start again at %0). */
export async function serverGone(
  server: ServerOfJob,
  ctx: Pick<LostDeps, 'tmux'>,
): Promise<boolean> {
  if (identify({pid: server.serverPid}) === 'gone') return true;
  try {
    const now = await ctx.tmux({kind: 'socket-path', path: server.socketPath}).describePane('');
    return now !== undefined && now.serverPid !== server.serverPid;
  } catch (error) {
    return error instanceof TmuxCommandError && error.kind === 'no-server';
  }
}

/**
 * End every job that has not ended and whose tmux server is gone (killed, a reboot): each is
 * recorded `lost` with the reason at once, its worker (if still there) is stopped — its own
 * ending comes after this one and is not recorded — and its sinks are told, once. Run by the
 * commands that look at jobs (`jobs`, `status`, `top`, `queue`, `doctor`, `recover`). Returns
 * the records ended. A server that cannot be asked about is left alone.
 */
export async function endJobsOfGoneServers(
  store: JobStore,
  ctx: LostDeps,
  records?: readonly JobRecord[],
): Promise<JobRecord[]> {
  const all = records ?? (await store.list());
  const live = all.filter((r) => !isTerminal(r.state));
  const gone = new Map<string, boolean>();
  const ended: JobRecord[] = [];
  for (const r of live) {
    const key = `${r.socketPath}\0${r.serverPid}`;
    if (!gone.has(key)) gone.set(key, await serverGone(r, ctx).catch(() => false));
    if (!gone.get(key)) continue;
    const handle = await store.open(r.id);
    const reason = `The tmux server at ${r.socketPath} (pid ${r.serverPid}) is gone (killed, or the machine restarted); the job ended with it. nudge recover brings back what can be.`;
    const wrote = await handle.end('lost', {reason, notified: false, by: 'nudge'});
    if (!wrote.wrote) continue;
    if (r.pid !== undefined)
      signalProcess(workerOf({...r, pid: r.pid}), 'SIGTERM', r.mode === 'detached');
    ended.push(wrote.record);
    await tellLost(handle, wrote.record, ctx, reason);
  }
  return ended;
}

async function sinksOf(handle: JobHandle): Promise<string[]> {
  const request = JSON.parse(await readFile(handle.requestPath, 'utf8')) as {
    options?: {notifySinks?: unknown};
  };
  const sinks = request.options?.notifySinks;
  return Array.isArray(sinks) ? sinks.filter((s): s is string => typeof s === 'string') : [];
}

/**
 * A job's record and the state to show for it, `record` as read before (else read now). Its
 * process is found gone only after its record was read, so a record that looks lost is read
 * again: a worker that wrote its ending and exited between the two is no lost job (a CI run
 * of `submit --wait` saw one so; `status` would have told a person of it).
 */
export async function believedRecord(
  handle: JobHandle,
  nowMs: number,
  record?: JobRecord,
): Promise<{record: JobRecord; shown: ShownState}> {
  const first = record ?? (await handle.readState());
  const shown = shownState(first, nowMs);
  if (shown !== 'lost' || isTerminal(first.state)) return {record: first, shown};
  const again = await handle.readState();
  return {record: again, shown: shownState(again, nowMs)};
}
