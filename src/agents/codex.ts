import type {TurnEnd} from './profile.js';

// Codex CLI's profile is data (data/agents/codex.toml); what stays code is how its turn-end
// hook's payload reads.

/** Codex's `notify` program gets one JSON argument per event; only a finished turn counts. */
export function codexNotifyTurn(input: Record<string, unknown> | undefined): TurnEnd | undefined {
  if (input?.type !== 'agent-turn-complete') return undefined;
  return typeof input['thread-id'] === 'string' ? {session: input['thread-id']} : {};
}
