import {baseName, type Profile, RULE_LINE, type TurnEnd} from './profile.js';

/** Gemini CLI's screen, as measured (docs/agent-screens.md). */
export const gemini: Profile = {
  name: 'gemini',
  clearKeys: [['Escape'], ['C-u']],
  // Measured: Enter at 0 ms after typing submitted 1/6 (the rest became part of the
  // text); 100 ms 6/6. After a paste: 100 ms 4/6, 150 ms and more 6/6.
  minEnterDelayMs: 250,
  pasteWhen: /@/,
  // ` > ` normally and in auto-edit and plan modes, ` * ` in YOLO mode, ` ! ` in shell mode.
  composerLine: /^ ([>!*]) {1,3}(.*)$/,
  // Shell mode stays on after a command ran; Escape leaves it (Backspace does not).
  inputModes: {'!': {name: 'shell mode', leaveKeys: [['Escape']]}},
  shellPrefix: '!',
  promptEcho: /^ [>*] (.*)$/,
  shellEcho: /^ \$ (.*)$/,
  placeholders: [/^Type your message or @path\/to\/file$/, /^Type your shell command$/],
  ruleLine: RULE_LINE,
  busy: [/esc to cancel/],
  queued: /Queued \(press ↑ to edit\)/,
  screen:
    /Type your message or @path\/to\/file|Type your shell command|Shift\+Tab to accept edits|shell mode enabled \(esc to disable\)/,
  commands: /^gemini$/,
  // Measured (0.61.0, model server; test/fixtures/screens/gemini-permission-write.txt): a
  // framed `? WriteFile  Writing to hello.txt` … `Apply this change?` over `● 1. Allow once`;
  // Escape (`No, suggest changes (esc)`) answers no ("Request cancelled", idle composer).
  // Shell calls ask `Allow execution of: '…'?` (its source's wording, not measured here).
  // The folder-trust dialog: Escape exits.
  permissionDialogs: [
    {
      kind: 'tool',
      question: /^│\s*(Apply this change\?|Allow execution of.*\?|Do you want to proceed\?)/,
      firstOption: /●\s*1\. Allow/,
      title: /^│ \? (.+?)\s*│$/,
      denyKeys: [['Escape']],
    },
    {
      kind: 'trust',
      question: /^\s*│\s*(Do you trust the files in this folder\?)/,
      firstOption: /●\s*1\. Trust folder/,
      denyKeys: [['Escape']],
    },
  ],
  launch: 'gemini',
  measuredOn: {
    composerLine: '0.61.0',
    promptEcho: '0.61.0',
    busy: '0.61.0',
    queued: '0.61.0',
    inputModes: '0.61.0',
    permissionDialogs: '0.61.0',
  },
};

/** Whether a word of a command line is Gemini CLI's executable or package script. */
export function isGeminiProgram(word: string): boolean {
  return /^gemini(\.js)?$/.test(baseName(word)) || word.includes('/@google/gemini-cli/');
}

/** Gemini CLI's AfterAgent hook (JSON on stdin, `hook_event_name: "AfterAgent"`) as a finished
 * turn. Gemini reads the hook's stdout as JSON: nudge prints nothing. */
export function geminiAfterAgentTurn(
  input: Record<string, unknown> | undefined,
): TurnEnd | undefined {
  if (input?.hook_event_name !== 'AfterAgent') return undefined;
  return typeof input.session_id === 'string' ? {session: input.session_id} : {};
}
