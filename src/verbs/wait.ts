import {hookMarkSource} from '../agents/hook-marks.js';
import {parseDuration, parseInteger} from '../base/durations.js';
import {NudgeError} from '../base/errors.js';
import type {OptionsOf, SERVER_OPTIONS} from '../base/option-table.js';
import {resolveStateDir} from '../base/paths.js';
import {compileRegex, parseUntil} from '../detect/until.js';
import {withSessionNeeds} from '../doors/session-needs.js';
import {followToRung, type RungFollowed} from '../jobs/follow.js';
import {checkJobReach} from '../jobs/job-reach.js';
import {WAITABLE_RUNGS, type WaitableRung} from '../jobs/receipts.js';
import {JobStore} from '../jobs/store.js';
import {reachablePane, watchError} from '../pane/target.js';
import {type PaneIdleResult, type WaitIdleOptions, waitPaneIdle} from '../pane/wait-idle.js';
import {type ManyIdleResult, type ManyMode, waitMany} from '../pane/wait-many.js';
import {systemTree} from '../process/tree.js';
import type {CommandContext} from './context.js';
import {WAIT_OPTIONS} from './options/wait.js';

/** What `nudge wait` takes: its table (and the server's flags), and its panes (none: the
 * caller's own). */
export type WaitOptions = OptionsOf<typeof WAIT_OPTIONS & typeof SERVER_OPTIONS> & {
  panes?: readonly string[] | undefined;
};

/** Defaults of `nudge wait` (the CLI shows these in --help). */
export const WAIT_DEFAULTS = {
  until: WAIT_OPTIONS.until.default,
  timeout: WAIT_OPTIONS.timeout.default,
  interval: WAIT_OPTIONS.interval.default,
  stableChecks: WAIT_OPTIONS['stable-checks'].default,
  lines: WAIT_OPTIONS.lines.default,
} as const;

/** What `nudge wait` found: one pane's verdict, (several panes) how many were idle, or (a
 * job) whether its message reached the rung waited for. */
export type WaitResult = PaneIdleResult | ManyIdleResult | RungWaitResult;

/** `nudge wait --job J --until RUNG`: where the job's message got to. */
export interface RungWaitResult extends RungFollowed {
  job: string;
  until: WaitableRung;
  durationMs: number;
}

/** `--until` with `--job`: a rung of the receipts (`answered`: the turn ended). */
function rungOf(until: string | undefined): WaitableRung {
  const given = until === undefined || until === WAIT_DEFAULTS.until ? 'turn-ended' : until;
  const rung = given === 'answered' ? 'turn-ended' : given;
  if ((WAITABLE_RUNGS as readonly string[]).includes(rung)) return rung as WaitableRung;
  throw new NudgeError(
    'bad-until',
    `--until ${JSON.stringify(until)} is not a rung a job's message can be waited to: with --job, --until takes ${WAITABLE_RUNGS.join(', ')} or answered.`,
  );
}

/** Wait for a job's message to reach a rung of its receipts (src/jobs/receipts.ts). */
async function waitForRung(o: WaitOptions, ctx: CommandContext): Promise<RungWaitResult> {
  const until = rungOf(o.until);
  if ((o.panes ?? []).length > 0)
    throw new NudgeError('bad-usage', 'Give a pane or --job, not both.');
  const timeoutMs = parseDuration(o.timeout ?? WAIT_DEFAULTS.timeout, '--timeout');
  const job = o.job ?? '';
  await checkJobReach(job, ctx);
  const handle = await new JobStore(resolveStateDir(ctx.env)).open(job);
  const start = ctx.clock.now();
  const followed = await followToRung(handle, until, timeoutMs, ctx);
  return {job: handle.id, until, ...followed, durationMs: ctx.clock.now() - start};
}

export type {ManyIdleResult, PaneIdleResult};

/**
 * `nudge wait [PANE..]`: block until the pane is idle by `--until` (default stable) or the
 * timeout passes. Nothing is typed, so there is no reaction to wait for: a pane that is
 * already idle is idle after the first few checks. Given several panes, each is waited on at
 * once, until the first is idle (`--any`), all are (`--all`, the default), or `--count N`.
 */
export async function waitForIdle(o: WaitOptions, ctx: CommandContext): Promise<WaitResult> {
  if (o.job !== undefined) return waitForRung(o, ctx);
  const judged = judgingOptions(o);
  const panes = o.panes ?? [];
  const mode = manyMode(o, Math.max(1, panes.length));
  if (panes.length <= 1) return waitOne({...o, pane: panes[0]}, judged, ctx, ctx.signal);
  // Every pane found and in reach before any wait starts: a bad one fails the call at once.
  const targets = new Map<string, Awaited<ReturnType<typeof reachablePane>>>();
  for (const pane of panes) targets.set(pane, await reachablePane({...o, pane}, ctx));
  return waitMany(
    panes,
    mode,
    (pane, signal) => waitOne({...o, pane}, judged, ctx, signal, targets.get(pane)),
    {signal: ctx.signal, now: () => ctx.clock.now()},
  );
}

/** How the verdicts are judged, from the options (each checked: one sentence when bad). */
function judgingOptions(o: WaitOptions): Omit<WaitIdleOptions, 'unknownEnds'> {
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
  return {until, intervalMs, timeoutMs, stableChecks, ignore, lines};
}

/** `--any`, `--all` or `--count N` (one of them; all by default), for `panes` panes. */
export function manyMode(
  o: {any?: boolean | undefined; all?: boolean | undefined; count?: string | number | undefined},
  panes: number,
): ManyMode {
  const given = [o.any && '--any', o.all && '--all', o.count !== undefined && '--count'].filter(
    Boolean,
  );
  if (given.length > 1)
    throw new NudgeError(
      'bad-usage',
      `Give one of --any, --all and --count, not ${given.join(' and ')}.`,
    );
  if (o.count !== undefined) {
    const count = parseInteger(o.count, '--count', 1, 1000);
    if (count > panes)
      throw new NudgeError(
        'bad-usage',
        `--count ${count} needs at least ${count} panes, got ${panes}; name more panes or ask for fewer.`,
      );
    return {kind: 'count', count};
  }
  return o.any ? {kind: 'any'} : {kind: 'all'};
}

/** One pane's wait (its pane found and in reach first, unless `target` is given). */
async function waitOne(
  o: WaitOptions & {pane?: string | undefined},
  judged: Omit<WaitIdleOptions, 'unknownEnds'>,
  ctx: CommandContext,
  signal: AbortSignal,
  target?: Awaited<ReturnType<typeof reachablePane>>,
): Promise<PaneIdleResult> {
  const {tmux, info} = target ?? (await reachablePane(o, ctx));
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
            now: () => ctx.clock.wall(),
          },
        ),
      },
      info,
      {...judged, unknownEnds: true},
      signal,
    );
  } catch (error) {
    throw watchError(error, info.paneId, 'waiting for it to be idle');
  }
}
