/**
 * Where a program records each turn's reply, as profile data (`replies` in data/agents/*.toml):
 * the format of its record, read by src/records/ for `nudge ask` and a notice's `{reply}`.
 */
export const RECORD_FORMATS = [
  'claude-transcript',
  'qwen-chat',
  'gemini-chat',
  'codex-rollout',
  'pi-session',
  'copilot-events',
] as const;
export type RecordFormat = (typeof RECORD_FORMATS)[number];
