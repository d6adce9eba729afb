import {describe, expect, test} from 'vitest';
import {countEchoes, echoKindOf} from '../../../src/agents/echoes.js';
import {isIdle} from '../../../src/agents/idle-screen.js';
import type {Profile} from '../../../src/agents/profile.js';
import {agentOfCommandLine, detectProfile, PROFILES} from '../../../src/agents/registry.js';
import {isBusy, readComposer, readComposerState} from '../../../src/agents/screens.js';
import type {PaneView} from '../../../src/tmux/view.js';
import {capturedAgents, capturedScreen, paneViewOf} from '../../helpers/pane-views.js';

/** A made-up screen: `rows`, the cursor on row `cursorY`. */
function viewOf(rows: string[], cursorY: number, currentCommand = 'node'): PaneView {
  return paneViewOf(rows, {cursorY, cursorX: 0, width: 120, currentCommand});
}

/** The agents whose real screens were captured, a pasted text among them. */
const AGENTS = capturedAgents('pasted');

describe.each(AGENTS)('%s profile on its real screens', (agent) => {
  const p = PROFILES[agent]!;
  test('the idle composer is empty, and idle', () => {
    const v = capturedScreen(`${agent}-idle-empty`);
    expect(readComposer(p, v)).toBe('');
    expect(isBusy(p, v)).toBe(false);
    expect(isIdle(p, v)).toBe(true);
  });
  test('a draft is read back exactly', () => {
    expect(readComposer(p, capturedScreen(`${agent}-draft`))).toBe('refactor the parser please');
  });
  test('busy after a prompt, with the composer still readable', () => {
    const v = capturedScreen(`${agent}-busy`);
    expect(isBusy(p, v)).toBe(true);
    expect(isIdle(p, v)).toBe(false);
    expect(readComposer(p, capturedScreen(`${agent}-busy-draft`))).toBe('and also this follow up');
  });
  test('a pasted text with @ and name.ext is shown exactly', () => {
    expect(readComposer(p, capturedScreen(`${agent}-pasted`))).toBe(
      'look at @notes.txt and main.ts now',
    );
  });
  test('is recognised from its screen when the pane runs node', () => {
    for (const state of ['idle-empty', 'draft', 'busy']) {
      const v = capturedScreen(`${agent}-${state}`);
      expect(detectProfile('node', v.rows.join('\n')).profile.name).toBe(agent);
    }
  });
});

test('detection by command name', () => {
  expect(detectProfile('claude', '').profile.name).toBe('claude');
  expect(detectProfile('codex', '').profile.name).toBe('codex');
  expect(detectProfile('bash', '').profile.name).toBe('shell');
  expect(detectProfile('python3', 'hello').profile.name).toBe('raw');
});

test('a shell input line is read after the prompt', () => {
  const v = (line: string): PaneView => ({
    rows: ['out', line],
    firstRow: 0,
    historySize: 0,
    historyLimit: 2000,
    height: 2,
    width: 80,
    cursorX: line.length,
    cursorY: 1,
    dead: false,
    alternateOn: false,
    currentCommand: 'bash',
  });
  expect(readComposer(PROFILES.shell, v('user@host:~/src$ '))).toBe('');
  expect(readComposer(PROFILES.shell, v('user@host:~/src$ git comm'))).toBe('git comm');
  expect(readComposer(PROFILES.shell, v('no prompt here'))).toBeUndefined();
});

describe.each(capturedAgents('shell-typed'))('%s input modes and transcript echoes', (agent) => {
  const p = PROFILES[agent]!;
  const command = '!echo nudge-$((6*7))';
  test('shell mode is read from the composer, with what is typed in it', () => {
    const typed = readComposerState(p, capturedScreen(`${agent}-shell-typed`));
    expect(typed?.mode?.name).toMatch(/shell mode|bash mode/);
    expect(typed?.text).toBe('echo nudge-$((6*7))');
    expect(echoKindOf(p, command)).toBe('shell');
    expect(echoKindOf(p, 'fix the bug')).toBe('prompt');
  });
  test('after the command: only Gemini stays in shell mode', () => {
    const done = readComposerState(p, capturedScreen(`${agent}-shell-done`));
    expect(done?.text).toBe('');
    expect(done?.mode !== undefined).toBe(agent === 'gemini');
    // and idle: a shell-mode command is not a turn left open.
    expect(isIdle(p, capturedScreen(`${agent}-shell-done`))).toBe(true);
  });
  test('the command that ran shows once as a shell echo and never as a prompt', () => {
    const v = capturedScreen(`${agent}-shell-done`);
    if (agent !== 'gemini') expect(countEchoes(p, v, command, 'shell')).toBe(1);
    expect(countEchoes(p, v, command, 'prompt')).toBe(0);
  });
});

test("Gemini's YOLO composer is read (` * `), not taken for an unknown screen", () => {
  const rows = [
    '─'.repeat(40),
    ' YOLO mode (ctrl + y to toggle)',
    ' *   Type your message or @path/to/file',
    ' workspace (/directory)        sandbox        /model',
  ];
  const v = viewOf(rows, 2);
  expect(readComposerState(PROFILES.gemini!, v)).toMatchObject({text: '', mode: undefined});
  rows[2] = ' * my draft';
  expect(readComposer(PROFILES.gemini!, v)).toBe('my draft');
});

test('a Codex composer holding a draft shows no marker, but the foreground program names it', () => {
  const v = capturedScreen('codex-draft');
  expect(detectProfile('node', v.rows.slice(3).join('\n')).profile.name).toBe('raw');
  expect(detectProfile('node', '', 'codex').profile.name).toBe('codex');
  expect(readComposer(PROFILES.codex!, v)).toBe('refactor the parser please');
});

test('agents are named by their command line', () => {
  expect(agentOfCommandLine(['node', '/x/node_modules/.bin/codex'])).toBe('codex');
  expect(agentOfCommandLine(['node', '/x/node_modules/@google/gemini-cli/dist/index.js'])).toBe(
    'gemini',
  );
  expect(agentOfCommandLine(['node', '--max-old-space-size=8192', '/x/bin/gemini'])).toBe('gemini');
  expect(agentOfCommandLine(['/x/@anthropic-ai/claude-code/bin/claude.exe'])).toBe('claude');
  expect(agentOfCommandLine(['claude'])).toBe('claude');
  expect(agentOfCommandLine(['bash'])).toBeUndefined();
  expect(agentOfCommandLine(['node', 'server.js'])).toBeUndefined();
});

test('each agent profile says which releases its screen entries were measured on, for entries it has', () => {
  for (const name of AGENTS) {
    const profile = PROFILES[name] as Profile & Record<string, unknown>;
    const measured = profile.measuredOn ?? {};
    for (const key of ['busy', 'queued', 'composerLine', 'promptEcho'])
      expect(measured, `${name}.measuredOn.${key}`).toHaveProperty(key);
    for (const key of Object.keys(measured))
      expect(profile[key], `${name}.measuredOn names ${key}, which it does not have`).toBeDefined();
  }
  // Claude Code 2.1.331's queued marker and retry line are held for by name.
  expect(PROFILES.claude!.measuredOn?.queued).toContain('2.1.331');
  expect(PROFILES.claude!.queued?.test('  ⎿  Queued · ctrl+x ctrl+s to send now')).toBe(true);
  expect(PROFILES.claude!.busy.some((b) => b.test('✻ Unable to connect · retrying in 5s'))).toBe(
    true,
  );
  expect(PROFILES.claude!.screen?.test('  ⏵⏵ auto mode on (shift+tab to cycle)')).toBe(true);
});

describe('Codex while its answer streams (0.169.0, scripted model streaming word by word)', () => {
  // As captured: no `Working` line once the first words arrive, the footer as when idle.
  const head = [
    '  >_ OpenAI Codex (v0.169.0)',
    '  permissions: YOLO mode',
    '',
    '› explain it',
    '',
    '• Here is my answer. word0 word1 word2 word3',
    '',
  ];
  const footer = ['', '  GPT-6.1-Sol default · ~/work · Scripted session'];
  const view = (rows: string[]) => paneViewOf(rows, {width: 120, height: rows.length});

  /** The screen with `rows` between the answer and an empty composer, and the idle footer. */
  const screen = (...rows: string[]) =>
    view([
      ...head,
      ...rows,
      '› Ask Codex to do anything',
      ...footer,
      '  ← for agents · ? for shortcuts',
    ]);

  test('the turn is open until its `Worked for` row: busy, not idle', () => {
    const streaming = screen();
    expect(isBusy(PROFILES.codex!, streaming)).toBe(true);
    expect(isIdle(PROFILES.codex!, streaming)).toBe(false);
    const done = screen('  Worked for 14s • 02:28', '');
    expect(isBusy(PROFILES.codex!, done)).toBe(false);
    expect(isIdle(PROFILES.codex!, done)).toBe(true);
    expect(isBusy(PROFILES.codex!, screen('■ Conversation interrupted', ''))).toBe(false);
  });

  test('text typed into the composer mid-answer: the footer says `tab to queue message`', () => {
    const typed = view([
      ...head,
      '› [SYSTEM COMMAND] Command complete. Resume.',
      ...footer,
      '  tab to queue message',
    ]);
    expect(isBusy(PROFILES.codex!, typed)).toBe(true);
    expect(readComposer(PROFILES.codex!, typed)).toBe('[SYSTEM COMMAND] Command complete. Resume.');
  });

  test('a fresh Codex (no prompt yet) is not busy', () => {
    const fresh = view([
      '  >_ OpenAI Codex (v0.169.0)',
      '',
      '› Ask Codex to do anything',
      ...footer,
    ]);
    expect(isBusy(PROFILES.codex!, fresh)).toBe(false);
  });
});

describe('Claude Code just after a paste (2.1.197, a 4 KB prompt)', () => {
  const rule = '─'.repeat(120);
  /** The screen with `rows` between the pasted prompt's echo and the composer: the footer
   * says `paste again to expand`, not `esc to interrupt`, for a while after the paste. */
  const screen = (...rows: string[]) =>
    paneViewOf(
      [
        '❯ write a haiku about tmux, after reading these notes: note0 ünïcode ✓ note1 ünïcode ✓',
        '  note2 ünïcode ✓ — the end',
        '',
        ...rows,
        rule,
        '❯ ',
        rule,
        `  paste again to expand${' '.repeat(79)}● high · /effort`,
      ],
      {width: 120, cursorY: rows.length + 4, cursorX: 2},
    );

  test('the spinner row says the turn runs: busy, not idle', () => {
    const running = screen('· Propagating…', '');
    expect(isBusy(PROFILES.claude!, running)).toBe(true);
    expect(isIdle(PROFILES.claude!, running)).toBe(false);
  });

  test('the turn over (its answer and `✻ Churned for 5s`): idle', () => {
    const done = screen('● Here it is.', '', '✻ Churned for 5s', '');
    expect(isBusy(PROFILES.claude!, done)).toBe(false);
    expect(isIdle(PROFILES.claude!, done)).toBe(true);
  });
});
