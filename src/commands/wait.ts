import {PROFILES} from '../agents/registry.js';
import {isShellPane} from '../agents/shell.js';
import {realClock} from '../base/clock.js';
import {parseDuration, parseInteger} from '../base/durations.js';
import {EXIT_CODES, type ExitCode, NudgeError} from '../base/errors.js';
import {createWatcher} from '../detect/conditions.js';
import {compileRegex, describeUntil, parseUntil} from '../detect/until.js';
import {waitUntil} from '../detect/wait-until.js';
import {createSpawnRunner, TmuxCommandError} from '../tmux/runner.js';
import {resolveServerSpec} from '../tmux/server.js';
import {createTmux} from '../tmux/tmux.js';
import {cursorRow} from '../tmux/view.js';
import type {CommandContext} from './context.js';
import {checkUntilFits, resolvePane} from './submit.js';

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
  json?: boolean | undefined;
}

/** Seconds for people: `2.4s` under ten seconds, whole seconds above. */
function seconds(ms: number): string {
  return ms < 10_000 ? `${(ms / 1000).toFixed(1)}s` : `${Math.round(ms / 1000)}s`;
}

/**
 * `nudge wait [PANE]`: block until the pane is idle by `--until` (default stable) or the
 * timeout passes. Nothing is typed, so there is no reaction to wait for: a pane that is
 * already idle is idle after the first few checks.
 */
export async function waitForIdle(o: WaitOptions, ctx: CommandContext): Promise<ExitCode> {
  const until = parseUntil(o.until ?? 'stable');
  if (until.kind === 'exit') {
    throw new NudgeError(
      'bad-until',
      '--until exit needs a command typed by nudge submit; nudge wait can use stable, regex: or prompt.',
    );
  }
  const timeoutMs = parseDuration(o.timeout ?? '10m', '--timeout');
  const intervalMs = parseDuration(o.interval ?? '1s', '--interval');
  if (intervalMs < 10)
    throw new NudgeError(
      'bad-duration',
      `--interval must be at least 10ms, got ${JSON.stringify(o.interval)}.`,
    );
  const stableChecks = parseInteger(o.stableChecks ?? 3, '--stable-checks', 1, 1000);
  const lines = parseInteger(o.lines ?? 100, '--lines', 1, 100_000);
  const ignore = [...(o.ignore ?? [])];
  for (const i of ignore) compileRegex(i, '--ignore');

  const spec = resolveServerSpec({socketName: o.socketName, socketPath: o.socketPath}, ctx.env);
  const {info} = await resolvePane(spec, o.pane, ctx.env, 'PANE');
  // A shell's pane stays a shell's pane while a command runs in it (liveness, prompt).
  const shellPane = isShellPane(info);
  checkUntilFits(until, info, shellPane ? PROFILES.shell : undefined);
  const tmux = createTmux(createSpawnRunner(spec));
  const started = Date.now();
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
    });
    const waited = await waitUntil(tmux, info.paneId, watcher, {
      intervalMs,
      timeoutMs,
      clock: realClock,
      signal: ctx.signal,
    });
    const elapsed = Date.now() - started;
    const idle = waited.status === 'done';
    if (o.json) {
      const v = waited.verdict;
      ctx.stdout(
        JSON.stringify({
          status: idle ? 'idle' : 'timeout',
          pane: info.paneId,
          until: describeUntil(until),
          duration_ms: elapsed,
          ...(v.status === 'done' && v.match !== undefined ? {match: v.match, line: v.line} : {}),
        }),
      );
    } else {
      ctx.stdout(
        idle
          ? `idle after ${seconds(elapsed)}`
          : `Timeout: ${info.paneId} still active after ${seconds(elapsed)}`,
      );
    }
    return idle ? EXIT_CODES.ok : EXIT_CODES.timeout;
  } catch (error) {
    if (
      error instanceof TmuxCommandError &&
      (error.kind === 'no-target' || error.kind === 'no-server')
    ) {
      throw new NudgeError(
        'pane-gone',
        `Pane ${info.paneId} closed while waiting for it to be idle.`,
      );
    }
    if (error instanceof Error && error.name === 'AbortError')
      throw new NudgeError('interrupted', 'Interrupted while waiting.');
    throw error;
  }
}
