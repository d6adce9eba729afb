import {hookMarkSource} from '../agents/hook-marks.js';
import {parseDuration, parseInteger} from '../base/durations.js';
import {NudgeError} from '../base/errors.js';
import type {OptionsOf, SERVER_OPTIONS} from '../base/option-table.js';
import {resolveStateDir} from '../base/paths.js';
import {compileRegex, parseUntil} from '../detect/until.js';
import {withSessionNeeds} from '../doors/session-needs.js';
import {reachablePane, watchError} from '../pane/target.js';
import {type PaneIdleResult, waitPaneIdle} from '../pane/wait-idle.js';
import {systemTree} from '../process/tree.js';
import type {CommandContext} from './context.js';
import {WAIT_OPTIONS} from './options/wait.js';

/** What `nudge wait` takes: its table (and the server's flags), and the pane. */
export type WaitOptions = OptionsOf<typeof WAIT_OPTIONS & typeof SERVER_OPTIONS> & {
  pane?: string | undefined;
};

/** Defaults of `nudge wait` (the CLI shows these in --help). */
export const WAIT_DEFAULTS = {
  until: WAIT_OPTIONS.until.default,
  timeout: WAIT_OPTIONS.timeout.default,
  interval: WAIT_OPTIONS.interval.default,
  stableChecks: WAIT_OPTIONS['stable-checks'].default,
  lines: WAIT_OPTIONS.lines.default,
} as const;

/** What `nudge wait` found. */
export type WaitResult = PaneIdleResult;

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

  const {tmux, info} = await reachablePane(o, ctx);
  try {
    return await waitPaneIdle(
      {
        tmux,
        clock: ctx.clock,
        foreground: ctx.foreground,
        hookMarks: withSessionNeeds(
          hookMarkSource(resolveStateDir(ctx.env), {
            socketPath: info.socketPath,
            serverPid: info.serverPid,
          }),
          {
            tree: systemTree,
            env: ctx.env,
            panePidOf: async () => info.panePid,
            now: () => ctx.clock.now(),
          },
        ),
      },
      info,
      {until, intervalMs, timeoutMs, stableChecks, ignore, lines, unknownEnds: true},
      ctx.signal,
    );
  } catch (error) {
    throw watchError(error, info.paneId, 'waiting for it to be idle');
  }
}
