import type {Pattern} from '../base/pattern.js';
import {plainLine} from '../base/sanitize.js';

// "Done" means settled: a turn that ended with work it started still running (a background
// shell, a sub-agent, a one-shot schedule) is not done. What an agent says it left running,
// as its turn-end hook reports it, and whether each piece holds the verdict.

/** A piece of work an agent started that may outlive its turn. */
export interface WorkItem {
  /** What kind: `shell`, `subagent`, `monitor`, `workflow`, `MCP task`, `schedule`, … (the
   * agent's own word). */
  kind: string;
  /** What it runs or is for: its command, else its description (plain text, bounded). */
  what: string;
  /** It serves rather than finishes (a dev server, a recurring schedule): it never holds the
   * verdict and is named as left running. Why, in a few words. */
  service?: string;
}

/** How much of a payload's list is read, and how long each text may be. */
const MAX_ITEMS = 32;
const MAX_TEXT = 200;

function text(value: unknown): string {
  return typeof value === 'string' ? plainLine(value).slice(0, MAX_TEXT) : '';
}

/**
 * The work Claude Code's Stop hook says is still running (2.1.145 and newer):
 * `background_tasks` of status `running` or `pending` (`{type: shell|subagent|monitor|…,
 * description, command?}`; Claude lists only those) and `session_crons` (`{schedule,
 * recurring, prompt}`: a one-shot schedule is work to come, a recurring one serves). Undefined
 * when the payload has neither field (an older Claude Code: the screen decides).
 */
export function claudeWork(input: Record<string, unknown> | undefined): WorkItem[] | undefined {
  const tasks = input?.background_tasks;
  // Qwen Code's Stop, Claude-compatible, names its schedules `crons` (0.24.4).
  const crons = input?.session_crons ?? input?.crons;
  if (!Array.isArray(tasks) && !Array.isArray(crons)) return undefined;
  const items: WorkItem[] = [];
  for (const t of (Array.isArray(tasks) ? tasks : []).slice(0, MAX_ITEMS)) {
    if (!t || typeof t !== 'object') continue;
    const task = t as Record<string, unknown>;
    if (task.status !== 'running' && task.status !== 'pending') continue;
    const kind = text(task.type) || 'task';
    items.push({kind, what: text(task.command) || text(task.description) || kind});
  }
  for (const c of (Array.isArray(crons) ? crons : []).slice(0, MAX_ITEMS)) {
    if (!c || typeof c !== 'object') continue;
    const cron = c as Record<string, unknown>;
    const what = `${text(cron.schedule)} ${text(cron.prompt)}`.trim() || 'a schedule';
    items.push({
      kind: 'schedule',
      what,
      ...(cron.recurring === true ? {service: 'a recurring schedule'} : {}),
    });
  }
  return items;
}

/** Mark the items whose command a profile's `services` patterns call a service. */
export function servicesByPattern(patterns: readonly Pattern[], items: WorkItem[]): WorkItem[] {
  return items.map((item) =>
    item.service === undefined && patterns.some((p) => p.test(item.what))
      ? {...item, service: 'a service command'}
      : item,
  );
}

/** `listening on :5173` (or `:5173, :24678`). */
export function listeningOn(ports: readonly number[]): string {
  return `listening on ${[...new Set(ports)].map((p) => `:${p}`).join(', ')}`;
}

/** The items that hold the verdict (not services). */
export function heldBy(items: readonly WorkItem[]): WorkItem[] {
  return items.filter((i) => i.service === undefined);
}

/** Long commands are cut in the words shown. */
const SHOWN = 40;

function shown(what: string): string {
  return what.length > SHOWN ? `${what.slice(0, SHOWN - 1)}…` : what;
}

function plural(n: number, word: string): string {
  return `${n} ${word}${n === 1 ? '' : 's'}`;
}

/** Work in words: `1 background shell (sleep 20; echo done)`, `2 background tasks: shell
 * (sleep 20), subagent (explore the repo)`. */
export function describeWork(items: readonly WorkItem[]): string {
  const first = items[0];
  if (!first) return 'nothing';
  if (items.length === 1) return `1 background ${first.kind} (${shown(first.what)})`;
  const kinds = new Set(items.map((i) => i.kind));
  const head =
    kinds.size === 1
      ? plural(items.length, `background ${first.kind}`)
      : plural(items.length, 'background task');
  return `${head}: ${items.map((i) => `${i.kind} (${shown(i.what)})`).join(', ')}`;
}

/** Services left running, in words: `1 background service left running: npm run dev,
 * listening on :5173`. */
export function describeServices(items: readonly WorkItem[]): string {
  const services = items.filter((i) => i.service !== undefined);
  if (services.length === 0) return '';
  const each = services.map((s) => `${shown(s.what)}, ${s.service}`).join('; ');
  return `${plural(services.length, 'background service')} left running: ${each}`;
}

/** The agents whose turn-end hook says what still runs (the hook nudge installs for them). */
const WORK_HOOKS: Readonly<Record<string, string>> = {
  claude: "its Stop hook's background_tasks and session_crons (nudge install claude)",
  qwen: "its Stop hook's background_tasks and crons (nudge install qwen; its shells: the footer)",
};

/**
 * Where nudge learns what an agent left running after its turn, best first, in words for
 * `explain` and `doctor`: its turn-end hook, then its footer (`working`); or that it cannot
 * see such work, and what "done" then means.
 */
export function backgroundWorkSeen(profile: {name: string; working?: readonly unknown[]}): string {
  const from = [
    ...(WORK_HOOKS[profile.name] ? [WORK_HOOKS[profile.name]] : []),
    ...(profile.working?.length ? ['its footer (working)'] : []),
  ];
  return from.length > 0
    ? `read from ${from.join(', else ')}; a service (a dev server) does not hold "done"`
    : `not visible for ${profile.name}; done means its turn ended`;
}
