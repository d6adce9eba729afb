import {HOOK_CALLS_FOLDER, type HookCall, readHookCalls} from '../agents/hook-calls.js';
import {soundStateFolder} from '../base/paths.js';
import {type Check, ok, warn} from './check.js';

/** How far back `doctor` counts hook calls. */
const RECENT_MS = 24 * 60 * 60 * 1000;

/**
 * `doctor`'s lines on the agents' hooks (src/verbs/hook.ts): one per hook called in the last
 * day — when it last ran and for which pane, how many of its calls proved their pane and how
 * many were refused (each call counted), and, where some were refused, the one thing that fixes
 * it. Nothing when no hook ran.
 */
export async function checkHookHealth(
  env: Record<string, string | undefined>,
  nowMs: number,
): Promise<Check[]> {
  const dir = soundStateFolder(env, HOOK_CALLS_FOLDER);
  if (dir === undefined) return [];
  const bySource = new Map<string, HookCall[]>();
  for (const call of await readHookCalls(dir, nowMs - RECENT_MS)) {
    bySource.set(call.source, [...(bySource.get(call.source) ?? []), call]);
  }
  return [...bySource]
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([source, calls]) => {
      const last = calls.at(-1) as HookCall;
      const side = calls.filter((c) => c.side);
      const refused = calls.filter((c) => !c.proven && !c.side);
      const proved = calls.length - refused.length - side.length;
      const sides =
        side.length > 0 ? `, ${side.length} from side threads no pane shows (not marked)` : '';
      const when = new Date(last.atMs).toISOString();
      const where = last.pane ? ` in ${last.pane}` : '';
      const counts = `in the last day ${calls.length} ${calls.length === 1 ? 'call' : 'calls'}: ${proved} proved their pane${sides}, ${refused.length} refused`;
      if (refused.length === 0)
        return ok('hooks', `${source}: last call ${when}${where}; ${counts}.`);
      const newest = refused.at(-1) as HookCall;
      return warn(
        'hooks',
        `${source}: last call ${when}${where}; ${counts} and recorded no mark (the newest: ${newest.why ?? 'its pane could not be proven'}).`,
        fixFor(newest.why ?? ''),
      );
    });
}

/** The one command or setting that mends a refused call, by its cause. */
function fixFor(why: string): string {
  if (/\$TMUX is unset/.test(why))
    return 'Start the agent from a tmux pane with $TMUX kept in its environment (the launcher that starts it strips it).';
  if (/runs under the codex server/.test(why))
    return 'Run nudge install codex and restart Codex: it has each session show its thread id in its title ([tui] terminal_title), which names its pane (or run codex --no-daemon): docs/agents.md, "Which pane a call comes from".';
  if (/runs under the opencode server/.test(why))
    return 'Run a plain opencode rather than attach to a shared server: docs/agents.md, "Which pane a call comes from".';
  return 'Jobs there wait on the screen alone; docs/agents.md, "Which pane a call comes from", says how each agent is tied to its pane.';
}
