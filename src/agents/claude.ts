import type {TurnEnd} from './identity.js';
import type {DialogKind} from './profile.js';
import {claudeWork} from './work.js';

// Claude Code's profile is data (data/agents/claude.toml); what stays code is how its turn-end
// hook's payload reads.

/** Claude Code's Stop hook (JSON on stdin) as a finished turn: every call is one, with the
 * work it says still runs (src/agents/work.ts). */
export function claudeStopTurn(input: Record<string, unknown> | undefined): TurnEnd {
  const work = claudeWork(input);
  return {
    ...(typeof input?.session_id === 'string' ? {session: input.session_id} : {}),
    ...(work ? {work} : {}),
  };
}

/** Claude Code's Notification hook (JSON on stdin) as "waits for a person": a permission prompt
 * (`notification_type: permission_prompt`) or an MCP server's question (`elicitation_dialog`);
 * undefined for the others (`idle_prompt`: a minute without input). */
export function claudeNeedsPerson(
  input: Record<string, unknown> | undefined,
): {kind: DialogKind; message: string} | undefined {
  const message = typeof input?.message === 'string' ? input.message : '';
  switch (input?.notification_type) {
    case 'permission_prompt':
      return {kind: 'permission', message};
    case 'elicitation_dialog':
      return {kind: 'question', message};
    default:
      return undefined;
  }
}
