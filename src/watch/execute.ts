import {hookMarkSource} from '../agents/hook-marks.js';
import type {Profile} from '../agents/profile.js';
import {PROFILES} from '../agents/registry.js';
import {realClock} from '../base/clock.js';
import {createJobLogger} from '../base/log.js';
import {thisProcess} from '../base/this-process.js';
import type {StallPolicy} from '../detect/stall.js';
import {stallHook} from '../job-worker/stall.js';
import {newJobId} from '../jobs/request.js';
import {notifyPreviewOf} from '../notify/config.js';
import {type Tell, teller} from '../notify/tell.js';
import {type Delivery, PaneFailure} from '../pane/failures.js';
import {realInjector} from '../pane/inject.js';
import {OWN_LINE_WAITS} from '../pane/own-line.js';
import {type WaitIdleOptions, waitPaneIdle} from '../pane/wait-idle.js';
import {systemForeground} from '../process/foreground.js';
import {loginShell, runCommand} from '../process/run-command.js';
import {createSpawnRunner, TmuxCommandError} from '../tmux/runner.js';
import type {ServerRef} from '../tmux/server.js';
import {createTmux, type Tmux} from '../tmux/tmux.js';
import {visibleText} from '../tmux/view.js';
import {createAssessor} from './assessor.js';
import {type CyclesEnd, runCycles} from './cycle.js';
import type {CycleDeps, CyclePane} from './cycle-deps.js';
import type {WatcherRecord} from './record.js';
import {pause} from './record-changes.js';
import {WatcherStore} from './store.js';

/** Bytes of a `--bash-wait` command's output kept (its last ones). */
const WAIT_OUTPUT_BYTES = 64 * 1024;
/** Lines of the pane's screen the assessor reads. */
const PANE_TAIL_LINES = 40;

/** Where the cycle worker runs. */
export interface CycleContext {
  stateDir: string;
  pid: number;
  signal: AbortSignal;
  /** The environment of whoever reported (the assessor's key is read from it). */
  env: Record<string, string | undefined>;
}

/**
 * Run watcher `name`'s queued reports with the real world wired in: tmux over spawned
 * processes on the watcher's server (a cycle mostly waits; nothing here needs output
 * events), the user's `$SHELL -lc` for waits, the assessor the record names, and the pane's lock while a
 * line is typed. Used by the cycle worker (workers/watch-worker.ts).
 */
export async function executeCycles(name: string, ctx: CycleContext): Promise<CyclesEnd> {
  const store = new WatcherStore(ctx.stateDir);
  const record = await store.read(name);
  if (!record) return 'removed';
  const log = createJobLogger(store.logPath(name), {watcher: name, pane: record.pane});
  const tmux = createTmux(createSpawnRunner({kind: 'socket-path', path: record.socketPath}));
  const server: ServerRef = {socketPath: record.socketPath, serverPid: record.serverPid};
  const tell = teller({
    sinks: record.options.notifySinks ?? [],
    job: {id: `watch:${name}`, pane: record.pane, preview: record.plan.slice(0, 80)},
    previewOut: notifyPreviewOf(ctx.env),
    deps: {clock: realClock, tmux, platform: thisProcess.platform, env: ctx.env},
    record: async (about, told) =>
      void log.info({event: told.ok ? 'notify-sent' : 'notify-failed', about, ...told}, 'notify'),
  });
  const note = (event: string, data: Record<string, unknown>) => {
    log.info({event, ...data}, event);
    return Promise.resolve();
  };
  const deps: CycleDeps = {
    records: store,
    clock: realClock,
    pid: ctx.pid,
    pane: realPane(tmux, record, server, ctx, note, {store, tell}),
    assessorFor: (r) =>
      createAssessor(r.assessor, {
        runCommand,
        fetch: globalThis.fetch,
        env: ctx.env,
        timeoutMs: r.options.assessTimeoutMs,
      }),
    runWait: (command, cwd, timeoutMs, signal) =>
      runCommand(loginShell(ctx.env), ['-lc', command], {
        merged: true,
        timeoutMs,
        maxBytes: WAIT_OUTPUT_BYTES,
        signal,
        cwd,
      }),
    tell,
  };
  log.info({event: 'cycle-worker-started'}, 'cycle worker started');
  const ended = await runCycles(deps, name, ctx.signal);
  log.info({event: 'cycle-worker-exit', ended}, 'cycle worker exiting');
  return ended;
}

/** The watcher's idle step as `nudge wait` counts it: `thresholdMs` of stillness is N checks
 * in a row, an interval apart. */
export function watcherIdleOptions(thresholdMs: number, timeoutMs: number): WaitIdleOptions {
  const intervalMs = Math.min(1_000, Math.max(10, thresholdMs));
  const stableChecks = Math.max(1, Math.round(thresholdMs / intervalMs));
  return {until: {kind: 'stable'}, intervalMs, timeoutMs, stableChecks, ignore: [], lines: 100};
}

/** The stall watchdog of a watcher's wait for its pane's idle: a stall kept in the
 * watcher's record, told, and the continue line typed into its pane. */
function watcherStall(
  record: WatcherRecord,
  policy: StallPolicy,
  w: {
    note: (event: string, data: Record<string, unknown>) => Promise<void>;
    watchdog: {store: WatcherStore; tell: Tell};
    panePid: number;
    type: (line: string) => Promise<Delivery>;
  },
) {
  return (agent: Profile | undefined) =>
    stallHook(
      {
        clock: realClock,
        note: (event, data) => w.note(event, {...data}),
        mark: async (stalled) => {
          await w.watchdog.store.update(record.name, (r) =>
            r ? {record: {...r, stalled}, result: undefined} : {record: 'keep', result: undefined},
          );
        },
        tell: w.watchdog.tell,
        input: () => systemForeground.inputState(w.panePid),
        type: w.type,
      },
      {policy, pane: record.pane, profile: agent ?? PROFILES.shell, ignore: [], state: 'idle_spin'},
    );
}

/** The pane services of a cycle, on a real tmux server. */
function realPane(
  tmux: Tmux,
  record: WatcherRecord,
  server: ServerRef,
  ctx: CycleContext,
  note: (event: string, data: Record<string, unknown>) => Promise<void>,
  /** Where the stall watchdog keeps a stall (the watcher's record) and tells of it. */
  watchdog: {store: WatcherStore; tell: Tell},
): CyclePane {
  const {pane} = record;
  const describe = async () => {
    try {
      const info = await tmux.describePane(pane);
      return info && info.serverPid === record.serverPid ? info : undefined;
    } catch (error) {
      if (error instanceof TmuxCommandError) return undefined;
      throw error;
    }
  };
  const gone = () => new PaneFailure(`Pane ${pane} is gone; the watcher paused.`);
  const inject = realInjector({
    stateDir: ctx.stateDir,
    server,
    tmux,
    clock: realClock,
    pid: ctx.pid,
    note: (event, data) => note(event, data as Record<string, unknown>),
    ticket: () => newJobId(Date.now()),
    waits: OWN_LINE_WAITS.watcher,
  });
  return {
    exists: async () => (await describe()) !== undefined,
    async waitIdle(thresholdMs, timeoutMs, policy, signal) {
      const info = await describe();
      if (!info) throw gone();
      const deps = {
        note,
        watchdog,
        panePid: info.panePid,
        type: (line: string) => inject(pane, line, true, signal),
      };
      const stall = policy ? watcherStall(record, policy, deps) : undefined;
      try {
        return await waitPaneIdle(
          {
            tmux,
            clock: realClock,
            foreground: systemForeground,
            hookMarks: hookMarkSource(ctx.stateDir, server),
          },
          info,
          {...watcherIdleOptions(thresholdMs, timeoutMs), stall},
          signal,
        );
      } catch (error) {
        if (error instanceof TmuxCommandError) throw gone();
        throw error;
      }
    },
    async tail() {
      const lines = visibleText(await tmux.view(pane, 0)).split('\n');
      while (lines.length > 0 && lines[lines.length - 1]?.trim() === '') lines.pop();
      return lines.slice(-PANE_TAIL_LINES).join('\n');
    },
    // An assessor's answer and a usage limit's resume line are nudge's own (issue 61): at a
    // shell prompt a comment or a tmux message, never a command — unless the person allowed
    // commands for this watcher (--allow-commands): then typed as they are.
    inject: (line, enter, signal) =>
      inject(pane, line, enter, signal, record.options.allowCommands === true),
  };
}

/** A cycle worker that failed outside its cycle (a throw, a crash): the watcher pauses with
 * the reason, in its transcript, as any failure of a cycle does. */
export async function recordCycleFailure(
  stateDir: string,
  name: string,
  reason: string,
): Promise<void> {
  await pause({records: new WatcherStore(stateDir), clock: realClock}, name, reason);
}
