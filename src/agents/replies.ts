/**
 * Where a program records each turn's reply, as profile data (`replies` in data/agents/*.toml):
 * the format of its record, read by src/records/ for `nudge ask` and a notice's `{reply}`
 * (`opencode-server`: the session's messages as opencode's own server gives them).
 */
export const RECORD_FORMATS = [
  'claude-transcript',
  'qwen-chat',
  'gemini-chat',
  'codex-rollout',
  'pi-session',
  'copilot-events',
  'opencode-server',
] as const;
export type RecordFormat = (typeof RECORD_FORMATS)[number];
