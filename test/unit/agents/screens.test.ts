/**
 * The agents supported by data alone, read through their profile files on the screens they
 * were measured on (test/fixtures/screens/<agent>-*.txt, docs/agent-screens.md): what the
 * composer holds, busy, idle, queued — one row per screen.
 */
import {describe, expect, test} from 'vitest';
import {countEchoes} from '../../../src/agents/echoes.js';
import {isIdle} from '../../../src/agents/idle-screen.js';
import {PROFILES} from '../../../src/agents/registry.js';
import {isBusy, readComposer, readComposerState} from '../../../src/agents/screens.js';
import {capturedScreen} from '../../helpers/pane-views.js';

interface Row {
  screen: string;
  composer: string | undefined;
  busy: boolean;
  idle: boolean;
  queued?: boolean;
}

/** The screens every agent added as data was captured in, the same way (test/explore): a
 * draft typed, busy with and without a draft, a prompt queued while busy. */
const CAPTURED_TURN: Row[] = [
  {screen: 'draft', composer: 'refactor the parser please', busy: false, idle: true},
  {screen: 'busy', composer: '', busy: true, idle: false},
  {screen: 'busy-draft', composer: 'and also this follow up', busy: true, idle: false},
  {screen: 'queued', composer: '', busy: true, idle: false, queued: true},
];

const ROWS: Record<string, Row[]> = {
  opencode: [
    {screen: 'idle-empty', composer: '', busy: false, idle: true},
    ...CAPTURED_TURN,
    {screen: 'idle-after', composer: '', busy: false, idle: true},
    // The first prompt shown, its turn not started on screen yet: busy (turnEnd).
    {screen: 'sent-not-started', composer: '', busy: true, idle: false},
  ],
  qwen: [
    {screen: 'idle-suggested', composer: '', busy: false, idle: true},
    ...CAPTURED_TURN,
    {screen: 'streaming', composer: '', busy: true, idle: false},
  ],
  pi: [{screen: 'idle-empty', composer: '', busy: false, idle: true}, ...CAPTURED_TURN],
  copilot: [
    {screen: 'idle-empty', composer: '', busy: false, idle: true},
    ...CAPTURED_TURN,
    {screen: 'streaming', composer: '', busy: true, idle: false},
    {screen: 'idle-after', composer: '', busy: false, idle: true},
    {screen: 'idle-scrolled', composer: '', busy: false, idle: true},
    // Shell mode: the placeholder is not a draft.
    {screen: 'shell-mode', composer: '', busy: false, idle: true},
    // A dialog in place of the composer: not idle.
    {screen: 'permission-shell', composer: undefined, busy: false, idle: false},
  ],
};

describe.each(Object.keys(ROWS))('%s, from its profile file alone', (agent) => {
  const profile = () => {
    const p = PROFILES[agent];
    if (!p) throw new Error(`no profile ${agent}`);
    return p;
  };
  test.each(ROWS[agent] ?? [])('$screen', (row) => {
    const view = capturedScreen(`${agent}-${row.screen}`);
    const p = profile();
    expect(readComposer(p, view)).toBe(row.composer);
    expect(isBusy(p, view)).toBe(row.busy);
    expect(isIdle(p, view)).toBe(row.idle);
    expect(p.queued?.test(view.rows.join('\n')) ?? false).toBe(row.queued ?? false);
  });
});

describe('Copilot CLI: rows with its scrollbar', () => {
  const p = () => PROFILES.copilot!;
  test('a sent prompt is read without the time and the scrollbar at its end, once', () => {
    const view = capturedScreen('copilot-permission-denied');
    expect(view.rows.some((r) => r.endsWith(' ❯ make a file'.padEnd(10)) || r.endsWith('┃'))).toBe(
      true,
    );
    expect(countEchoes(p(), view, 'make a file', 'prompt')).toBe(1);
    expect(countEchoes(p(), view, 'stream me a plan', 'prompt')).toBe(1);
    expect(countEchoes(p(), view, 'make a', 'prompt')).toBe(0);
  });

  test('the same rows without the scrollbar read the same', () => {
    const view = capturedScreen('copilot-idle-after');
    expect(countEchoes(p(), view, 'and also this follow up', 'prompt')).toBe(1);
  });

  test('shell mode: the composer is in it; a command run from it is a shell echo', () => {
    const view = capturedScreen('copilot-shell-mode');
    expect(readComposerState(p(), view)?.mode?.name).toBe('shell mode');
  });
});
