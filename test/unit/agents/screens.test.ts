/**
 * The agents supported by data alone, read through their profile files on the screens they
 * were measured on (test/fixtures/screens/<agent>-*.txt, docs/agent-screens.md): what the
 * composer holds, busy, idle, queued — one row per screen.
 */
import {describe, expect, test} from 'vitest';
import {isBusy, isIdle, readComposer} from '../../../src/agents/profile.js';
import {PROFILES} from '../../../src/agents/registry.js';
import {capturedScreen} from '../../helpers/pane-views.js';

interface Row {
  screen: string;
  composer: string | undefined;
  busy: boolean;
  idle: boolean;
  queued?: boolean;
}

const ROWS: Record<string, Row[]> = {
  opencode: [
    {screen: 'idle-empty', composer: '', busy: false, idle: true},
    {screen: 'draft', composer: 'refactor the parser please', busy: false, idle: true},
    {screen: 'busy', composer: '', busy: true, idle: false},
    {screen: 'busy-draft', composer: 'and also this follow up', busy: true, idle: false},
    {screen: 'queued', composer: '', busy: true, idle: false, queued: true},
    {screen: 'idle-after', composer: '', busy: false, idle: true},
    // The first prompt shown, its turn not started on screen yet: busy (turnEnd).
    {screen: 'sent-not-started', composer: '', busy: true, idle: false},
  ],
  qwen: [
    {screen: 'idle-suggested', composer: '', busy: false, idle: true},
    {screen: 'draft', composer: 'refactor the parser please', busy: false, idle: true},
    {screen: 'busy', composer: '', busy: true, idle: false},
    {screen: 'busy-draft', composer: 'and also this follow up', busy: true, idle: false},
    {screen: 'queued', composer: '', busy: true, idle: false, queued: true},
    {screen: 'streaming', composer: '', busy: true, idle: false},
  ],
  pi: [
    {screen: 'idle-empty', composer: '', busy: false, idle: true},
    {screen: 'draft', composer: 'refactor the parser please', busy: false, idle: true},
    {screen: 'busy', composer: '', busy: true, idle: false},
    {screen: 'busy-draft', composer: 'and also this follow up', busy: true, idle: false},
    {screen: 'queued', composer: '', busy: true, idle: false, queued: true},
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
