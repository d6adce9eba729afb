import type {Blocked} from '../agents/dialogs.js';
import {NudgeError} from '../base/errors.js';
import type {OptionsOf} from '../base/option-table.js';
import {resolveStateDir} from '../base/paths.js';
import type {IfBusy} from '../job-options/policies.js';
import {validateText} from '../job-options/resolve.js';
import {cancelJob} from '../jobs/cancel.js';
import {editHolder, holdForEdit, releaseEdit} from '../jobs/edit-hold.js';
import {jobsInReach} from '../jobs/job-reach.js';
import {shownState} from '../jobs/liveness.js';
import {endJobsOfGoneServers} from '../jobs/lost.js';
import type {JobRecord} from '../jobs/record.js';
import {isTerminal} from '../jobs/states.js';
import {JobStore} from '../jobs/store.js';
import {previewText} from '../jobs/stored-request.js';
import {paneLockFor} from '../locks/pane-lock.js';
import {inQueueOrder, type QueueEntry, type QueuePlace, ranksFor} from '../locks/pane-queue.js';
import {resolvePane} from '../pane/target.js';
import {processId} from '../process/identity.js';
import {resolveServerSpec} from '../tmux/server.js';
import type {CommandContext} from './context.js';
import type {QUEUE_EDIT_OPTIONS, QUEUE_MOVE_OPTIONS, QUEUE_OPTIONS} from './options/queue.js';

/** Who changed the queue, as the job's events name it. */
const BY = 'nudge queue';

/** `nudge queue [PANE]`: the pane named (else every pane with jobs). */
export type QueueOptions = OptionsOf<typeof QUEUE_OPTIONS> & {pane?: string | undefined};
export type QueueMoveOptions = OptionsOf<typeof QUEUE_MOVE_OPTIONS> & {job: string};
export type QueueDropOptions = {job: string; host?: string | undefined};
export type QueueEditOptions = OptionsOf<typeof QUEUE_EDIT_OPTIONS> & {job: string};

/** One job of a pane's queue, as the person sees it. */
export interface QueuedJob {
  id: string;
  /** 1 for the job at work on the pane (or the next to be), then in the order they will type. */
  place: number;
  /** The job holds the pane (typing, waiting for its work, telling): no longer movable. */
  atWork: boolean;
  state: JobRecord['state'];
  /** The program it waits behind, holding the pane (`waiting-for-program sleep`). */
  behindProgram?: string;
  /** A dialog it met is up: it goes on once the person answers it (shown `blocked`). */
  blocked?: Blocked;
  /** How it waits: in the queue (`queue`), or for the pane to be idle first (`wait`). */
  policy: IfBusy;
  /** Its text as it will be typed (as edited), on one line. */
  preview: string;
  ageMs: number;
}

/** A pane with jobs, in queue order. */
export interface PaneQueue {
  pane: string;
  socketPath: string;
  serverPid: number;
  jobs: QueuedJob[];
}

export interface QueueList {
  nowMs: number;
  panes: PaneQueue[];
}

/** What a change to the queue did: the pane's waiting jobs in their order now. */
export interface QueueChange {
  job: string;
  pane: string;
  action: 'moved' | 'dropped' | 'edited';
  /** The pane's jobs in order after the change (the one at work first). */
  order: string[];
}

/** `nudge queue [PANE]`: the jobs not yet ended, per pane, in the order they will type. */
export async function listQueue(o: QueueOptions, ctx: CommandContext): Promise<QueueList> {
  const stateDir = resolveStateDir(ctx.env);
  const store = new JobStore(stateDir);
  const nowMs = ctx.clock.wall();
  const only =
    o.pane === undefined ? undefined : await paneNamed(o.pane, o.socketName, o.socketPath, ctx);
  const groups = new Map<string, JobRecord[]>();
  // A queue on a server that is gone is no queue: its jobs end lost (nudge recover).
  await endJobsOfGoneServers(store, ctx);
  for (const record of await jobsInReach(await store.list(), ctx)) {
    if (record.kind !== 'submit') continue;
    const shown = shownState(record, nowMs);
    if (shown === 'lost' || isTerminal(shown)) continue;
    if (only && !samePane(record, only)) continue;
    const key = `${record.socketPath}\0${record.serverPid}\0${record.pane}`;
    groups.set(key, [...(groups.get(key) ?? []), record]);
  }
  const panes: PaneQueue[] = [];
  for (const records of groups.values()) {
    const first = records[0] as JobRecord;
    const entries = await paneLockFor(stateDir, first).entries();
    const ordered = inOrder(records, entries);
    const jobs: QueuedJob[] = [];
    for (const [i, record] of ordered.entries()) {
      const handle = await store.open(record.id);
      const [text, ifBusy] = await Promise.all([handle.readText(), handle.ifBusy()]);
      jobs.push({
        id: record.id,
        place: i + 1,
        atWork: record.state !== 'queued' || entries.some((e) => e.jobId === record.id && e.taken),
        state: record.state,
        ...(record.behindProgram ? {behindProgram: record.behindProgram} : {}),
        ...(record.blocked ? {blocked: record.blocked} : {}),
        policy: ifBusy,
        preview: previewText(text),
        ageMs: Math.max(0, nowMs - Date.parse(record.createdAt)),
      });
    }
    panes.push({
      pane: first.pane,
      socketPath: first.socketPath,
      serverPid: first.serverPid,
      jobs,
    });
  }
  return {nowMs, panes};
}

/** `nudge queue move JOB --first|--before JOB|--after JOB`. */
export async function moveInQueue(o: QueueMoveOptions, ctx: CommandContext): Promise<QueueChange> {
  const places = [o.first === true, o.before !== undefined, o.after !== undefined];
  if (places.filter(Boolean).length !== 1)
    throw new NudgeError(
      'bad-usage',
      'Say where it goes: one of --first, --before JOB, --after JOB.',
    );
  const {store, handle, record, lock} = await waitingJob(o.job, ctx);
  const anchor = o.before ?? o.after;
  const anchorId = anchor === undefined ? undefined : (await store.open(anchor)).id;
  const place: QueuePlace =
    anchorId === undefined
      ? {first: true}
      : o.before !== undefined
        ? {before: anchorId}
        : {after: anchorId};
  const order = await lock.withQueue(async (entries) => {
    const moved = ranksFor(entries, record.id, place);
    if (!moved.ok) throw new NudgeError('not-queued', moved.why);
    const changed = entries.map((e) => {
      const rank = moved.ranks.get(e.jobId);
      return rank === undefined ? e : {...e, rank};
    });
    for (const e of changed) if (moved.ranks.has(e.jobId)) await lock.writeEntry(e);
    const now = inQueueOrder(changed.filter((e) => !e.dropped)).map((e) => e.jobId);
    const waiting = inQueueOrder(changed.filter((e) => !e.dropped && !e.taken));
    const at = waiting.findIndex((e) => e.jobId === record.id) + 1;
    await handle.appendEvent('queue-moved', {pane: record.pane, place: at, by: BY});
    return now;
  });
  return {job: record.id, pane: record.pane, action: 'moved', order};
}

/** `nudge queue drop JOB`: out of the queue, never typed; the job ends `cancelled`. */
export async function dropFromQueue(
  o: QueueDropOptions,
  ctx: CommandContext,
): Promise<QueueChange> {
  const {record, handle, lock} = await waitingJob(o.job, ctx);
  const order = await lock.withQueue(async (entries) => {
    const own = entries.find((e) => e.jobId === record.id);
    notAtWork(own, record.id, await handle.readState());
    // Marked first (an entry made if its worker has none yet: the worker's claim keeps the
    // mark), so its worker, wherever it is, ends without typing when it next looks.
    const entry = own ?? {jobId: record.id, createdAt: new Date(ctx.clock.wall()).toISOString()};
    await lock.writeEntry({...entry, dropped: true});
    await handle.appendEvent('queue-dropped', {pane: record.pane, by: BY});
    return inQueueOrder(entries.filter((e) => !e.dropped && e.jobId !== record.id)).map(
      (e) => e.jobId,
    );
  });
  await cancelJob({job: record.id}, ctx);
  await lock.dequeue(record.id);
  return {job: record.id, pane: record.pane, action: 'dropped', order};
}

/** `nudge queue edit JOB --text TEXT`: the text it will type, changed while it waits. */
export async function editInQueue(o: QueueEditOptions, ctx: CommandContext): Promise<QueueChange> {
  if (o.text === undefined)
    throw new NudgeError('bad-usage', 'Give the new text with --text (the CLI opens $EDITOR).');
  validateText(o.text);
  const text = o.text;
  const {record, handle, lock} = await waitingJob(o.job, ctx);
  const order = await lock.withQueue(async (entries) => {
    const own = entries.find((e) => e.jobId === record.id);
    // A job held for this edit ($EDITOR, queuedText's hold) waits for it, lock taken or not.
    if ((await editHolder(handle.dir))?.pid !== ctx.pid)
      notAtWork(own, record.id, await handle.readState());
    await handle.writeText(text);
    await releaseEdit(handle.dir);
    await handle.appendEvent('queue-edited', {pane: record.pane, chars: [...text].length, by: BY});
    return inQueueOrder(entries.filter((e) => !e.dropped)).map((e) => e.jobId);
  });
  return {job: record.id, pane: record.pane, action: 'edited', order};
}

/** The current text of a waiting job (what `nudge queue edit` opens in $EDITOR). With `hold`,
 * the job is held for the edit: its worker does not type until this process writes the edit
 * (editInQueue) or ends, so an edit made while the job reached the pane is never lost. */
export async function queuedText(
  o: {job: string; hold?: boolean | undefined},
  ctx: CommandContext,
): Promise<string> {
  const {handle, record, lock} = await waitingJob(o.job, ctx);
  if (o.hold !== true) return handle.readText();
  return lock.withQueue(async (entries) => {
    notAtWork(
      entries.find((e) => e.jobId === record.id),
      record.id,
      await handle.readState(),
    );
    await holdForEdit(handle.dir, processId(ctx.pid));
    return handle.readText();
  });
}

async function waitingJob(job: string, ctx: CommandContext) {
  const stateDir = resolveStateDir(ctx.env);
  const store = new JobStore(stateDir);
  const handle = await store.open(job);
  const record = await handle.readState();
  const shown = shownState(record, ctx.clock.wall());
  if (record.kind !== 'submit' || shown === 'lost' || isTerminal(shown))
    throw new NudgeError(
      'not-queued',
      `Job ${record.id} is not waiting (it is ${shown}); nothing was changed.`,
    );
  return {store, handle, record, lock: paneLockFor(stateDir, record)};
}

/** Refuse a job that took the pane (or ended) meanwhile: its text is on its way. */
function notAtWork(entry: QueueEntry | undefined, id: string, record: JobRecord): void {
  if (entry?.dropped) throw new NudgeError('not-queued', `Job ${id} was dropped already.`);
  if (entry?.taken || record.state !== 'queued')
    throw new NudgeError(
      'not-queued',
      `Job ${id} has taken the pane already (${record.state}); nothing was changed — "nudge cancel ${id}" stops it.`,
    );
}

/** The records in the pane's queue order; a job without an entry (yet) after, by id. */
function inOrder(records: JobRecord[], entries: QueueEntry[]): JobRecord[] {
  const order = inQueueOrder(entries.filter((e) => !e.dropped)).map((e) => e.jobId);
  const rank = (r: JobRecord) => {
    const i = order.indexOf(r.id);
    return i < 0 ? order.length : i;
  };
  return [...records].sort((a, b) => rank(a) - rank(b) || (a.id < b.id ? -1 : 1));
}

async function paneNamed(
  pane: string,
  socketName: string | undefined,
  socketPath: string | undefined,
  ctx: CommandContext,
) {
  const spec = resolveServerSpec({socketName, socketPath}, ctx.env);
  const {info} = await resolvePane(ctx.tmux(spec), spec, pane, ctx);
  return {socketPath: info.socketPath, serverPid: info.serverPid, pane: info.paneId};
}

function samePane(r: JobRecord, p: {socketPath: string; serverPid: number; pane: string}): boolean {
  return r.socketPath === p.socketPath && r.serverPid === p.serverPid && r.pane === p.pane;
}
