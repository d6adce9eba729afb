import type {TurnEnd} from './identity.js';
import type {DialogKind} from './profile.js';

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

/** Gemini CLI's Notification hook (JSON on stdin) as "waits for a person": a tool that needs
 * permission (`notification_type: ToolPermission`); undefined for the others. */
export function geminiNeedsPerson(
  input: Record<string, unknown> | undefined,
): {kind: DialogKind; message: string} | undefined {
  if (input?.hook_event_name !== 'Notification' || input.notification_type !== 'ToolPermission')
    return undefined;
  return {kind: 'permission', message: typeof input.message === 'string' ? input.message : ''};
}
