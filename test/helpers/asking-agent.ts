// The stand-in agent that stops for a person (test/fixtures/asking-agent.mjs), as a profile
// file of the user's: the tests of `blocked`, the status bar and `top` use it.

/** The stand-in agent, described as a user describes a program nudge does not ship. */
export const ASKER_PROFILE = [
  "name = 'asker'",
  "kind = 'agent'",
  "clearKeys = [['C-u']]",
  'minEnterDelayMs = 100',
  "composerLine = '^(❯) ?(.*)$'",
  "ruleLine = '^─{20,}$'",
  "promptEcho = '^» (.*)$'",
  "busy = ['esc to interrupt']",
  "programs = ['(^|/)asking-agent\\.mjs$']",
  '',
  '[[dialogs]]',
  "kind = 'permission'",
  "question = '^│\\s*(Do you want to proceed\\?)'",
  "firstOption = '❯ 1\\. Yes'",
  "denyKeys = [['Escape']]",
  '',
  '[[dialogs]]',
  "kind = 'limit'",
  "question = '(You.ve hit your limit.*)'",
  "resets = 'resets (.+)$'",
  '',
].join('\n');
