import type {ChildProcess, ChildProcessWithoutNullStreams} from 'node:child_process';
import {realClock} from '../base/clock.js';
import {startProcess} from '../process/spawn.js';
import {toControlLine} from './control-line.js';
import {OutputListeners} from './control-output.js';
import {type ControlBlock, ControlParser} from './control-parser.js';
import {
  CLOSE_GRACE_MS,
  CLOSE_MUTEX_TRIES,
  classifyOr,
  closedByExit,
  closedError,
  controlClientArgs,
  diedDetail,
  keepAlive,
  LATE_TIMER_MS,
  REPLY_TIMEOUT_MS,
  START_TIMEOUT_MS,
  STDERR_KEEP_CHARS,
  settlesWithin,
  startGuard,
  whenClientEnds,
} from './control-parts.js';
import {PendingReplies} from './control-replies.js';
import {PaneSwitches, type SubscriptionChange} from './control-switches.js';
import type {
  ControlClosed,
  ControlRunner,
  ControlRunnerOptions,
  OutputListener,
  SectionMutex,
} from './control-types.js';
import {Listeners} from './listeners.js';
import {classifyTmuxFailure, TmuxCommandError} from './runner.js';
import type {ServerSpec} from './server.js';

/** A start that no mutex serializes. */
export const UNSERIALIZED: SectionMutex = {run: (section) => section()};

/** One control-mode client attached to a session (started by control-start.ts). */
export class ControlClient implements ControlRunner {
  readonly sessionId: string;
  readonly closed: Promise<ControlClosed>;
  /** Resolves when tmux has answered the attach; rejects if it never does. */
  readonly attached: Promise<void>;

  readonly #child: ChildProcessWithoutNullStreams;
  #guard: ChildProcess | undefined;
  readonly #parser: ControlParser;
  readonly #now: () => number;
  readonly #replyTimeoutMs: number;
  readonly #pending = new PendingReplies();
  readonly #output = new OutputListeners();
  readonly #exited: Promise<void>;
  readonly #notifications = new Listeners<string>();
  readonly switches: PaneSwitches;

  #isAttached = false;
  readonly #mutex: SectionMutex;
  #closeDone: Promise<void> | undefined;
  #closedInfo: ControlClosed | undefined;
  #closedKind: TmuxCommandError['kind'] = 'other';
  #closing = false;
  #stderr = '';
  /** Time of the stdout chunk being parsed, read at most once per chunk. */
  #chunkTime: number | undefined;
  #replyTimer: NodeJS.Timeout | undefined;
  #startTimer: NodeJS.Timeout | undefined;
  #resolveClosed!: (closed: ControlClosed) => void;
  #resolveAttached!: () => void;
  #rejectAttached!: (error: TmuxCommandError) => void;

  constructor(spec: ServerSpec, opts: ControlRunnerOptions) {
    this.sessionId = opts.sessionId;
    this.#mutex = opts.mutex ?? UNSERIALIZED;
    this.#now = opts.now ?? realClock.now;
    this.#replyTimeoutMs = opts.replyTimeoutMs ?? REPLY_TIMEOUT_MS;
    if (opts.onOutput) this.#output.add(opts.onOutput);
    if (opts.onNotification) this.#notifications.add(opts.onNotification);
    this.switches = new PaneSwitches(
      (line, label) => this.#sendIfOpen(line, label),
      new Listeners<SubscriptionChange>(),
    );
    this.closed = new Promise((resolve) => {
      this.#resolveClosed = resolve;
    });
    this.attached = new Promise((resolve, reject) => {
      this.#resolveAttached = resolve;
      this.#rejectAttached = reject;
    });

    const tmuxBinary = opts.tmuxBinary ?? 'tmux';
    const argv = controlClientArgs(spec, opts.sessionId, opts.pauseAfterSeconds);
    // detached: its own process group, so a signal to ours (`nudge cancel` signals the
    // worker's group, Ctrl-C the terminal's) never reaches the client while it is still
    // introducing itself to the server (see #signalClient); we end it ourselves.
    // All three streams are pipes, so none of them is null.
    this.#child = startProcess(tmuxBinary, argv, {
      stdio: ['pipe', 'pipe', 'pipe'],
      env: opts.env,
      detached: true,
    }) as ChildProcessWithoutNullStreams;

    this.#parser = new ControlParser({
      block: (block) => this.#onBlock(block),
      output: (paneId) => this.#onOutput(paneId),
      pause: (paneId) => this.#onPause(paneId),
      exit: (reason) => this.#finish(...closedByExit(reason)),
      subscription: (name, paneId, value) => {
        this.#chunkTime ??= this.#now();
        this.switches.changes.emit({name, paneId, value, atMs: this.#chunkTime});
      },
      notification: (line) => this.#notifications.emit(line),
    });

    const {stdin, stdout, stderr} = this.#child;
    stdout.setEncoding('utf8');
    stdout.on('data', (chunk: string) => {
      this.#chunkTime = undefined;
      this.#parser.push(chunk);
    });
    stderr.setEncoding('utf8');
    stderr.on('data', (chunk: string) => {
      this.#stderr = (this.#stderr + chunk).slice(-STDERR_KEEP_CHARS);
    });
    // EPIPE when the client is gone; its exit is reported through 'exit'/'end'.
    stdin.on('error', () => {});

    this.#exited = whenClientEnds(this.#child, tmuxBinary, {
      failed: (detail, kind) => this.#finish({reason: 'client-died', detail}, kind),
      ended: (how) => {
        this.#guard?.kill('SIGKILL');
        this.#finish({reason: 'client-died', detail: diedDetail(this.#stderr, how)});
      },
    });

    this.#startTimer = setTimeout(() => {
      this.#finish({
        reason: 'unresponsive',
        detail: `tmux did not answer the attach within ${opts.startTimeoutMs ?? START_TIMEOUT_MS} ms`,
      });
      // Not a signal (see #signalClient): EOF makes it leave once tmux gets to it.
      this.#child.stdin.end();
    }, opts.startTimeoutMs ?? START_TIMEOUT_MS);
    this.#setKeepAlive(true);
  }

  get pid(): number | undefined {
    return this.#child.pid;
  }

  get isClosed(): boolean {
    return this.#closedInfo !== undefined;
  }

  lastOutputAt(paneId: string): number | undefined {
    return this.#output.lastOutputAt(paneId);
  }

  onOutput(listener: OutputListener, paneId?: string): () => void {
    return this.#output.add(listener, paneId);
  }

  onNotification(listener: (line: string) => void): () => void {
    return this.#notifications.add(listener);
  }

  run(args: readonly string[]): Promise<string> {
    const label = args[0] ?? '';
    if (this.#closedInfo || this.#closing) {
      return Promise.reject(this.#closedError(label));
    }
    const encoded = toControlLine(args);
    if (!encoded.ok) {
      return Promise.reject(
        new TmuxCommandError('other', encoded.error, `tmux ${label} failed: ${encoded.error}`),
      );
    }
    return this.#send(encoded.value.line, encoded.value.commands, label);
  }

  async close(): Promise<void> {
    if (this.#closeDone) return this.#closeDone;
    const closeNow = () => this.#closeNow();
    this.#closeDone = (async () => {
      // Our client's leaving must not meet another one's arrival (see `mutex`), so a busy
      // mutex is waited for again; only after CLOSE_MUTEX_TRIES waits do we leave anyway.
      for (let tries = 1; ; tries++) {
        try {
          return await this.#mutex.run(closeNow);
        } catch (error) {
          const busy = error instanceof Error && error.name === 'ControlMutexTimeout';
          if (!busy || tries >= CLOSE_MUTEX_TRIES) return closeNow();
        }
      }
    })();
    return this.#closeDone;
  }

  /** Resolves true once the client process has exited, false after `ms`. */
  exitedWithin(ms: number): Promise<boolean> {
    return settlesWithin(this.#exited, ms);
  }

  async #closeNow(): Promise<void> {
    if (!this.#closing) {
      this.#closing = true;
      // An empty line would also detach, but EOF is the one signal that cannot be
      // mistaken for a command and that also comes when we die.
      this.#child.stdin.end();
    }
    if (await this.exitedWithin(CLOSE_GRACE_MS)) return;
    if (!this.#signalClient('SIGTERM')) {
      // Never attached: no signal may end it (#signalClient); it leaves on the EOF once
      // tmux answers it. We are done with it either way.
      this.#finish({reason: 'closed', detail: 'the control client was closed'});
      return;
    }
    if (!(await this.exitedWithin(CLOSE_GRACE_MS))) this.#signalClient('SIGKILL');
    await this.#exited;
  }

  /** Write one line and wait for its blocks. The line is never empty and never contains a
   * newline (toControlLine guarantees both): an empty line would end the client. */
  #send(line: string, commands: number, label: string): Promise<string> {
    if (this.#pending.size === 0) this.#armReplyTimer();
    const reply = this.#pending.add(commands, label);
    this.#setKeepAlive(true);
    this.#child.stdin.write(`${line}\n`);
    return reply;
  }

  #onBlock(block: ControlBlock): void {
    if (!block.fromClient) {
      // Flags 0: the implicit attach (first), or commands tmux ran for us (hooks). Never a
      // reply to a call of ours.
      if (!this.#isAttached) this.#onAttachReply(block);
      return;
    }
    this.#pending.take(block);
    if (this.#pending.size === 0) {
      clearTimeout(this.#replyTimer);
      this.#setKeepAlive(false);
    } else {
      this.#armReplyTimer();
    }
  }

  #onAttachReply(block: ControlBlock): void {
    clearTimeout(this.#startTimer);
    if (block.ok) {
      this.#isAttached = true;
      // Only now: the guard kills the client, which is safe only once attached.
      if (this.#child.pid !== undefined && !this.#closedInfo) {
        this.#guard = startGuard(this.#child.pid);
      }
      this.#setKeepAlive(false);
      this.#resolveAttached();
      return;
    }
    // e.g. "can't find session: $9"; tmux sends %exit next.
    const text = block.lines.join('\n').trim();
    this.#finish({reason: 'exit', detail: text}, classifyTmuxFailure(text));
  }

  #onOutput(paneId: string): void {
    this.#chunkTime ??= this.#now();
    this.#output.emit(paneId, this.#chunkTime);
  }

  #onPause(paneId: string): void {
    this.#notifications.emit(`%pause ${paneId}`);
    // tmux now drops this pane's output: it printed more than we read, so it is busy (and is
    // resumed), unless it is a pane we paused ourselves.
    if (this.#closedInfo || this.#closing) return;
    if (this.switches.tmuxPaused(paneId)) this.#onOutput(paneId);
  }

  /** #send, unless the client is over (a switch sent while it closes is moot). */
  #sendIfOpen(line: string, label: string): Promise<string> {
    if (this.#closedInfo || this.#closing) return Promise.reject(this.#closedError(label));
    return this.#send(line, 1, label);
  }

  #armReplyTimer(): void {
    clearTimeout(this.#replyTimer);
    const due = performance.now() + this.#replyTimeoutMs;
    this.#replyTimer = setTimeout(() => {
      // Due long ago: this process was stopped (SIGSTOP, a machine asleep), not tmux. Its
      // answer may wait unread in the pipe, read only after the timers: look again then.
      if (performance.now() - due > LATE_TIMER_MS) {
        this.#armReplyTimer();
        return;
      }
      this.#finish({
        reason: 'unresponsive',
        detail: `tmux did not answer within ${this.#replyTimeoutMs} ms`,
      });
      this.#signalClient('SIGKILL');
    }, this.#replyTimeoutMs);
  }

  /** While a call or the attach is pending, the client keeps Node alive; otherwise not. */
  #setKeepAlive(on: boolean): void {
    keepAlive(this.#child, on);
  }

  /**
   * Signal the tmux client, but only once it has attached; true if signalled.
   *
   * Why: tmux 3.3a crashes (the whole server, every session with it) when a control client
   * disconnects after announcing itself as one and before its handshake is done
   * (server_client_lost calls control_stop on a client whose control state does not exist
   * yet; tmux/tmux#5004). Reproduced here: SIGKILL to `tmux -C attach` clients a few ms after
   * they start brought the server down within 200 tries; after the attach, never in 60.
   * Before the attach, the client is only ever ended by stdin EOF, which it acts on after
   * the handshake.
   */
  #signalClient(signal: NodeJS.Signals): boolean {
    if (!this.#isAttached) return false;
    this.#child.kill(signal);
    return true;
  }

  #closedError(label: string): TmuxCommandError {
    return closedError(this.#closedInfo, this.#closedKind, this.#stderr, label);
  }

  /** The client is over: record why (first reason wins), fail everything pending. */
  #finish(closed: ControlClosed, kind?: TmuxCommandError['kind']): void {
    if (this.#closedInfo) return;
    if (this.#closing) {
      this.#closedInfo = {reason: 'closed', detail: 'the control client was closed'};
      this.#closedKind = 'other';
    } else {
      this.#closedInfo = closed;
      // What callers learn from the kind: the server is unreachable (no-server), or this
      // client is unusable while tmux may be fine (other: hung, lagging, closed).
      this.#closedKind =
        kind ??
        (closed.reason === 'unresponsive' ? 'other' : classifyOr(this.#stderr, 'no-server'));
    }
    clearTimeout(this.#replyTimer);
    clearTimeout(this.#startTimer);
    this.#pending.failAll((label) => this.#closedError(label));
    this.#rejectAttached(this.#closedError('attach-session'));
    this.#setKeepAlive(false);
    this.#resolveClosed(this.#closedInfo);
  }
}
