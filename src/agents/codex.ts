import {baseName, type Profile, type TurnEnd} from './profile.js';

/** Codex CLI's screen, as measured (docs/agent-screens.md). */
export const codex: Profile = {
  name: 'codex',
  clearKeys: [['Escape'], ['C-u']],
  // Codex treats Enter within 120 ms of a fast burst of keys as a newline. Measured:
  // Enter at 0 ms after one send-keys call submitted 1/6; 100 ms and more 6/6.
  minEnterDelayMs: 200,
  pasteWhen: /@/,
  // `›` normally; `!` in shell mode (footer `Shell mode`), which Backspace on the empty
  // composer leaves.
  composerLine: /^([›!])(?: (.*))?$/,
  inputModes: {'!': {name: 'shell mode', leaveKeys: [['BSpace']]}},
  shellPrefix: '!',
  promptEcho: /^› (.*)$/,
  shellEcho: /^• (?:You ran|Running) (.*)$/,
  notBelowComposer: /^[•◦└] /,
  // Measured (model server): Enter while a turn runs steers it — the request in flight is
  // cut short and sent again with the message; Tab queues it for after the turn.
  queueKey: 'Tab',
  placeholders: [
    /^Ask Codex to do anything$/,
    /^Find and fix a bug in @filename$/,
    /^Improve documentation in @filename$/,
    /^Summarize recent commits$/,
    /^Implement \{feature\}$/,
    /^Explain this codebase$/,
    /^Write tests for @filename$/,
    /^Run \/review on my current changes$/,
    /^Use \/skills to list available skills$/,
  ],
  // `esc to interrupt` shows only until the answer's first words; while they stream the
  // screen looks idle but for two signs (measured, 0.169.0, scripted model streaming): with
  // text in the composer the footer reads `tab to queue message` (never when no turn runs),
  // and the turn is open until its `Worked for Ns • HH:MM` row (turnEnd).
  busy: [/esc to interrupt/, /tab to queue message/],
  // The footer of a Codex still starting, 4-8 s after launch, its composer drawn already.
  starting: [/Waiting for startup/],
  turnEnd: [/^\s*Worked for .*•\s*\d{1,2}:\d{2}/, /^■ /],
  queued: /Queued follow-up inputs|Messages to be submitted after next tool call/,
  screen: /OpenAI Codex|Ask Codex to do anything|\? for shortcuts|tab to queue message|Shell mode/,
  commands: /^codex/,
  // Not measured here (Codex 0.169 with approval_policy "on-request" ran the tests' commands
  // without asking); the wording is Codex's approval overlay as published (`Would you like to
  // run the following command?` over `› 1. Yes, proceed (y)`, `3. No, and tell Codex what to
  // do differently (esc)`).
  permissionDialogs: [
    {
      kind: 'tool',
      question:
        /^\s*(Would you like to (?:run the following command|make the following edits|grant these permissions)\?)/,
      firstOption: /^\s*›?\s*1\. Yes\b/,
      denyKeys: [['Escape']],
    },
  ],
  launch: 'codex',
  measuredOn: {
    composerLine: '0.169.0',
    promptEcho: '0.169.0',
    busy: '`esc to interrupt`, `tab to queue message` (the answer streaming): 0.169.0',
    turnEnd: '0.169.0',
    starting: '0.169.0',
    queued: '0.169.0',
    queueKey: '0.169.0',
    permissionDialogs: 'not measured (published wording)',
  },
};

/** Whether a word of a command line is Codex's executable or package script. */
export function isCodexProgram(word: string): boolean {
  return /^codex(\.js)?$/.test(baseName(word)) || word.includes('/@openai/codex/');
}

/** Codex's `notify` program gets one JSON argument per event; only a finished turn counts. */
export function codexNotifyTurn(input: Record<string, unknown> | undefined): TurnEnd | undefined {
  if (input?.type !== 'agent-turn-complete') return undefined;
  return typeof input['thread-id'] === 'string' ? {session: input['thread-id']} : {};
}
