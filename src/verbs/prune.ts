import {configTable} from '../base/config.js';
import {HISTORY_MAX_MS, parseDuration} from '../base/durations.js';
import {NudgeError} from '../base/errors.js';
import type {OptionsOf} from '../base/option-table.js';
import {resolveStateDir} from '../base/paths.js';
import {shownState} from '../jobs/liveness.js';
import {isTerminal} from '../jobs/states.js';
import {JobStore} from '../jobs/store.js';
import type {CommandContext} from './context.js';
import type {JOBS_PRUNE_OPTIONS} from './options/setup.js';

export type JobsPruneOptions = Partial<Omit<OptionsOf<typeof JOBS_PRUNE_OPTIONS>, 'host'>>;

/** What `nudge jobs prune` removed (or, with --dry-run, would remove). */
export interface JobsPruned {
  /** The jobs removed, oldest first. */
  removed: string[];
  /** How many ended jobs were kept (younger than the cut), and how many are not ended. */
  kept: number;
  live: number;
  olderThanMs: number;
  dryRun: boolean;
}

/** How long ended jobs are kept when neither --older-than nor config.toml says. */
const KEEP_DEFAULT = '30d';

/**
 * `nudge jobs prune`: remove the records (state, events, log) of jobs that ended — done,
 * failed, cancelled, timed out, lost — longer ago than `--older-than` (else config.toml's
 * `[jobs] keep`, else 30 days). A job not ended is never removed.
 */
export async function pruneJobs(o: JobsPruneOptions, ctx: CommandContext): Promise<JobsPruned> {
  const olderThanMs =
    o.olderThan !== undefined
      ? parseDuration(o.olderThan, '--older-than', HISTORY_MAX_MS)
      : parseDuration(
          keepSetting(ctx.env) ?? KEEP_DEFAULT,
          "config.toml's jobs.keep",
          HISTORY_MAX_MS,
        );
  const store = new JobStore(resolveStateDir(ctx.env));
  const nowMs = ctx.clock.wall();
  const removed: string[] = [];
  let kept = 0;
  let live = 0;
  for (const r of await store.list()) {
    const state = shownState(r, nowMs);
    if (state !== 'lost' && !isTerminal(state)) {
      live++;
      continue;
    }
    const ended = Date.parse(r.finishedAt ?? r.updatedAt);
    if (!(nowMs - ended > olderThanMs)) {
      kept++;
      continue;
    }
    removed.push(r.id);
    if (!o.dryRun) await store.discard(await store.open(r.id));
  }
  return {removed, kept, live, olderThanMs, dryRun: o.dryRun === true};
}

/** config.toml's `[jobs] keep` (a duration), if set. */
function keepSetting(env: Record<string, string | undefined>): string | undefined {
  const found = configTable(env, 'jobs');
  const keep = found?.table.keep;
  if (keep === undefined) return undefined;
  if (typeof keep !== 'string')
    throw new NudgeError(
      'bad-config',
      `${found?.file}: jobs.keep must be a duration such as "30d".`,
    );
  return keep;
}
