import type {TurnEnd} from './profile.js';

// Gemini CLI's profile is data (data/agents/gemini.toml); what stays code is how its turn-end
// hook's payload reads.

/** Gemini CLI's AfterAgent hook (JSON on stdin, `hook_event_name: "AfterAgent"`) as a finished
 * turn. Gemini reads the hook's stdout as JSON: nudge prints nothing. */
export function geminiAfterAgentTurn(
  input: Record<string, unknown> | undefined,
): TurnEnd | undefined {
  if (input?.hook_event_name !== 'AfterAgent') return undefined;
  return typeof input.session_id === 'string' ? {session: input.session_id} : {};
}
