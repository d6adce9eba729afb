import {readFile} from 'node:fs/promises';
import {NudgeError} from '../base/errors.js';
import type {OptionsOf} from '../base/option-table.js';
import {ensureStateDir, resolveStateDir} from '../base/paths.js';
import {endJobsOfGoneServers} from '../jobs/lost.js';
import {type JobRequest, newJobId} from '../jobs/request.js';
import {isTerminal} from '../jobs/states.js';
import {JobStore} from '../jobs/store.js';
import {paneLockFor} from '../locks/pane-lock.js';
import {askerOf, insideAnyPane} from '../pane/asker.js';
import {isTmuxServer} from '../pane/proof.js';
import {type LocalAsker, whyRemoteRefused} from '../pane/reach.js';
import {paneRefOf} from '../pane/target.js';
import {launchWorker} from '../process/launch-worker.js';
import {
  boundToServer,
  claimRecovery,
  type PlannedRun,
  planRecovery,
  type RecoveryPlan,
  readJobRequest,
  recoveryFacts,
} from '../runs/recovery.js';
import {RUN_REQUEST_VERSION, type RunRequest, validateRunRequest} from '../runs/request.js';
import {readScheduledJob, scheduleMarks, writeScheduledJob} from '../setup/schedule-store.js';
import type {ServerSpec} from '../tmux/server.js';
import type {CommandContext} from './context.js';
import type {RECOVER_OPTIONS} from './options/recover.js';

export type RecoverOptions = OptionsOf<typeof RECOVER_OPTIONS>;

/** What `nudge recover` found and did. */
export interface RecoverResult extends RecoveryPlan {
  dryRun: boolean;
  /** The jobs that ended `lost` now, their server found gone. */
  endedLost: string[];
}

/** How long a resumed agent may take to show its composer before its jobs are left. */
const AGENT_BACK_MS = 180_000;
const AGENT_BACK_POLL_MS = 500;

/**
 * `nudge recover [--dry-run]`: after a reboot or a tmux server that went away, bring back what
 * the state says can be — each run's agent in a new session and pane, started again into its
 * conversation (its profile's resume option and the session id recorded when it started);
 * the jobs that were queued for such a run's pane, submitted again to its new pane (once
 * the agent is back); the schedules whose marked pane was such a run's, marked again there.
 * What cannot be brought back is listed with the reason. `--dry-run` only shows the plan.
 */
export async function recover(o: RecoverOptions, ctx: CommandContext): Promise<RecoverResult> {
  const asker = await askerOf(ctx);
  const why = asker.kind === 'remote' ? whyRemoteRefused(asker) : undefined;
  if (why !== undefined) throw new NudgeError('out-of-reach', `Nothing here is recovered: ${why}.`);
  const stateDir = resolveStateDir(ctx.env);
  const store = new JobStore(stateDir);
  const endedLost = o.dryRun ? [] : (await endJobsOfGoneServers(store, ctx)).map((r) => r.id);
  const plan = planRecovery(await recoveryFacts(store, stateDir, ctx));
  // From inside a pane (an agent's tool, nudge mcp --allow-exec): its own server's runs only.
  if (asker.kind === 'local' && insideAnyPane(asker)) boundToServer(plan, askerServer(asker));
  if (o.dryRun) return {...plan, dryRun: true, endedLost};
  await ensureStateDir(stateDir, ctx.env);
  for (const run of plan.runs.filter((r) => r.action === 'resume')) {
    await resumeRun(run, store, stateDir, ctx).catch((error: unknown) => {
      run.action = 'leave';
      run.why = `it could not be started again: ${error instanceof Error ? error.message : String(error)}`;
    });
  }
  const back = new Map<string, PlannedRun>();
  for (const run of plan.runs.filter((r) => r.newJob !== undefined)) {
    const ready = await agentBack(store, run.newJob as string, ctx);
    if (ready === true) back.set(run.job, run);
    else {
      for (const j of plan.jobs.filter((j) => j.run === run.job && j.action === 'retarget')) {
        j.action = 'leave';
        j.why = `the resumed run ${run.newJob} ${ready}, so it was not typed there`;
      }
    }
  }
  for (const job of plan.jobs.filter((j) => j.action === 'retarget')) {
    const run = back.get(job.run as string);
    if (!run) continue;
    await retargetJob(job.job, run, store, stateDir, ctx).then(
      (newJob) => {
        if (newJob) Object.assign(job, {newJob, newPane: run.newPane});
        else Object.assign(job, {action: 'leave', why: 'it was recovered already'});
      },
      (error: unknown) => {
        job.action = 'leave';
        job.why = `it could not be submitted again: ${error instanceof Error ? error.message : String(error)}`;
      },
    );
  }
  for (const s of plan.schedules.filter((s) => s.action === 'remark')) {
    const run = plan.runs.find((r) => r.job === s.run);
    if (!run?.newPane) {
      Object.assign(s, {action: 'leave', why: 'its run did not come back'});
      continue;
    }
    await remark(s.name, run, stateDir, ctx);
    s.newPane = run.newPane;
  }
  return {...plan, dryRun: false, endedLost};
}

const socketSpec = (path: string): ServerSpec => ({kind: 'socket-path', path});

/** A new session and pane on the run's socket (the server starts with it if none runs), and a
 * run there that starts the agent again into its session. */
async function resumeRun(
  run: PlannedRun,
  store: JobStore,
  stateDir: string,
  ctx: CommandContext,
): Promise<void> {
  const old = await store.open(run.job);
  const request = validateRunRequest(JSON.parse(await readFile(old.requestPath, 'utf8')));
  if (!request.ok) throw new Error(request.error);
  const jobId = newJobId(ctx.clock.wall());
  if (!(await claimRecovery(old.dir, jobId))) throw new Error('another nudge recover took it');
  const tmux = ctx.tmux(socketSpec(run.socketPath));
  const name = `nudge-${run.agent}-${run.job.slice(-4)}-${jobId.slice(-4)}`;
  const pane = await tmux.openPane({kind: 'session', name}, run.cwd);
  const info = await tmux.describePane(pane);
  if (!info) throw new Error(`the new pane ${pane} is gone already`);
  const o = request.value.options;
  const resumed: RunRequest = {
    version: RUN_REQUEST_VERSION,
    kind: 'run',
    jobId,
    createdAt: new Date(ctx.clock.wall()).toISOString(),
    server: {socketPath: info.socketPath, pid: info.serverPid},
    pane,
    paneTarget: `new session ${name} (recovered run ${run.job})`,
    text: `resume ${run.session} (run ${run.job}: ${request.value.text.slice(0, 60)})`,
    options: {
      ...o,
      notifyPane: null,
      close: false,
      pr: false,
      resume: {session: run.session as string, of: run.job},
    },
  };
  const handle = await store.create(resumed, 'detached');
  await handle.appendEvent('provisioned', {
    pane,
    place: resumed.paneTarget,
    cwd: o.cwd,
    recovers: run.job,
    ...(o.worktree ? {worktree: o.worktree.path, branch: o.worktree.branch} : {}),
  });
  const worker = await launchWorker({
    entry: ctx.runWorkerEntry,
    id: jobId,
    stateDir,
    logPath: handle.logPath,
    env: ctx.env,
  });
  await handle.recordWorkerPid(worker).catch(() => {});
  run.newJob = jobId;
  run.newPane = pane;
}

/** Wait until the resumed run's agent is at its composer (true), or why not. */
async function agentBack(
  store: JobStore,
  job: string,
  ctx: CommandContext,
): Promise<true | string> {
  const handle = await store.open(job);
  const deadline = ctx.clock.now() + AGENT_BACK_MS;
  for (;;) {
    const events = await handle.readEvents().catch(() => []);
    if (events.some((e) => e.event === 'agent-ready')) return true;
    const record = await handle.readState();
    if (isTerminal(record.state)) return `ended ${record.state} (${record.reason ?? 'no reason'})`;
    if (ctx.clock.now() >= deadline) return 'did not show its agent ready within 3 minutes';
    await ctx.clock.sleep(AGENT_BACK_POLL_MS, ctx.signal);
  }
}

/** Submit a job again to the recovered pane, as it was asked (waiting until the agent there is
 * idle); undefined when it was recovered already. */
async function retargetJob(
  id: string,
  run: PlannedRun,
  store: JobStore,
  stateDir: string,
  ctx: CommandContext,
): Promise<string | undefined> {
  const old = await readJobRequest(store, id);
  if (!old) throw new Error('its request cannot be read');
  const tmux = ctx.tmux(socketSpec(run.socketPath));
  const info = await tmux.describePane(run.newPane as string);
  if (!info) throw new Error(`the recovered pane ${run.newPane} is gone`);
  // Its notice went to another pane: that one did not come back (a pane is a run's or not).
  if (old.options.notifyPane !== null && old.options.notifyPane !== old.pane)
    throw new Error(
      `its notice went to another pane (${old.options.notifyPane}), which did not come back`,
    );
  const jobId = newJobId(ctx.clock.wall());
  if (!(await claimRecovery((await store.open(id)).dir, jobId))) return undefined;
  const request: JobRequest = {
    ...old,
    jobId,
    createdAt: new Date(ctx.clock.wall()).toISOString(),
    server: {socketPath: info.socketPath, pid: info.serverPid},
    pane: info.paneId,
    paneTarget: `${info.paneId} (run ${run.job}'s pane ${old.pane}, recovered)`,
    options: {
      ...old.options,
      ifBusy: 'wait',
      notifyPane: null,
    },
  };
  const handle = await store.create(request, 'detached');
  await paneLockFor(stateDir, paneRefOf(info)).enqueue(jobId);
  await handle.appendEvent('recovered-from', {job: id, pane: old.pane});
  const worker = await launchWorker({
    entry: ctx.workerEntry,
    id: jobId,
    stateDir,
    logPath: handle.logPath,
    env: ctx.env,
  });
  await handle.recordWorkerPid(worker).catch(() => {});
  return jobId;
}

/** Mark the recovered pane with the schedule's mark, and keep the new pane in its file. */
async function remark(
  name: string,
  run: PlannedRun,
  stateDir: string,
  ctx: CommandContext,
): Promise<void> {
  const job = await readScheduledJob(stateDir, name);
  const tmux = ctx.tmux(socketSpec(run.socketPath));
  const info = await tmux.describePane(run.newPane as string);
  if (!info) return;
  const marks = scheduleMarks(name);
  await tmux.markPane(info.paneId, marks.pane, job.mark);
  if (job.noticeMarked) await tmux.markPane(info.paneId, marks.notice, job.mark);
  await writeScheduledJob(stateDir, {
    ...job,
    marked: {
      serverPid: info.serverPid,
      pane: info.paneId,
      ...(job.noticeMarked ? {notice: info.paneId} : {}),
    },
  });
}

/** The server a pane's `recover` may bring runs back on: the one its environment names, when
 * the tmux server its process tree passes is that one (or it passes none); else none (every
 * run is left, with the sentence that says to recover from outside tmux). */
function askerServer(asker: LocalAsker): {socketPath: string; pane: string} {
  const {claim} = asker;
  const server = asker.chain.find(isTmuxServer);
  if (claim === undefined || (server && claim.serverPid !== server.pid))
    return {socketPath: '', pane: `a pane of the tmux server with pid ${server?.pid ?? '?'}`};
  return {socketPath: claim.socketPath, pane: claim.pane};
}
