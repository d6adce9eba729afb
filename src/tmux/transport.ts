import {canRunOverControl} from './control-line.js';
import {type ControlRunner, createControlRunner, type OutputListener} from './control-runner.js';
import {createSpawnRunner, TmuxCommandError, type TmuxRunner} from './runner.js';
import type {ServerSpec} from './server.js';
import {createTmux, type Tmux} from './tmux.js';

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
  /** Clock for output times; default Date.now. */
  now?: () => number;
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
  const spawnRunner = createSpawnRunner(spec, opts.tmuxBinary);
  const spawned = (fallbackReason: string): Transport => ({
    tmux: createTmux(spawnRunner),
    runner: spawnRunner,
    kind: 'spawn',
    fallbackReason,
    control: undefined,
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

  let control: ControlRunner;
  try {
    control = await createControlRunner(spec, {
      sessionId,
      tmuxBinary: opts.tmuxBinary,
      onOutput: opts.onOutput,
      onNotification: opts.onNotification,
      now: opts.now,
    });
  } catch (error) {
    if (error instanceof TmuxCommandError) {
      return spawned(`control mode could not attach to session ${sessionId}: ${error.message}`);
    }
    throw error;
  }

  const runner: TmuxRunner = {
    run: (args) =>
      control.isClosed || !canRunOverControl(args) ? spawnRunner.run(args) : control.run(args),
  };
  return {
    tmux: createTmux(runner),
    runner,
    kind: 'control',
    fallbackReason: undefined,
    control,
    close: () => control.close(),
  };
}
