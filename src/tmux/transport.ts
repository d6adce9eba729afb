import {err, ok, type Result} from '../base/result.js';
import type {PaneActivity} from './activity.js';
import {createControlActivity} from './control-activity.js';
import {canRunOverControl, commandNames} from './control-line.js';
import type {ControlPool} from './control-pool.js';
import {createControlRunner} from './control-start.js';
import type {ControlRunner, OutputListener, SectionMutex} from './control-types.js';
import {createSpawnRunner, TmuxCommandError, type TmuxRunner} from './runner.js';
import type {ServerSpec} from './server.js';
import {createTmux, type Tmux} from './tmux.js';

/** Which transport a worker uses: `auto` and `control` open a control-mode client and fall
 * back to spawning when that cannot work (the job record says which was used and why);
 * `spawn` never opens one. */
export type TransportChoice = 'auto' | 'control' | 'spawn';

/** Read a transport choice (e.g. from `NUDGE_TRANSPORT`); unset means `auto`. */
export function parseTransportChoice(value: string | undefined): Result<TransportChoice, string> {
  if (value === undefined || value === '') return ok('auto');
  if (value === 'auto' || value === 'control' || value === 'spawn') return ok(value);
  return err(`NUDGE_TRANSPORT must be auto, control or spawn, got ${JSON.stringify(value)}`);
}

/** How a worker talks to tmux, and what it needs to record about it. */
export interface Transport {
  /** The operations, over `runner`. */
  tmux: Tmux;
  runner: TmuxRunner;
  /** What was opened: a control-mode client, or one tmux process per call. */
  kind: 'control' | 'spawn';
  /** Why control mode is not used (kind 'spawn'), for the job record. */
  fallbackReason: string | undefined;
  /** The control client (kind 'control'): %output times and events for the panes of
   * `control.sessionId`, and `control.closed` to learn when it ended and why. After it ends,
   * `runner` carries on over spawned processes. */
  control: ControlRunner | undefined;
  /** Output events of the control client's panes (kind 'control'), for waiting. */
  activity: PaneActivity | undefined;
  /** End the control client, if any. Idempotent. */
  close(): Promise<void>;
}

/** Options for openTransport. */
export interface OpenTransportOptions {
  /** 'spawn' skips control mode (recorded as the fallback reason). Default 'control'. */
  prefer?: 'control' | 'spawn';
  tmuxBinary?: string;
  /** Passed to the control client: subscribed before it attaches. */
  onOutput?: OutputListener;
  /** Passed to the control client: other notification lines (`%window-close @3`, ...). */
  onNotification?: (line: string) => void;
  /** Clock for output times; default realClock.now (the monotonic clock every wait reads). */
  now?: () => number;
  /** Passed to the control client (see ControlRunnerOptions.pauseAfterSeconds). */
  pauseAfterSeconds?: number;
  /** Serializes control clients coming and going, and the commands that make tmux notify
   * every control client, with other processes (see ControlRunnerOptions.mutex). When it
   * cannot be taken in time, the transport spawns instead. */
  mutex?: SectionMutex;
  /** Share one control client per session among the jobs of this process (a waiter's). */
  pool?: ControlPool;
}

/**
 * Open the transport for work on `paneId`: a control-mode client attached to the pane's
 * session when that works, else the spawn-per-command runner with the reason recorded.
 *
 * Never fails because of tmux: when tmux cannot be reached or the pane is missing, the result
 * is a spawn transport whose reason says so, and the caller's first real command reports the
 * problem the usual way.
 *
 * With control mode, calls go over the control client while it lives and over spawned
 * processes once it has ended (session killed, client killed): a call in flight at that
 * moment rejects (it may or may not have run, so it is not repeated), later ones spawn.
 * Commands the control client refuses (canRunOverControl) always spawn.
 */
export async function openTransport(
  spec: ServerSpec,
  paneId: string,
  opts: OpenTransportOptions = {},
): Promise<Transport> {
  const plainSpawnRunner = createSpawnRunner(spec, opts.tmuxBinary);
  const mutex = opts.mutex;
  const spawnRunner: TmuxRunner = {
    run: (args) =>
      mutex && notifiesControlClients(args)
        ? mutex.run(() => plainSpawnRunner.run(args))
        : plainSpawnRunner.run(args),
  };
  const spawned = (fallbackReason: string): Transport => ({
    tmux: createTmux(spawnRunner),
    runner: spawnRunner,
    kind: 'spawn',
    fallbackReason,
    control: undefined,
    activity: undefined,
    close: async () => {},
  });
  if (opts.prefer === 'spawn') return spawned('the spawn transport was asked for');

  let sessionId: string;
  try {
    const info = await createTmux(spawnRunner).describePane(paneId);
    if (!info) return spawned(`pane ${paneId} was not found, so there is no session to attach to`);
    sessionId = info.sessionId;
  } catch (error) {
    if (error instanceof TmuxCommandError) return spawned(error.message);
    throw error;
  }

  const attach = () => attachControl(spec, sessionId, opts, spawnRunner, spawned);
  const transport = await (opts.pool
    ? opts.pool.share(`${JSON.stringify(spec)}\0${sessionId}`, attach)
    : attach());
  return holdingPane(transport, paneId);
}

/** The transport, hearing `paneId` until it is closed: the pane the work is on (a job's), so
 * that a control client shared by other jobs never mutes it (src/tmux/pane-hearing.ts). */
function holdingPane(transport: Transport, paneId: string): Transport {
  const release = transport.activity?.hold(paneId);
  if (!release) return transport;
  return {
    ...transport,
    close: async () => {
      release();
      await transport.close();
    },
  };
}

/** A control-mode client attached to session `sessionId`, as a transport; the spawn
 * transport (with the reason) when it cannot attach. */
async function attachControl(
  spec: ServerSpec,
  sessionId: string,
  opts: OpenTransportOptions,
  spawnRunner: TmuxRunner,
  spawned: (fallbackReason: string) => Transport,
): Promise<Transport> {
  const mutex = opts.mutex;
  let control: ControlRunner;
  try {
    control = await createControlRunner(spec, {
      sessionId,
      tmuxBinary: opts.tmuxBinary,
      onOutput: opts.onOutput,
      onNotification: opts.onNotification,
      now: opts.now,
      pauseAfterSeconds: opts.pauseAfterSeconds,
      mutex,
    });
  } catch (error) {
    if (error instanceof TmuxCommandError) {
      return spawned(`control mode could not attach to session ${sessionId}: ${error.message}`);
    }
    if (error instanceof Error && error.name === 'ControlMutexTimeout') {
      return spawned(`control mode was not tried: ${error.message}`);
    }
    throw error;
  }

  const overControl = (args: readonly string[]) =>
    mutex && notifiesControlClients(args) ? mutex.run(() => control.run(args)) : control.run(args);
  const runner: TmuxRunner = {
    async run(args) {
      if (control.isClosed || !canRunOverControl(args)) return spawnRunner.run(args);
      try {
        return await overControl(args);
      } catch (error) {
        // The client ended with this call in flight. A command that only reads is safe to
        // run again (a wait's capture must not fail the job because the client went away);
        // one that acts may have run already, so it is not repeated.
        if (control.isClosed && isReadOnly(args)) return spawnRunner.run(args);
        throw error;
      }
    },
  };
  return {
    tmux: createTmux(runner),
    runner,
    kind: 'control',
    fallbackReason: undefined,
    control,
    activity: createControlActivity(control),
    close: () => control.close(),
  };
}

/** The tmux commands a space-separated list names. */
function commandSet(list: string): ReadonlySet<string> {
  return new Set(list.split(' '));
}

/** Commands after which tmux 3.3a notifies every control client, also one still starting
 * (see src/locks/control-mutex.ts): a pane entering or leaving a mode, paste buffers changing. */
const NOTIFYING_COMMANDS = commandSet(
  'copy-mode set-buffer paste-buffer delete-buffer load-buffer',
);

function notifiesControlClients(args: readonly string[]): boolean {
  return commandNames(args).some((name) => NOTIFYING_COMMANDS.has(name));
}

/** Commands that only read, by full name; a chained line counts only if all of it does. */
const READ_ONLY_COMMANDS = commandSet(
  'capture-pane display-message list-panes list-windows list-sessions list-clients show-options',
);

function isReadOnly(args: readonly string[]): boolean {
  return commandNames(args).every((name) => READ_ONLY_COMMANDS.has(name));
}

/** A transport opened on first use: no control client while a job only queues for its lock. */
export interface LazyTransport {
  /** The operations; the first call opens the transport. */
  tmux: Tmux;
  /** Output events once a control-mode transport is open; before that (and with spawn), no
   * pane is covered, so a wait polls. */
  activity: PaneActivity;
  /** The transport, once opened. */
  readonly opened: Transport | undefined;
  /** Close the transport if it was opened (waiting for an opening in progress). */
  close(): Promise<void>;
}

/** Wrap `open` so that it runs on the first tmux call; `onOpen` hears about it (to record
 * which transport was used). */
export function openTransportLazily(
  open: () => Promise<Transport>,
  onOpen: (transport: Transport) => Promise<void> | void = () => {},
): LazyTransport {
  let opening: Promise<Transport> | undefined;
  let opened: Transport | undefined;
  const ready = () => {
    opening ??= open().then(async (transport) => {
      opened = transport;
      await onOpen(transport);
      return transport;
    });
    return opening;
  };
  const activity: PaneActivity = {
    get isEnded() {
      return opened?.activity?.isEnded ?? false;
    },
    covers: async (paneId) => (opened?.activity ? opened.activity.covers(paneId) : false),
    lastOutputAt: (paneId) => opened?.activity?.lastOutputAt(paneId),
    printedAfter: (paneId, at) => opened?.activity?.printedAfter(paneId, at) ?? false,
    hold: (paneId, need) => opened?.activity?.hold(paneId, need) ?? (() => {}),
    settled: async (paneId, signal) => opened?.activity?.settled(paneId, signal),
    followed: (paneId) => opened?.activity?.followed(paneId) ?? false,
    followedAs: (paneId) => opened?.activity?.followedAs(paneId),
    nextOutput: (paneId, signal) =>
      opened?.activity ? opened.activity.nextOutput(paneId, signal) : never(signal),
    ended: (signal) => (opened?.activity ? opened.activity.ended(signal) : never(signal)),
    layoutChanged: (signal) =>
      opened?.activity ? opened.activity.layoutChanged(signal) : never(signal),
  };
  return {
    tmux: createTmux({run: async (args) => (await ready()).runner.run(args)}),
    activity,
    get opened() {
      return opened;
    },
    async close() {
      if (!opening) return;
      const transport = await opening.catch(() => undefined);
      await transport?.close();
    },
  };
}

/** A wait for something that never comes, ended only by `signal`. */
function never(signal: AbortSignal): Promise<void> {
  return new Promise((_, reject) => {
    if (signal.aborted) reject(signal.reason);
    else signal.addEventListener('abort', () => reject(signal.reason), {once: true});
  });
}
