// The shapes of a tmux control-mode client (control-runner.ts): what it is, how it is started
import type {PaneSwitches} from './control-switches.js';
import type {TmuxRunner} from './runner.js';
// and how it ends.
/** Called for each `%output` of a pane, with the time it was read (ms, from `now`). */
export type OutputListener = (paneId: string, atMs: number) => void;

/** Why a control client ended. */
export interface ControlClosed {
  /** `closed`: close() was called; `exit`: tmux sent %exit (server killed, session killed,
   * client detached); `client-died`: the tmux client process ended without %exit (or never
   * started); `unresponsive`: tmux did not answer a command in time and we killed the client. */
  reason: 'closed' | 'exit' | 'client-died' | 'unresponsive';
  /** One line for logs and the job record. */
  detail: string;
}

/** A TmuxRunner over one long-lived control-mode client, plus what only it can tell: when
 * each pane in the attached session last printed. */
export interface ControlRunner extends TmuxRunner {
  /** The session the client is attached to (`$N`). %output arrives only for its panes. */
  readonly sessionId: string;
  /** The tmux client process id. */
  readonly pid: number | undefined;
  /** True once the client has ended; run() then rejects at once. */
  readonly isClosed: boolean;
  /** Resolves (never rejects) when the client ends, saying why. */
  readonly closed: Promise<ControlClosed>;
  /** When `paneId` last printed (or was paused by tmux, which means it printed more than we
   * read), in `now` milliseconds; undefined if it has not printed since the client started. */
  lastOutputAt(paneId: string): number | undefined;
  /** Call `listener` on each %output (of `paneId` only, if given). Returns an unsubscribe. */
  onOutput(listener: OutputListener, paneId?: string): () => void;
  /** Call `listener` with each notification line other than %output (as the option
   * `onNotification` is). Returns an unsubscribe. */
  onNotification(listener: (line: string) => void): () => void;
  /** Panes' output paused or continued, and format subscriptions (tmux ≥ 3.2). */
  readonly switches: PaneSwitches;
  /** End the client: stdin EOF (tmux detaches it; the session is untouched), then signals if
   * it does not exit. Pending calls still get their replies if tmux sends them before it
   * exits; the rest reject. Idempotent. */
  close(): Promise<void>;
}

/** Options for createControlRunner. */
export interface ControlRunnerOptions {
  /** Session to attach to, as its id (`$N`; from `display -p -t %N '#{session_id}'`). Never a
   * pane or window target: attaching to one makes it the session's current window and
   * active pane (test/integration/control-activity.test.ts). */
  sessionId: string;
  tmuxBinary?: string;
  /** Subscribed before the client starts, so no %output is missed. */
  onOutput?: OutputListener;
  /** Called with each notification line other than %output (`%pause %4`, `%window-close
   * @3`, `%layout-change ...`), verbatim. Lines a command prints inside its own reply block
   * (refresh-client -A prints `%continue %4` there) are part of that reply, not notifications. */
  onNotification?: (line: string) => void;
  /** Clock for output times; default realClock.now (the monotonic clock every wait reads). */
  now?: () => number;
  /** Attach with `pause-after=N`: when we fall N seconds behind on a pane's output, tmux
   * pauses it and drops its output instead of disconnecting us after 5 minutes. A %pause
   * counts as output (the pane printed more than we saw) and the pane is resumed at once.
   * Default: off; we always drain stdout, so we never fall behind while the loop runs. */
  pauseAfterSeconds?: number;
  /** Environment for the tmux client; default inherited. */
  env?: NodeJS.ProcessEnv;
  /** How long attaching may take. */
  startTimeoutMs?: number;
  /** How long tmux may go without answering while commands are pending before we call it
   * hung, kill the client and reject everything pending. */
  replyTimeoutMs?: number;
  /** Runs the client's start (until attached) and its close (until gone) one at a time with
   * other processes' control clients on the same server (see src/locks/control-mutex.ts: tmux 3.3a
   * crashes when a control client comes or goes while another is still starting). */
  mutex?: SectionMutex;
}

/** Runs a section exclusively (across processes); may reject without running it. */
export interface SectionMutex {
  run<T>(section: () => Promise<T>): Promise<T>;
}
