import type {TurnEnd} from './identity.js';

// Codex CLI's profile is data (data/agents/codex.toml); what stays code is how its turn-end
// hook's payload reads.

/** Codex's `notify` program gets one JSON argument per event; only a finished turn counts. */
export function codexNotifyTurn(input: Record<string, unknown> | undefined): TurnEnd | undefined {
  if (input?.type !== 'agent-turn-complete') return undefined;
  const given = input['input-messages'];
  const inputs = Array.isArray(given)
    ? given.filter((m): m is string => typeof m === 'string')
    : [];
  return {
    ...(typeof input['thread-id'] === 'string' ? {session: input['thread-id']} : {}),
    ...(inputs.length > 0 ? {inputs} : {}),
  };
}
