/**
 * The map of src/ (CONTRIBUTING.md's import table): which folder may import which. The
 * architecture test holds the code to it; the submit-path test reads a layer as higher than
 * another when it may import it, directly or through others.
 */

/** The folders a space-separated list names. */
const folders = (list: string): string[] => list.split(' ');

/** Which folder of src/ may import which (besides its own files). */
export const MAY_IMPORT: Record<string, readonly string[]> = {
  base: [],
  tmux: folders('base process'),
  process: folders('base'),
  locks: folders('base tmux process'),
  agents: folders('base tmux locks'),
  detect: folders('base tmux agents process'),
  pane: folders('base tmux agents detect locks process'),
  notify: folders('base tmux process agents'),
  remote: folders('base process locks'),
  /** The agents' own doors for a notice (Claude Code's inbox). */
  doors: folders('base agents process'),
  /** An agent's own record of its turns (`nudge ask`, a notice's `{reply}`). */
  records: folders('base agents process doors'),
  /** What a job may be asked: one row per flag (its words, help, default, stored type and
   * reader), the stored options derived from the rows, and the policies' values. */
  'job-options': folders('base tmux agents detect pane notify'),
  /** The contract both ends of a job read: its request, record, store, states, events. */
  jobs: folders('base tmux agents detect pane locks process notify doors records job-options'),
  /** The status bar: what tmux shows of each pane's jobs. */
  'status-bar': folders('base tmux locks jobs'),
  /** The front half of a submission (submit, ask, the MCP tool): flags to a queued job. */
  submit: folders('base tmux agents detect pane locks process notify jobs job-options'),
  /** The job worker's half: the lock, the typing, the wait, the notice. */
  'job-worker': folders(
    'base tmux agents detect pane locks process notify doors records jobs status-bar job-options',
  ),
  /** One waiter per server, waiting for many jobs. */
  waiter: folders('base tmux locks process jobs job-options'),
  watch: folders(
    'base tmux agents detect pane jobs job-worker submit locks process notify job-options',
  ),
  /** doors: Claude Code's session records name a run's session; setup: the schedules a
   * recovery marks again. */
  runs: folders(
    'base tmux agents detect pane jobs job-worker locks process notify doors setup records job-options',
  ),
  setup: folders('base agents process'),
  verbs: folders(
    'base doors tmux agents detect pane jobs submit status-bar locks process watch runs setup notify remote records job-options',
  ),
  relay: folders('base jobs remote'),
  /** Where a command runs (dispatch), between the front ends and the verbs. */
  front: folders('base verbs jobs submit pane process relay remote setup watch job-options'),
  /** The kinds of detached worker, each its work and where its failures go. */
  worker: folders(
    'base agents verbs front jobs job-worker waiter notify process relay runs tmux watch',
  ),
  /** What a person reads: each command's typed result as lines (or its JSON). */
  render: folders('base verbs front jobs status-bar relay remote watch'),
  /** Each command declared once: its words, options, verb, renderer and MCP tool. */
  declare: folders('base verbs front process render job-options'),
  mcp: folders('base verbs front declare'),
  cli: folders(
    'declare render base tmux agents verbs front jobs submit status-bar relay watch mcp remote setup process job-options',
  ),
};

/** Whether folder `a` is above folder `b`: it may import it, directly or through others. */
export function above(a: string, b: string): boolean {
  const seen = new Set<string>();
  const todo = [...(MAY_IMPORT[a] ?? [])];
  while (todo.length > 0) {
    const next = todo.pop() ?? '';
    if (next === b) return true;
    if (seen.has(next)) continue;
    seen.add(next);
    todo.push(...(MAY_IMPORT[next] ?? []));
  }
  return false;
}
