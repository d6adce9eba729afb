import {existsSync, statSync} from 'node:fs';
import {readdir, readFile, writeFile} from 'node:fs/promises';
import {join} from 'node:path';
import {profileNamed} from '../agents/registry.js';
import {FILE_MODE} from '../base/paths.js';
import {type LostDeps, serverGone} from '../jobs/lost.js';
import type {JobRecord, RunRecord, SubmitRecord} from '../jobs/record.js';
import {validateRequest} from '../jobs/request-check.js';
import {isTerminal} from '../jobs/states.js';
import {type JobStore, RECOVERED} from '../jobs/store.js';
import {readScheduledJob, type ScheduledJob} from '../setup/schedule-store.js';
import {type RunRequest, validateRunRequest} from './request.js';

/**
 * What `nudge recover` can bring back after a tmux server went away (killed, a reboot), read
 * from the state alone: the runs of the last server on each socket with their agent, folder,
 * worktree and session; the jobs that were queued for a run's pane and never typed; the
 * schedules whose marked pane was a run's. Each thing is listed with what will be done, or
 * why it cannot be. Nothing here changes anything but the "recovered" markers
 * (claimRecovery).
 */

/** A tmux server nudge worked with: its socket, and its pid then. */
export interface ServerGeneration {
  socketPath: string;
  serverPid: number;
}

export interface PlannedRun {
  job: string;
  agent: string | null;
  cwd: string;
  worktree?: string | undefined;
  session?: string | undefined;
  /** The pane it had, on the server that is gone. */
  pane: string;
  socketPath: string;
  /** `resume`: a new session and pane, the agent started again into its conversation. */
  action: 'resume' | 'leave';
  why?: string | undefined;
  /** After: the run that resumed it and its pane. */
  newJob?: string | undefined;
  newPane?: string | undefined;
}

export interface PlannedJob {
  job: string;
  pane: string;
  preview: string;
  /** `retarget`: submitted again to the recovered pane of the run whose pane it was for. */
  action: 'retarget' | 'leave';
  why?: string | undefined;
  /** The run whose pane it was queued for. */
  run?: string | undefined;
  newJob?: string | undefined;
  newPane?: string | undefined;
}

export interface PlannedSchedule {
  name: string;
  pane?: string | undefined;
  /** `remark`: its mark put on the recovered pane of the run whose pane it typed into. */
  action: 'remark' | 'leave';
  why?: string | undefined;
  run?: string | undefined;
  newPane?: string | undefined;
}

/** What recover found, and (after it ran) what it did. */
export interface RecoveryPlan {
  /** The servers that are gone, whose things are listed. */
  servers: ServerGeneration[];
  runs: PlannedRun[];
  jobs: PlannedJob[];
  schedules: PlannedSchedule[];
}

/** Claim the recovery of a job (true once: a second recover, or one running at the same time,
 * leaves it). */
export async function claimRecovery(dir: string, newJob: string): Promise<boolean> {
  try {
    await writeFile(join(dir, RECOVERED), `${newJob}\n`, {flag: 'wx', mode: FILE_MODE});
    return true;
  } catch {
    return false;
  }
}

/** What planning reads of a run: its record, request and whether it was recovered. */
export interface RunFacts {
  record: RunRecord;
  /** Ended `cancelled` by a signal no person sent through nudge (a shutdown): as lost. */
  stoppedFromOutside: boolean;
  request: RunRequest | undefined;
  recoveredAs: string | undefined;
}

/** What planning reads of a submit's job. */
export interface JobFacts {
  record: SubmitRecord;
  stoppedFromOutside: boolean;
  typed: boolean;
  recoveredAs: string | undefined;
}

/** Everything the plan is made from. */
export interface RecoveryFacts {
  gone: ServerGeneration[];
  runs: RunFacts[];
  jobs: JobFacts[];
  schedules: ScheduledJob[];
  /** Whether a folder is there. */
  folderExists: (path: string) => boolean;
  /** Whether a profile has a resume option (undefined: no such profile). */
  resumable: (agent: string) => boolean | undefined;
}

const on = (g: ServerGeneration, r: {socketPath: string; serverPid: number}) =>
  r.socketPath === g.socketPath && r.serverPid === g.serverPid;

/** Why a run of a server that went away is not resumed (undefined: it is). */
function whyNotResumed(
  {record, request, stoppedFromOutside}: RunFacts,
  f: RecoveryFacts,
): string | undefined {
  const o = request?.options;
  return !o
    ? 'its request cannot be read'
    : record.state === 'cancelled' && !stoppedFromOutside
      ? 'a person cancelled it'
      : o.close
        ? 'its pane was closed when it ended (--close)'
        : o.agent === null
          ? 'a command run: nudge does not run a command again on its own (nudge run it again)'
          : f.resumable(o.agent) === undefined
            ? `no profile is named ${o.agent} now`
            : !f.resumable(o.agent)
              ? `the ${o.agent} profile has no resume option`
              : record.session === undefined
                ? `no session id of ${o.agent} was recorded for it, so its conversation cannot be named`
                : !f.folderExists(o.cwd)
                  ? `its folder ${o.cwd} is gone`
                  : undefined;
}

/** What becomes of a schedule of a server that went away: marked again on its pane's run that
 * comes back, or left with why. */
function plannedSchedule(
  s: ScheduledJob,
  g: ServerGeneration,
  resumed: ReadonlyMap<string, PlannedRun>,
): PlannedSchedule {
  const m = s.marked;
  if (!m || m.serverPid !== g.serverPid)
    return {
      name: s.name,
      action: 'leave',
      why: 'its pane is not known (scheduled before nudge kept it): run nudge schedule again from the pane it is for',
    };
  const run = resumed.get(m.pane);
  const noticeElsewhere = m.notice !== undefined && m.notice !== m.pane;
  const why = !run
    ? `its pane ${m.pane} was not a run's that comes back: run nudge schedule again from the pane it is for`
    : noticeElsewhere
      ? `its notice went to another pane (${m.notice}), which does not come back: run nudge schedule again`
      : undefined;
  return why
    ? {name: s.name, pane: m.pane, action: 'leave', why}
    : {name: s.name, pane: m.pane, action: 'remark', run: run?.job};
}

/** The plan: pure. */
export function planRecovery(f: RecoveryFacts): RecoveryPlan {
  const runs: PlannedRun[] = [];
  const jobs: PlannedJob[] = [];
  const schedules: PlannedSchedule[] = [];
  const resumed = new Map<string, PlannedRun>();
  for (const g of f.gone) {
    for (const r of f.runs.filter((r) => on(g, r.record))) {
      const {record, request, recoveredAs} = r;
      if (recoveredAs !== undefined) continue;
      const o = request?.options;
      const base = {
        job: record.id,
        agent: o?.agent ?? null,
        cwd: o?.cwd ?? '',
        worktree: o?.worktree?.path,
        session: record.session?.id,
        pane: record.pane,
        socketPath: record.socketPath,
      };
      const why = whyNotResumed(r, f);
      const planned: PlannedRun = {
        ...base,
        action: why ? 'leave' : 'resume',
        ...(why ? {why} : {}),
      };
      runs.push(planned);
      if (!why) resumed.set(record.pane, planned);
    }
    for (const {record, typed, recoveredAs, stoppedFromOutside} of f.jobs.filter((j) =>
      on(g, j.record),
    )) {
      // Not ended yet: its server is gone, so it is lost (recover records it so first; a dry
      // run only says so). Stopped by a shutdown's signal: as lost too.
      const lost =
        record.state === 'lost' ||
        !isTerminal(record.state) ||
        (record.state === 'cancelled' && stoppedFromOutside);
      if (recoveredAs !== undefined || !lost) continue;
      const run = resumed.get(record.pane);
      const base = {job: record.id, pane: record.pane, preview: record.preview};
      const why = typed
        ? 'it was typed into the old pane; its work went with the server'
        : !run
          ? `its pane ${record.pane} was not a run's that comes back: no new pane is known to be it (a pane that merely has the old id is not)`
          : undefined;
      jobs.push(
        why ? {...base, action: 'leave', why} : {...base, action: 'retarget', run: run?.job},
      );
    }
    for (const s of f.schedules.filter((s) => s.socket === g.socketPath))
      schedules.push(plannedSchedule(s, g, resumed));
  }
  return {servers: f.gone, runs, jobs, schedules};
}

/**
 * The servers to recover from: for each socket nudge worked with, the last server there (the
 * newest job's or schedule's), when it is gone. An older server of a socket is not: what ran
 * there was over before the last one started.
 */
export async function goneServers(
  records: readonly JobRecord[],
  schedules: readonly ScheduledJob[],
  ctx: Pick<LostDeps, 'tmux'>,
): Promise<ServerGeneration[]> {
  const last = new Map<string, {serverPid: number; at: string}>();
  for (const r of records) {
    const seen = last.get(r.socketPath);
    if (!seen || r.createdAt > seen.at)
      last.set(r.socketPath, {serverPid: r.serverPid, at: r.createdAt});
  }
  for (const s of schedules)
    if (s.marked && !last.has(s.socket))
      last.set(s.socket, {serverPid: s.marked.serverPid, at: ''});
  const gone: ServerGeneration[] = [];
  for (const [socketPath, {serverPid}] of last)
    if (await serverGone({socketPath, serverPid}, ctx).catch(() => false))
      gone.push({socketPath, serverPid});
  return gone;
}

/** Read what the plan is made from: the store's runs and jobs of the gone servers, the
 * schedules. */
export async function recoveryFacts(
  store: JobStore,
  stateDir: string,
  ctx: Pick<LostDeps, 'tmux'>,
): Promise<RecoveryFacts> {
  const records = await store.list();
  const schedules = await listSchedules(stateDir);
  const gone = await goneServers(records, schedules, ctx);
  const ofGone = records.filter((r) => gone.some((g) => on(g, r)));
  const runs: RunFacts[] = [];
  const jobs: JobFacts[] = [];
  for (const record of ofGone) {
    const dir = join(store.jobsDir, record.id);
    const recoveredAs = await readFile(join(dir, RECOVERED), 'utf8').then(
      (t) => t.trim(),
      () => undefined,
    );
    const stoppedFromOutside =
      record.state === 'cancelled' && !(await (await store.open(record.id)).cancelledByPerson());
    if (record.kind === 'run') {
      const request = await readFile(join(dir, 'request.json'), 'utf8')
        .then((t) => validateRunRequest(JSON.parse(t)))
        .catch(() => undefined);
      const value = request?.ok ? request.value : undefined;
      runs.push({record, request: value, recoveredAs, stoppedFromOutside});
    } else {
      const events = await (await store.open(record.id)).readEvents().catch(() => []);
      const typed = events.some((e) => e.event === 'typed');
      jobs.push({record, typed, recoveredAs, stoppedFromOutside});
    }
  }
  return {
    gone,
    runs,
    jobs,
    schedules: schedules.filter((s) => gone.some((g) => g.socketPath === s.socket)),
    folderExists: (path) => existsSync(path) && statSync(path).isDirectory(),
    resumable: (agent) => {
      const p = profileNamed(agent);
      return p === undefined ? undefined : p.resume !== undefined;
    },
  };
}

/** Every schedule's file (those that cannot be read are left out). */
export async function listSchedules(stateDir: string): Promise<ScheduledJob[]> {
  const names = await readdir(join(stateDir, 'schedule')).catch(() => [] as string[]);
  const out: ScheduledJob[] = [];
  for (const file of names.filter((n) => n.endsWith('.json'))) {
    const job = await readScheduledJob(stateDir, file.slice(0, -'.json'.length)).catch(
      () => undefined,
    );
    if (job) out.push(job);
  }
  return out;
}

/** A job's request read back for submitting it again (undefined when it does not validate). */
export async function readJobRequest(store: JobStore, id: string) {
  const text = await readFile(join(store.jobsDir, id, 'request.json'), 'utf8').catch(() => '');
  try {
    const checked = validateRequest(JSON.parse(text));
    return checked.ok ? checked.value : undefined;
  } catch {
    return undefined;
  }
}

/** From inside a pane (an agent's tool, `nudge mcp --allow-exec`) only the runs of its own
 * server's socket come back (src/pane/reach.ts): the others, and the jobs that wait for them,
 * are left, saying why. */
export function boundToServer(
  plan: Pick<RecoveryPlan, 'runs' | 'jobs'>,
  asker: {socketPath: string; pane: string},
): void {
  for (const run of plan.runs)
    if (run.action === 'resume' && run.socketPath !== asker.socketPath)
      Object.assign(run, {
        action: 'leave',
        why: `it ran on another tmux server (${run.socketPath}) than the pane nudge runs in (${asker.pane}); recover it from outside tmux or from that server`,
      });
  const kept = new Set(plan.runs.filter((r) => r.action === 'resume').map((r) => r.job));
  for (const job of plan.jobs)
    if (job.action === 'retarget' && !kept.has(job.run as string))
      Object.assign(job, {action: 'leave', why: 'its run is not brought back from here'});
}
