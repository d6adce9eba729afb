import type {TurnEnd} from './profile.js';

// Claude Code's profile is data (data/agents/claude.toml); what stays code is how its turn-end
// hook's payload reads.

/** Claude Code's Stop hook (JSON on stdin) as a finished turn: every call is one. */
export function claudeStopTurn(input: Record<string, unknown> | undefined): TurnEnd {
  return typeof input?.session_id === 'string' ? {session: input.session_id} : {};
}
