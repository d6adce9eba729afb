import type {Clock} from '../base/clock.js';
import {formatDuration} from '../base/durations.js';
import {ensureStateDir, resolveStateDir} from '../base/paths.js';
import {resolveJobOptions, validateText} from '../job-options/resolve.js';
import type {SubmitOptions} from '../job-options/table.js';
import {enqueueJob, madeBefore} from '../jobs/enqueue.js';
import type {JobOutcome} from '../jobs/events.js';
import {followToEnd} from '../jobs/follow.js';
import type {JobRecord} from '../jobs/record.js';
import {type JobRequest, newJobId, REQUEST_VERSION} from '../jobs/request.js';
import {JobStore} from '../jobs/store.js';
import {type AskerCaller, askerOf} from '../pane/asker.js';
import {askerPane} from '../pane/reach.js';
import {checkSubmitTarget} from '../pane/submit-target.js';
import {type Caller, reachablePane} from '../pane/target.js';
import type {Foreground} from '../process/foreground.js';
import type {ServerSpec} from '../tmux/server.js';
import type {PaneInfo, Tmux} from '../tmux/tmux.js';
import {loopCapOf, recentIds, refuseLoop} from './loop-cap.js';
import {checkMessageId, claimMessageId, textDigest} from './message-id.js';
import {textOfFile} from './text-file.js';

/** What submitting a job reads from its front end (a command's context has each). */
export interface SubmitContext extends Caller {
  cwd: string;
  signal: AbortSignal;
  readStdinBytes: (maxBytes: number) => Promise<Uint8Array>;
  clock: Clock;
  tmux: (spec: ServerSpec) => Tmux;
  foreground: Foreground;
  /** The worker script a detached job runs in. */
  workerEntry: string;
}

/** What `nudge submit` did: handed the job to a detached worker, or (--wait) followed it to
 * its end. */
export type SubmitResult = (
  | {
      kind: 'queued';
      job: string;
      pane: string;
      pid: number;
      log: string;
      /** The job's state now, where an earlier send made it (absent: queued). */
      state?: string;
    }
  | {
      kind: 'ran';
      job: string;
      pane: string;
      outcome: JobOutcome;
      /** When the job was made (ms since the epoch), where it was made by an earlier send. */
      since?: number;
    }
) & {
  /** A word for the person: the text takes more than a minute to type (slowTypingNote). */
  note?: string;
  /** The message id this send repeated (`--id`): the job is the first send's, nothing typed. */
  sentBefore?: string;
};

/**
 * `nudge submit` (and `nudge ask`'s prompt): the job's options decided (src/job-options/resolve.ts), its pane resolved and
 * checked (src/pane/submit-target.ts), then the job recorded and handed to a detached worker
 * (and with --wait followed to its end) — each layer's work in one go, in that order.
 */
export async function submitJob(given: SubmitOptions, ctx: SubmitContext): Promise<SubmitResult> {
  if (given.id !== undefined) checkMessageId(given.id);
  const o = given.textFile === undefined ? given : {...given, text: await textOfFile(given, ctx)};
  const options = resolveJobOptions(o, ctx.env);
  validateText(o.text);
  const {ifBusy} = options;
  const stateDir = resolveStateDir(ctx.env);
  // The pane first: a pane that is not there leaves nothing behind (the state directory's
  // check that follows takes microseconds).
  const {tmux, spec, info, target} = await reachablePane(o, ctx, '--pane');
  await ensureStateDir(stateDir, ctx.env);
  const busyNow = ifBusy === 'refuse' || ifBusy === 'now' ? ifBusy : undefined;
  const asks = {...options, notifyPane: o.notifyPane, busyNow};
  const notifyPane = await checkSubmitTarget(tmux, spec, info, asks, {...ctx, stateDir});
  const from = await submittedFrom(ctx, tmux, info);

  const store = new JobStore(stateDir);
  if (o.jobId !== undefined) {
    // Sent again (the answer was lost on the way): the job made the first time is the answer.
    const made = await madeBefore(store, o.jobId);
    if (made) return {kind: 'queued', job: o.jobId, ...made};
  }
  const now = ctx.clock.wall();
  const jobId = o.jobId ?? newJobId(now);
  const message = await newMessage(store, jobId, o, {info, from, stateDir}, ctx);
  if ('kind' in message) return message;
  const {release} = message;
  const request: JobRequest = {
    version: REQUEST_VERSION,
    jobId,
    createdAt: new Date(now).toISOString(),
    server: {socketPath: info.socketPath, pid: info.serverPid},
    pane: info.paneId,
    paneTarget: target,
    text: o.text,
    options: {...options, notifyPane: notifyPane ?? null},
  };
  // Always its own worker, in a session of its own: with --wait too, so a Ctrl-C in the
  // caller's terminal stops the waiting here and never the job (issue 65).
  const w = {store, info, from, entry: ctx.workerEntry, env: ctx.env};
  const {handle, pid} = await enqueueJob(request, w).catch(async (error: unknown) => {
    // No job was made: the id is free for the next send.
    await release();
    throw error;
  });
  const said = slowTypingNote(request);
  const note =
    said === undefined || (await takesAsPaste(tmux, info, request, {...ctx, stateDir}))
      ? {}
      : {note: said};
  if (!o.wait)
    return {
      kind: 'queued',
      job: request.jobId,
      pane: info.paneId,
      pid,
      log: handle.logPath,
      ...note,
    };
  const outcome = await followToEnd(handle, ctx);
  return {kind: 'ran', job: request.jobId, pane: info.paneId, outcome, ...note};
}

/**
 * Whether this send is a new message: under `--id`, its id claimed, or the first send's
 * answer where the same message was sent before (issue 66); a new one is refused where it
 * would carry on a loop between the caller's pane and the target's. `release` gives the id
 * back if the job is then never made.
 */
async function newMessage(
  store: JobStore,
  jobId: string,
  o: SubmitOptions,
  at: {info: PaneInfo; from: JobRecord['submittedFrom']; stateDir: string},
  ctx: SubmitContext,
): Promise<SubmitResult | {release: () => Promise<void>}> {
  const {info, from} = at;
  const claim =
    o.id === undefined
      ? undefined
      : await claimMessageId(
          at.stateDir,
          {
            id: o.id,
            job: jobId,
            server: info.socketPath,
            pane: info.paneId,
            text: textDigest(o.text),
          },
          {jobExists: async (job) => (await store.ids()).includes(job), ...ctx},
        );
  if (claim?.kind === 'sent') return sentBefore(store, claim.job, o, ctx);
  const release = claim?.kind === 'claimed' ? claim.release : async () => {};
  // A retry under its id is not a new message: only a new one can carry on a loop.
  if (from?.socketPath)
    await checkLoop(store, from, info, ctx).catch(async (error: unknown) => {
      await release();
      throw error;
    });
  return {release};
}

/** Refuse a message that would carry on a loop between the caller's pane and the target's
 * (src/submit/loop-cap.ts): only the jobs made within the window are read. */
async function checkLoop(
  store: JobStore,
  from: {socketPath: string; pane: string},
  info: PaneInfo,
  ctx: SubmitContext,
): Promise<void> {
  const cap = loopCapOf(ctx.env);
  const ids = recentIds(await store.ids(), ctx.clock.wall(), cap.windowMs);
  if (ids.length === 0) return;
  const records = await Promise.all(
    ids.map((id) =>
      store
        .open(id)
        .then((h) => h.readState())
        .catch(() => undefined),
    ),
  );
  const to = {socketPath: info.socketPath, pane: info.paneId};
  refuseLoop(
    records.filter((r) => r !== undefined),
    from,
    to,
    cap,
  );
}

/** A message sent before under the same id (`--id`): its job is the answer — where it is
 * now, or with --wait its end — and nothing is typed again. */
async function sentBefore(
  store: JobStore,
  job: string,
  o: SubmitOptions,
  ctx: SubmitContext,
): Promise<SubmitResult> {
  const again = {sentBefore: o.id ?? ''};
  const handle = await store.open(job);
  const record = await handle.readState();
  const {pane, state} = record;
  if (!o.wait)
    return {kind: 'queued', job, pane, pid: record.pid ?? 0, log: handle.logPath, state, ...again};
  const outcome = await followToEnd(handle, ctx);
  return {
    kind: 'ran',
    job,
    pane,
    outcome,
    since: Date.parse(record.createdAt),
    ...again,
  };
}

/** Typing this long is said when the job is handed over (a 64 KB text at the default pace
 * takes 22 minutes). */
const SLOW_TYPING_MS = 60_000;

/** The word on a text that takes more than a minute to type, key by key at its pace. */
export function slowTypingNote(
  r: Pick<JobRequest, 'jobId' | 'text' | 'options'>,
): string | undefined {
  const chars = [...r.text].length;
  const {typeDelayMs} = r.options;
  const ms = chars * typeDelayMs;
  if (ms <= SLOW_TYPING_MS) return undefined;
  return `job ${r.jobId} has ${chars} characters to type at --type-delay ${typeDelayMs}ms: about ${formatDuration(ms)} (--type-delay 0ms types each line at once; an agent takes a long text as one paste); nudge status ${r.jobId} shows how far it got.`;
}

/** Whether the pane's program, as the worker will recognise it, takes this text as one paste
 * (an agent whose profile has pasteOver): asked only of a text that would take over a minute
 * to type, so other submits do not look at the screen for it. */
async function takesAsPaste(
  tmux: Tmux,
  info: PaneInfo,
  request: JobRequest,
  deps: {foreground: Foreground; stateDir: string},
): Promise<boolean> {
  const [{readPaneFacts}, {paneMemory}, {isAgent}, {goesAsPaste}] = await Promise.all([
    import('../pane/busy.js'),
    import('../pane/memory.js'),
    import('../agents/profile.js'),
    import('../pane/deliver.js'),
  ]);
  const server = {socketPath: info.socketPath, serverPid: info.serverPid};
  const look = {tmux, foreground: deps.foreground, paneMemory: paneMemory(deps.stateDir, server)};
  const {profile} = await readPaneFacts(look, info, request.options.profile);
  return isAgent(profile) && goesAsPaste(profile, request.text);
}

/** The pane the caller runs in and its session, as the job records who submitted it (absent:
 * the person; a pane of another host says so): the pane its process tree proves on the
 * target's server, else the one its environment claims. */
export async function submittedFrom(
  caller: AskerCaller,
  tmux: Tmux,
  target: PaneInfo,
): Promise<JobRecord['submittedFrom']> {
  const asker = await askerOf(caller);
  if (asker.kind === 'remote') return {socketPath: '', pane: asker.from};
  if (asker.kind !== 'local') return undefined;
  return askerPane(asker, target, () => tmux);
}
