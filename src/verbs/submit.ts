import {NudgeError} from '../base/errors.js';
import {ensureStateDir, resolveStateDir} from '../base/paths.js';
import {Undo} from '../base/undo.js';
import {checkUntilFits} from '../detect/conditions.js';
import {resolveStall} from '../detect/stall-options.js';
import type {JobOutcome} from '../jobs/events.js';
import {resolveJobOptions, type SubmitOptions, validateText} from '../jobs/options.js';
import {configuredVia, givenIfBusy, ifBusyMeans, resolveIfBusy} from '../jobs/policies.js';
import type {JobRecord} from '../jobs/record.js';
import {
  JOB_ID_PATTERN,
  type JobOptions,
  type JobRequest,
  newJobId,
  REQUEST_VERSION,
} from '../jobs/request.js';
import {type JobHandle, JobStore} from '../jobs/store.js';
import {textOfFile} from '../jobs/text-file.js';
import {type PaneLock, paneLockFor} from '../locks/pane-lock.js';
import {notifyPreviewOf, resolveSinks} from '../notify/config.js';
import {askerOf} from '../pane/reach.js';
import {checkReach, ownPaneOrRefuse, paneRefOf, resolvePane} from '../pane/target.js';
import {launchWorker} from '../process/launch-worker.js';
import {resolveServerSpec} from '../tmux/server.js';
import type {PaneInfo, Tmux} from '../tmux/tmux.js';
import {visibleText} from '../tmux/view.js';
import type {CommandContext} from './context.js';

export type {SubmitOptions} from '../jobs/options.js';

/** What `nudge submit` did: handed the job to a detached worker, or (--wait) ran it. */
export type SubmitResult =
  | {kind: 'queued'; job: string; pane: string; pid: number; log: string}
  | {kind: 'ran'; job: string; pane: string; outcome: JobOutcome};

/**
 * `nudge submit`: validate everything, record the job, hand it to a detached worker (or run
 * it here with --wait).
 */
export async function submit(given: SubmitOptions, ctx: CommandContext): Promise<SubmitResult> {
  const o = given.textFile === undefined ? given : {...given, text: await textOfFile(given, ctx)};
  const {options, ifBusy} = jobOptionsOf(o, ctx.env);
  const spec = resolveServerSpec({socketName: o.socketName, socketPath: o.socketPath}, ctx.env);
  const stateDir = resolveStateDir(ctx.env);
  const tmux = ctx.tmux(spec);
  // tmux answers while the state directory is checked.
  const [{info, target}] = await Promise.all([
    resolvePane(tmux, spec, o.pane, ctx),
    ensureStateDir(stateDir, ctx.env),
  ]);
  await checkReach(tmux, info, ctx.env);
  await checkUntil(tmux, info, options);
  if (o.notifyPane !== undefined) {
    const notify = await resolvePane(tmux, spec, o.notifyPane, ctx, '--notify-pane');
    await checkReach(tmux, notify.info, ctx.env, '--notify-pane');
    if (notify.info.serverPid !== info.serverPid) {
      throw new NudgeError('bad-pane', '--notify-pane must be on the same tmux server as --pane.');
    }
    if (notify.info.paneId !== info.paneId) options.notifyPane = notify.info.paneId;
  }
  const lock = paneLockFor(stateDir, paneRefOf(info));
  if (ifBusy === 'refuse' || ifBusy === 'now')
    await checkBusy(ifBusy, {tmux, info, options, lock, stateDir, ctx});

  const store = new JobStore(stateDir);
  if (o.jobId !== undefined) {
    // Sent again (the answer was lost on the way): the job made the first time is the answer.
    const made = await madeBefore(store, o.jobId);
    if (made) return made;
  }
  const now = ctx.clock.now();
  const request: JobRequest = {
    version: REQUEST_VERSION,
    jobId: o.jobId ?? newJobId(now),
    createdAt: new Date(now).toISOString(),
    server: {socketPath: info.socketPath, pid: info.serverPid},
    pane: info.paneId,
    paneTarget: target,
    text: o.text,
    options,
  };
  const {handle, undo} = await recordJob(request, o.wait === true, {store, lock, tmux, info, ctx});
  if (!o.wait) {
    const worker = await launchWorker({
      entry: ctx.workerEntry,
      id: request.jobId,
      stateDir,
      logPath: handle.logPath,
      env: ctx.env,
      undo,
    });
    // Record the worker at once, so `status` can tell a dead worker (lost) and `cancel` can
    // reach it even before the worker writes anything. The worker is running by now and
    // records itself when it starts, so a failure here does not fail the submit.
    await handle.recordWorkerPid(worker).catch(() => {});
    const log = handle.logPath;
    return {kind: 'queued', job: request.jobId, pane: info.paneId, pid: worker.pid, log};
  }

  // Loaded only for --wait: the detached path must stay light (pino, proper-lockfile).
  const {executeJob} = await import('../jobs/execute.js');
  const transport = ctx.env.NUDGE_TRANSPORT;
  const outcome = await executeJob(request, {
    notifyPreview: notifyPreviewOf(ctx.env),
    stateDir,
    pid: ctx.pid,
    signal: ctx.signal,
    transport: transport === 'spawn' || transport === 'control' ? transport : 'auto',
    env: ctx.env,
  });
  return {kind: 'ran', job: request.jobId, pane: info.paneId, outcome};
}

/** The job's options from what was given, with config.toml's defaults (its sinks, its via,
 * its busy policy, its stall watchdog), and the busy policy decided. */
function jobOptionsOf(o: SubmitOptions, env: CommandContext['env']) {
  validateText(o.text);
  const options = resolveJobOptions(o);
  options.notifySinks = resolveSinks(o.notify, env);
  if (o.via === undefined && options.notify) options.via = configuredVia(env) ?? 'auto';
  const ifBusy = resolveIfBusy(givenIfBusy(o), env);
  options.ifBusy = ifBusy;
  if (ifBusy === 'now' && o.stall !== undefined)
    throw new NudgeError(
      'bad-usage',
      '--stall watches the wait for the work to be done, and --if-busy now does not wait; give one of them.',
    );
  // A text handed to the agent's door is not waited on: config.toml's stall is not for it.
  options.stall =
    ifBusy === 'now'
      ? null
      : resolveStall(o, env, 'submit', {intervalMs: options.intervalMs, continues: true});
  return {options, ifBusy};
}

/** The "done" condition fits the pane's program (a prompt can be recognised at all), and a
 * named profile exists: bad input now, not a failed job later. */
async function checkUntil(tmux: Tmux, info: PaneInfo, options: JobOptions): Promise<void> {
  // The profiles are data read on first use: only these branches of submit need them.
  if (options.until.kind === 'prompt') {
    // Which program is it? The worker decides again when it types.
    const screen = visibleText(await tmux.view(info.paneId, 0));
    const {chooseProfile} = await import('../agents/registry.js');
    const {profile} = chooseProfile(options.profile, info.currentCommand, screen);
    checkUntilFits(options.until, info, profile);
    return;
  }
  if (options.profile !== 'auto') {
    const {profileNamed, unknownProfile} = await import('../agents/registry.js');
    if (!profileNamed(options.profile)) throw unknownProfile(options.profile, '--profile');
  }
  checkUntilFits(options.until, info);
}

/** `--if-busy refuse` (a busy pane is refused, nothing queued) and `--if-busy now` (the
 * agent's door must take it). */
async function checkBusy(
  ifBusy: 'refuse' | 'now',
  {tmux, info, options, lock, stateDir, ctx}: SubmitSteps & {options: JobOptions; stateDir: string},
): Promise<void> {
  // Loaded only for these policies: the profiles and the pane's look.
  const [{busyWith, doorsOf}, {paneMemory}] = await Promise.all([
    import('../pane/busy.js'),
    import('../pane/memory.js'),
  ]);
  const server = {socketPath: info.socketPath, serverPid: info.serverPid};
  const deps = {tmux, foreground: ctx.foreground, paneMemory: paneMemory(stateDir, server)};
  if (ifBusy === 'now') {
    if (options.via === 'keys')
      throw new NudgeError('bad-usage', '--if-busy now goes through a door; --via keys types.');
    const refused = await doorsOf(deps, info, options.profile);
    if (refused) throw new NudgeError('no-door', `${refused}; nothing was queued (--if-busy now).`);
    return;
  }
  const busy = await busyWith(deps, info, options.profile, await lock.liveEntries());
  if (busy)
    throw new NudgeError(
      'pane-busy',
      `Pane ${info.paneId} is busy — ${busy}; nothing was queued (--if-busy refuse).`,
    );
}

/** What the steps of a submit share. */
interface SubmitSteps {
  tmux: Tmux;
  info: PaneInfo;
  lock: PaneLock;
  ctx: CommandContext;
}

/**
 * Record the job and take its place in the pane's queue (so jobs run in submission order even
 * if their workers start in another order), both at once. Until a worker runs, a failure
 * leaves no job behind (it would only show as "lost" later): the user gets one sentence and
 * exit 1, and nothing was typed. A job for the agent's door now (--if-busy now) takes no place
 * in the queue: it never takes the pane's lock, and would hold the jobs behind it back.
 */
async function recordJob(
  request: JobRequest,
  foreground: boolean,
  {store, lock, tmux, info, ctx}: SubmitSteps & {store: JobStore},
): Promise<{handle: JobHandle; undo: Undo}> {
  const from = submittedFrom(ctx.env, tmux, info);
  const [created, queued] = await Promise.allSettled([
    store.create(request, foreground ? 'foreground' : 'detached', await from),
    ifBusyMeans(request.options.ifBusy).door ? Promise.resolve() : lock.enqueue(request.jobId),
  ]);
  // Taken back in reverse if a later step fails: the queue entry, then the record.
  const undo = new Undo();
  if (created.status === 'fulfilled') undo.add(() => store.discard(created.value));
  undo.add(() => lock.dequeue(request.jobId));
  if (created.status === 'rejected' || queued.status === 'rejected') {
    await undo.run();
    throw created.status === 'rejected' ? created.reason : (queued as PromiseRejectedResult).reason;
  }
  return {handle: created.value, undo};
}

/** The job `jobId` names, when a submit with that id was made before (a relay's delivery sent
 * twice): answered as queued, with nothing new started. */
async function madeBefore(store: JobStore, jobId: string): Promise<SubmitResult | undefined> {
  if (!JOB_ID_PATTERN.test(jobId))
    throw new NudgeError('bad-job', `${JSON.stringify(jobId)} is not a job id.`);
  if (!(await store.ids()).includes(jobId)) return undefined;
  const handle = await store.open(jobId);
  const record = await handle.readState();
  return {kind: 'queued', job: jobId, pane: record.pane, pid: record.pid ?? 0, log: handle.logPath};
}

/** For `--notify-pane self` on a job of another host: this machine's pane nudge runs in,
 * proven (src/pane/own-pane.ts); a claimed pane it cannot prove is refused. */
export async function ownPaneHere(
  host: string | undefined,
  notifyPane: string | undefined,
  ctx: CommandContext,
): Promise<string | undefined> {
  if (host === undefined || notifyPane !== 'self') return undefined;
  const spec = resolveServerSpec({}, ctx.env);
  const lead = '--notify-pane self names the pane nudge runs in';
  return ownPaneOrRefuse(ctx.tmux(spec), spec, ctx, lead, 'name it as local:%N');
}

/** The pane the caller runs in and its session, as the job records who submitted it (absent:
 * the person; a pane of another host says so). The session is the target's when the caller
 * types into its own pane, else read from its server (absent when that is another). */
async function submittedFrom(
  env: Record<string, string | undefined>,
  tmux: Tmux,
  target: PaneInfo,
): Promise<JobRecord['submittedFrom']> {
  const asker = askerOf(env);
  if (asker.kind === 'remote') return {socketPath: '', pane: asker.from};
  if (asker.kind !== 'pane') return undefined;
  const from = {socketPath: asker.socketPath, pane: asker.pane};
  if (asker.pane === target.paneId) return {...from, sessionId: target.sessionId};
  if (asker.socketPath !== target.socketPath) return from;
  const sessionId = (await tmux.describePane(asker.pane).catch(() => undefined))?.sessionId;
  return sessionId ? {...from, sessionId} : from;
}
