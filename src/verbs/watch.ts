import {NudgeError} from '../base/errors.js';
import {ensureStateDir, resolveStateDir} from '../base/paths.js';
import {resolveStall} from '../detect/stall-options.js';
import {resolveSinks} from '../notify/config.js';
import {provenPane} from '../pane/own-pane.js';
import {checkReach, ownPane, resolvePane} from '../pane/target.js';
import {isRunning} from '../process/identity.js';
import {launchWorker} from '../process/launch-worker.js';
import {insideTmux, resolveServerSpec} from '../tmux/server.js';
import {visibleText} from '../tmux/view.js';
import {createAssessor} from '../watch/assessor.js';
import {assessRequest} from '../watch/cycle.js';
import {resolveWatcherOptions, WATCHER_OPTION_DEFAULTS} from '../watch/options.js';
import {
  appendCapped,
  reportsAhead,
  validateWatcherName,
  type WatcherOptions,
  type WatcherRecord,
} from '../watch/record.js';
import {WatcherStore} from '../watch/store.js';
import type {
  WatchClearResult,
  WatcherView,
  WatchListResult,
  WatchPauseResult,
  WatchReportResult,
  WatchStartOptions,
  WatchStartResult,
} from '../watch/types.js';
import {processOf, stopCycle, viewOf} from '../watch/view.js';
import type {CommandContext} from './context.js';

/**
 * `nudge watch start NAME --pane P --plan TEXT|@FILE [assessor options]`: create a watcher
 * (`watching`) or change one (`updated`; options not given keep their values). A paused
 * watcher becomes active again.
 */
export async function startWatcher(
  o: WatchStartOptions,
  ctx: CommandContext,
): Promise<WatchStartResult> {
  const name = validateWatcherName(o.name);
  const stateDir = resolveStateDir(ctx.env);
  const store = new WatcherStore(stateDir);
  const {plan, assessor, given} = await resolveWatcherOptions(o, ctx.cwd, ctx.env);
  await ensureStateDir(stateDir, ctx.env);
  const existing = await store.read(name);
  // The sinks: as given; a new watcher without --notify takes the config file's.
  if (o.notify !== undefined || !existing) given.notifySinks = resolveSinks(o.notify, ctx.env);
  // The stall watchdog: a new watcher without --stall takes config.toml's [watch] stall.
  if (!existing && given.stall === undefined)
    given.stall = resolveStall({}, ctx.env, 'watch', {intervalMs: 1_000, continues: false});
  // The pane: as given, else (new watcher) this pane, else the watcher's own.
  let paneFields: Pick<WatcherRecord, 'pane' | 'paneTarget' | 'socketPath' | 'serverPid'>;
  if (o.pane !== undefined || !existing) {
    const spec = resolveServerSpec({socketName: o.socketName, socketPath: o.socketPath}, ctx.env);
    const tmux = ctx.tmux(spec);
    const {info, target} = await resolvePane(tmux, spec, o.pane, ctx);
    await checkReach(tmux, info, ctx);
    paneFields = {
      pane: info.paneId,
      paneTarget: target,
      socketPath: info.socketPath,
      serverPid: info.serverPid,
    };
  } else {
    const {pane, paneTarget, socketPath, serverPid} = existing;
    paneFields = {pane, paneTarget, socketPath, serverPid};
  }
  if (!existing) {
    if (plan === undefined)
      throw new NudgeError(
        'bad-usage',
        `Watcher ${name} is new: give it a plan with --plan TEXT or --plan @FILE.`,
      );
    if (assessor === undefined)
      throw new NudgeError(
        'bad-assessor',
        `Watcher ${name} is new: give it an assessor with --assess-cmd CMD or --assess-url URL --assess-model M.`,
      );
  }
  const now = new Date(ctx.clock.wall()).toISOString();
  return store.update<WatchStartResult>(name, (r) => {
    const base = r ?? undefined;
    const spec = assessor ?? base?.assessor;
    // Removed by a `watch clear` since it was read above: what was not given is gone too.
    if (plan === undefined && base === undefined) throw noSuchWatcher(name);
    if (spec === undefined) throw noSuchWatcher(name);
    const options: WatcherOptions = {...WATCHER_OPTION_DEFAULTS, ...base?.options, ...given};
    const cycleRuns = base?.cycle !== undefined && isRunning(processOf(base.cycle));
    const record: WatcherRecord = {
      version: 1,
      name,
      state: base && cycleRuns ? base.state : base?.state === 'standby' ? 'standby' : 'active',
      ...paneFields,
      plan: plan ?? base?.plan ?? '',
      assessor: spec,
      options,
      createdAt: base?.createdAt ?? now,
      updatedAt: now,
      pausedReason: undefined,
      pending: base?.pending ?? [],
      cycle: cycleRuns ? base?.cycle : undefined,
      transcript: (base?.transcript ?? []).slice(-options.transcriptCap),
      // Started again by a person: --max-injections counts afresh.
      injections: 0,
    };
    return {record, result: {result: base ? 'updated' : 'watching', watcher: viewOf(record)}};
  });
}

/**
 * `nudge watch report NAME STATUS [--bash-wait CMD]` (look_ma): record the status and start a
 * detached cycle worker for it — or, while one runs, queue the report for it. Returns at once.
 * Without NAME: the watcher of this pane, or the only watcher.
 */
export async function reportWatcher(
  o: {name?: string | undefined; status: string; bashWait?: string | undefined},
  ctx: CommandContext,
): Promise<WatchReportResult> {
  const stateDir = resolveStateDir(ctx.env);
  const store = new WatcherStore(stateDir);
  const name = await nameOf(store, o.name, ctx);
  if (typeof o.status !== 'string' || o.status.trim() === '')
    throw new NudgeError('bad-usage', 'The status report is empty; say what was done.');
  if (o.bashWait !== undefined && o.bashWait.trim() === '')
    throw new NudgeError('bad-usage', '--bash-wait is empty; give a command or leave it out.');
  const now = new Date(ctx.clock.wall()).toISOString();
  return store.update<WatchReportResult>(name, async (r) => {
    if (!r) throw noSuchWatcher(name);
    const transcript = appendCapped(
      r.transcript,
      {t: now, role: 'status', text: o.status.trim()},
      r.options.transcriptCap,
    );
    if (r.state === 'paused') {
      return {
        record: {...r, transcript, updatedAt: now},
        result: {result: 'recorded+paused', name, ahead: 0},
      };
    }
    const pending = [
      ...r.pending,
      {at: now, status: o.status.trim(), bashWait: o.bashWait, cwd: ctx.cwd},
    ];
    if (r.cycle !== undefined && isRunning(processOf(r.cycle))) {
      return {
        record: {...r, transcript, pending, updatedAt: now},
        result: {
          result: 'recorded+waiting',
          name,
          ahead: reportsAhead(r),
          cycle: r.cycle.pid,
        },
      };
    }
    // Started under the record's lock: the worker's first look at the record waits for it,
    // and finds itself named as the cycle.
    const worker = await launchWorker({
      entry: ctx.watchWorkerEntry,
      id: name,
      stateDir,
      logPath: store.logPath(name),
      env: ctx.env,
    });
    return {
      record: {
        ...r,
        transcript,
        pending,
        cycle: {pid: worker.pid, pidStart: worker.start, startedAt: now},
        updatedAt: now,
      },
      result: {result: 'recorded+waiting', name, ahead: 0, cycle: worker.pid},
    };
  });
}

/**
 * `nudge watch pause NAME`: pause the watcher (a running cycle is stopped; nothing more is
 * typed), then ask the assessor for the next step a person could take, and return it. The
 * suggestion is never injected.
 */
export async function pauseWatcher(
  o: {name: string},
  ctx: CommandContext,
): Promise<WatchPauseResult> {
  const {name, store} = watcherNamed(o, ctx);
  const now = new Date(ctx.clock.wall()).toISOString();
  const cycle = await store.update(name, (r) => {
    if (!r) throw noSuchWatcher(name);
    const reason = 'Paused by "nudge watch pause".';
    return {
      record: {...r, state: 'paused', pausedReason: reason, pending: [], updatedAt: now},
      result: r.cycle,
    };
  });
  if (cycle) await stopCycle(processOf(cycle), ctx.clock);
  const record = await store.read(name);
  if (!record) throw noSuchWatcher(name);
  const spec = resolveServerSpec({socketPath: record.socketPath}, ctx.env);
  const tmux = ctx.tmux(spec);
  const asked = await assessRequest(
    {
      records: store,
      clock: ctx.clock,
      pane: {
        exists: async () => true,
        waitIdle: () => Promise.reject(new Error('not used')),
        inject: () => Promise.reject(new Error('not used')),
        tail: async () => visibleText(await tmux.view(record.pane, 0)).trimEnd(),
      },
    },
    name,
    'manual',
    '',
  );
  if (!asked) throw noSuchWatcher(name);
  // Loaded here: execa costs ~120 ms to import, and every other command shares this module.
  const {runCommand} = await import('../process/run-command.js');
  const assessor = createAssessor(asked.record.assessor, {
    runCommand,
    fetch: globalThis.fetch,
    env: ctx.env,
    timeoutMs: asked.record.options.assessTimeoutMs,
  });
  const decided = await assessor.assess(asked.request, ctx.signal);
  const entry = decided.ok
    ? `manual next step: ${decided.value.injection_prompt ?? '(stop: the plan is done)'}`
    : decided.error;
  await store.update(name, (r) => {
    if (!r) return {record: 'keep', result: undefined};
    const t = new Date(ctx.clock.wall()).toISOString();
    const transcript = appendCapped(
      r.transcript,
      {t, role: decided.ok ? 'decision' : 'error', text: entry},
      r.options.transcriptCap,
    );
    return {record: {...r, transcript, updatedAt: t}, result: undefined};
  });
  return decided.ok
    ? {result: 'paused', name, suggestion: decided.value.injection_prompt}
    : {result: 'paused', name, suggestion: null, error: decided.error};
}

/** `nudge watch clear NAME`: stop a running cycle (its process group) and remove the
 * watcher. */
export async function clearWatcher(
  o: {name: string},
  ctx: CommandContext,
): Promise<WatchClearResult> {
  const {name, store} = watcherNamed(o, ctx);
  // Removed first (under the lock): a cycle that is told to stop finds no record to write,
  // and no report can start a new one.
  const cycle = await store.update(name, (r) => {
    if (!r) throw noSuchWatcher(name);
    return {record: 'remove', result: r.cycle};
  });
  const stoppedCycle = cycle ? await stopCycle(processOf(cycle), ctx.clock) : false;
  return {result: 'cleared', name, stoppedCycle};
}

/** `nudge watch show NAME`. */
export async function showWatcher(o: {name: string}, ctx: CommandContext): Promise<WatcherView> {
  const {name, store} = watcherNamed(o, ctx);
  const record = await store.read(name);
  if (!record) throw noSuchWatcher(name);
  return viewOf(record);
}

/** `nudge watch list`. */
export async function listWatchers(_o: object, ctx: CommandContext): Promise<WatchListResult> {
  const records = await new WatcherStore(resolveStateDir(ctx.env)).list();
  return {
    watchers: records.map((r) => {
      const {transcript: _t, ...rest} = viewOf(r);
      return rest;
    }),
  };
}

/** The watcher a command names (checked) and the store of the state folder. */
function watcherNamed(o: {name: string}, ctx: CommandContext) {
  return {name: validateWatcherName(o.name), store: new WatcherStore(resolveStateDir(ctx.env))};
}

/** The watcher a report is for: NAME, else the one watching this pane, else the only one. */
async function nameOf(
  store: WatcherStore,
  given: string | undefined,
  ctx: CommandContext,
): Promise<string> {
  if (given !== undefined) return validateWatcherName(given);
  const all = await store.list();
  // The pane the report comes from, proven (a claimed $TMUX_PANE may be another's).
  const socketPath = insideTmux(ctx.env)?.socketPath;
  const spec = resolveServerSpec({}, ctx.env);
  const own =
    socketPath === undefined
      ? undefined
      : provenPane(
          await ownPane(ctx.tmux(spec), spec, ctx).catch(() => ({kind: 'outside'}) as const),
        );
  const here = all.filter(
    (w) => own !== undefined && w.pane === own && w.socketPath === socketPath,
  );
  const pick = here.length === 1 ? here : all.length === 1 ? all : [];
  if (pick[0]) return pick[0].name;
  throw new NudgeError(
    all.length === 0 ? 'no-such-watcher' : 'ambiguous-watcher',
    all.length === 0
      ? 'There is no watcher; start one with "nudge watch start NAME --pane P --plan TEXT".'
      : `Name the watcher; there are ${all.length} (${all.map((w) => w.name).join(', ')}).`,
  );
}

function noSuchWatcher(name: string): NudgeError {
  return new NudgeError(
    'no-such-watcher',
    `There is no watcher named ${JSON.stringify(name)}; run "nudge watch list" to see them.`,
  );
}
