/**
 * How an agent is started again into an earlier conversation (`nudge recover`), as profile
 * data: its resume words, and where a run's session id comes from when it starts.
 */

/** Where a run's agent session id comes from: Claude Code's session records (its
 * `sessions/<pid>.json`, else the newest transcript of the folder in `projects/`), Codex's
 * rollout files (`sessions/YYYY/MM/DD/rollout-*.jsonl`, the one of the run's folder), or an id
 * nudge chooses and gives the program as it starts (`startArgs`). */
export const SESSION_SOURCES = ['claude-sessions', 'codex-rollouts', 'chosen'] as const;
export type SessionSource = (typeof SESSION_SOURCES)[number];

/** The form of a session id nudge accepts (uuid-like: no character a shell reads). */
export const SESSION_ID = /^[A-Za-z0-9][A-Za-z0-9._-]{0,127}$/;

/** The words of `words` with `{session}` replaced by the id. */
export function withSession(words: readonly string[], session: string): string[] {
  return words.map((w) => w.replaceAll('{session}', session));
}
