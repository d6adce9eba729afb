import {baseName, type Profile, RULE_LINE, type TurnEnd} from './profile.js';

/** Claude Code's screen, as measured (docs/agent-screens.md). */
export const claude: Profile = {
  name: 'claude',
  // One Escape closes a picker and only shows "Esc again to clear"; C-u empties the
  // composer. (Two Escapes within ~1 s clear it too, or open the history with text.)
  clearKeys: [['Escape'], ['C-u']],
  // Measured (docs/agent-screens.md): Enter submitted 6/6 even at 0 ms after typed or
  // pasted text, in every cadence tried; a small margin all the same.
  minEnterDelayMs: 150,
  // "@" opens the file picker, which completes the word and takes the Enter.
  pasteWhen: /@/,
  composerLine: /^([❯>!]) ?(.*)$/,
  // `!` at the start enters bash mode (composer `! `, footer `! for shell mode`); Backspace
  // on the empty composer leaves it (measured: C-u keeps it).
  inputModes: {'!': {name: 'bash mode', leaveKeys: [['BSpace']]}},
  shellPrefix: '!',
  promptEcho: /^❯ (.*)$/,
  shellEcho: /^! (.*)$/,
  placeholders: [/^Press up to edit queued messages$/, /^Try ".*"$/],
  ruleLine: RULE_LINE,
  // The retry line reads `· Retrying in 5s` up to 2.1.2xx and `· retrying in 5s` in 2.1.331.
  busy: [/esc to interrupt/, /· [Rr]etrying in \d+s/],
  // A message sent while Claude works: 2.1.197 keeps it out of the transcript and shows
  // `Press up to edit queued messages` in the composer; 2.1.331 echoes it (`❯ text`) with
  // `⎿  Queued · ctrl+x ctrl+s to send now` under it.
  queued: /Press up to edit queued messages|⎿\s+Queued · /,
  // The footer has `? for shortcuts` in the modes that ask; in auto mode (the default from
  // 2.1.283) it reads `⏵⏵ auto mode on (shift+tab to cycle)` instead.
  screen: /Claude Code v\d|\? for shortcuts · ← for agents|⏵⏵ auto mode on/,
  commands: /^claude$/,
  // Measured (2.1.197, model server; test/fixtures/screens/claude-permission-*.txt): a tool
  // call not allowed by the settings asks `Do you want to proceed?` (Bash) or `Do you want to
  // create hello.txt?` (Write) over `❯ 1. Yes`; Escape answers no ("User rejected", the turn
  // ends at the idle composer). The folder-trust dialog: Escape exits Claude Code.
  permissionDialogs: [
    {
      kind: 'tool',
      question: /^\s*(Do you want to .+\?)\s*$/,
      firstOption: /^\s*❯?\s*1\. Yes\b/,
      denyKeys: [['Escape']],
    },
    {
      kind: 'trust',
      question: /(Is this a project you created or one you trust\?)/,
      firstOption: /^\s*❯?\s*1\. Yes, I trust this folder/,
      denyKeys: [['Escape']],
    },
  ],
  launch: 'claude',
  measuredOn: {
    composerLine: '2.1.197, 2.1.331',
    promptEcho: '2.1.197, 2.1.331',
    busy: '`esc to interrupt`: 2.1.197, 2.1.331; `· Retrying in Ns`: 2.1.197; `· retrying in Ns`: 2.1.331',
    queued: '`Press up to edit queued messages`: 2.1.197; `⎿  Queued · …`: 2.1.331',
    screen:
      '`Claude Code v…`: 2.1.197, 2.1.331; `? for shortcuts`: 2.1.197, and 2.1.331 outside auto mode; `⏵⏵ auto mode on`: 2.1.331 (auto mode, the default from 2.1.283)',
    commands:
      '`claude`, `claude.exe` (npm): 2.1.197, 2.1.331; `…/claude/versions/<version>`: the native installer',
    permissionDialogs: '2.1.197',
  },
};

/** Whether a word of a command line is Claude Code's executable or package script. */
export function isClaudeProgram(word: string): boolean {
  // The npm package's bin/claude.exe, or the native installer's versions/<version> binary.
  return (
    /^claude(\.exe)?$/.test(baseName(word)) ||
    word.includes('/@anthropic-ai/claude-code/') ||
    /\/claude\/versions\/\d+\.\d+\.\d+$/.test(word)
  );
}

/** Claude Code's Stop hook (JSON on stdin) as a finished turn: every call is one. */
export function claudeStopTurn(input: Record<string, unknown> | undefined): TurnEnd {
  return typeof input?.session_id === 'string' ? {session: input.session_id} : {};
}
