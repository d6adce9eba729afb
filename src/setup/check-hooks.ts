import {readdir, readFile} from 'node:fs/promises';
import {join} from 'node:path';
import type {RefusedMark} from '../agents/hook-marks.js';
import {soundStateFolder} from '../base/paths.js';
import {type Check, warn} from './check.js';

/** How far back `doctor` looks for hooks that could not prove their pane. */
const RECENT_MS = 24 * 60 * 60 * 1000;

/**
 * A `doctor` line when an agent's hook ran in the last day with a `$TMUX_PANE` it could not
 * prove (src/verbs/hook.ts): no turn-end mark was recorded for that pane, so a job waiting
 * there for the agent's prompt reads the screen alone. Nothing when there was none.
 */
export async function checkRefusedHooks(
  env: Record<string, string | undefined>,
  nowMs: number,
): Promise<Check[]> {
  const dir = soundStateFolder(env, 'marks');
  if (dir === undefined) return [];
  const names = await readdir(dir).catch(() => [] as string[]);
  const recent: RefusedMark[] = [];
  for (const name of names.filter((n) => n.endsWith('.refused.json'))) {
    try {
      const mark = JSON.parse(await readFile(join(dir, name), 'utf8')) as RefusedMark;
      if (nowMs - mark.atMs < RECENT_MS) recent.push(mark);
    } catch {
      // a file being replaced, or not ours: skip it
    }
  }
  const last = recent.sort((a, b) => b.atMs - a.atMs)[0];
  if (!last) return [];
  return [
    warn(
      'hooks',
      `${recent.length} turn-end or needs-a-person hook call(s) in the last day could not prove their pane and recorded nothing; the newest (${last.source}, ${new Date(last.atMs).toISOString()}) said it ran in ${last.claimed}, but ${last.why}.`,
      'Jobs there wait on the screen alone; to have the marks again, run the agent so its hooks run in its own pane (codex --no-daemon or [features] daemon_auto_start = false; a plain opencode rather than attach: docs/agents.md, "Which pane a call comes from").',
    ),
  ];
}
