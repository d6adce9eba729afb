import {PROFILES} from '../agents/registry.js';
import {isShellPane} from '../agents/shell.js';
import {parseDuration, parseInteger} from '../base/durations.js';
import {NudgeError} from '../base/errors.js';
import {checkUntilFits, createWatcher} from '../detect/conditions.js';
import {compileRegex, describeUntil, parseUntil} from '../detect/until.js';
import {waitUntil} from '../detect/wait-until.js';
import {ForegroundWatch} from '../detect/watchers.js';
import {resolvePane, watchError} from '../pane/target.js';
import {resolveServerSpec} from '../tmux/server.js';
import {cursorRow} from '../tmux/view.js';
import type {CommandContext} from './context.js';

/** Options of `nudge wait [PANE]`. */
export interface WaitOptions {
  pane?: string | undefined;
  until?: string | undefined;
  timeout?: string | number | undefined;
  interval?: string | number | undefined;
  stableChecks?: string | number | undefined;
  ignore?: readonly string[] | undefined;
  lines?: string | number | undefined;
  socketName?: string | undefined;
  socketPath?: string | undefined;
}

/** Defaults of `nudge wait` (the CLI shows these in --help). */
export const WAIT_DEFAULTS = {
  until: 'stable',
  timeout: '10m',
  interval: '1s',
  stableChecks: '3',
  lines: '100',
} as const;

/** What `nudge wait` found. */
export interface WaitResult {
  status: 'idle' | 'timeout';
  pane: string;
  until: string;
  durationMs: number;
  /** Why it is idle (`idle`, `idle: waiting for input (python3)`), or, on a timeout, why
   * not (`still running: sleep`, `the screen is still changing`). */
  reason: string;
  /** Set when /proc cannot say whether the foreground waits for input (liveness then
   * decides as before). */
  inputState?: string;
  /** `--until regex:`: what matched, on which line. */
  match?: string;
  line?: string;
}

/**
 * `nudge wait [PANE]`: block until the pane is idle by `--until` (default stable) or the
 * timeout passes. Nothing is typed, so there is no reaction to wait for: a pane that is
 * already idle is idle after the first few checks.
 */
export async function waitForIdle(o: WaitOptions, ctx: CommandContext): Promise<WaitResult> {
  const until = parseUntil(o.until ?? WAIT_DEFAULTS.until);
  if (until.kind === 'exit') {
    throw new NudgeError(
      'bad-until',
      '--until exit needs a command typed by nudge submit; nudge wait can use stable, regex: or prompt.',
    );
  }
  const timeoutMs = parseDuration(o.timeout ?? WAIT_DEFAULTS.timeout, '--timeout');
  const intervalMs = parseDuration(o.interval ?? WAIT_DEFAULTS.interval, '--interval');
  if (intervalMs < 10)
    throw new NudgeError(
      'bad-duration',
      `--interval must be at least 10ms, got ${JSON.stringify(o.interval)}.`,
    );
  const stableChecks = parseInteger(
    o.stableChecks ?? WAIT_DEFAULTS.stableChecks,
    '--stable-checks',
    1,
    1000,
  );
  const lines = parseInteger(o.lines ?? WAIT_DEFAULTS.lines, '--lines', 1, 100_000);
  const ignore = [...(o.ignore ?? [])];
  for (const i of ignore) compileRegex(i, '--ignore');

  const spec = resolveServerSpec({socketName: o.socketName, socketPath: o.socketPath}, ctx.env);
  const tmux = ctx.tmux(spec);
  const {info} = await resolvePane(tmux, spec, o.pane, ctx.env, 'PANE');
  // A shell's pane stays a shell's pane while a command runs in it (liveness, prompt).
  const shellPane = isShellPane(info);
  checkUntilFits(until, info, shellPane ? PROFILES.shell : undefined);
  const started = ctx.clock.now();
  let unknown: string | undefined;
  const foreground = new ForegroundWatch(
    () => ctx.foreground.inputState(info.panePid),
    (why) => {
      unknown = why;
    },
  );
  try {
    const entry = await tmux.view(info.paneId, 0);
    const watcher = createWatcher(until, {
      stableChecks,
      ignore,
      baselineKey: undefined,
      graceChecks: 0,
      paneCommand: info.currentCommand,
      shellPane,
      profile: shellPane ? PROFILES.shell : undefined,
      mark: {row: cursorRow(entry), col: entry.cursorX},
      lines,
      input: () => foreground.state,
    });
    const waited = await waitUntil(tmux, info.paneId, watcher, {
      intervalMs,
      timeoutMs,
      clock: ctx.clock,
      signal: ctx.signal,
      foreground,
    });
    const v = waited.verdict;
    return {
      status: waited.status === 'done' ? 'idle' : 'timeout',
      pane: info.paneId,
      until: describeUntil(until),
      durationMs: ctx.clock.now() - started,
      reason: v.status === 'pending' ? v.why : v.status === 'done' ? (v.why ?? 'idle') : 'failed',
      ...(unknown === undefined ? {} : {inputState: `unknown: ${unknown}`}),
      ...(v.status === 'done' && v.match !== undefined ? {match: v.match, line: v.line} : {}),
    };
  } catch (error) {
    throw watchError(error, info.paneId, 'waiting for it to be idle');
  }
}
