import {existsSync, readFileSync} from 'node:fs';
import {fileURLToPath} from 'node:url';
import {agentProfiles} from '../../src/agents/registry.js';
import type {PaneView} from '../../src/tmux/view.js';

/**
 * A made-up pane view for pure tests: `rows` all visible (no scrollback), the cursor at the end
 * of the last row unless `o` says otherwise, an 80-column pane running bash; `o` overrides any
 * field.
 */
export function paneViewOf(rows: string[], o: Partial<PaneView> = {}): PaneView {
  const cursorY = o.cursorY ?? rows.length - 1;
  return {
    rows,
    firstRow: 0,
    historySize: 0,
    historyLimit: 2000,
    height: rows.length,
    width: 80,
    cursorX: [...(rows[cursorY] ?? '')].length,
    cursorY,
    dead: false,
    alternateOn: false,
    currentCommand: 'bash',
    ...o,
  };
}

/** paneViewOf for a screen written as one text, its rows split at each newline. */
export function screenOf(text: string, o: Partial<PaneView> = {}): PaneView {
  return paneViewOf(text.split('\n'), o);
}

/** The registry's agents with a real screen captured as test/fixtures/screens/AGENT-SCREEN.txt. */
export function capturedAgents(screen: string): string[] {
  const dir = fileURLToPath(new URL('../fixtures/screens/', import.meta.url));
  return agentProfiles()
    .map((p) => p.name)
    .filter((name) => existsSync(`${dir}${name}-${screen}.txt`));
}

/** A captured screen of a real agent (test/fixtures/screens, see docs/agent-screens.md): its
 * rows, and the cursor where index.json says, in a 120-column pane running `node`. */
export function capturedScreen(name: string): PaneView {
  const dir = fileURLToPath(new URL('../fixtures/screens/', import.meta.url));
  const index = JSON.parse(readFileSync(`${dir}index.json`, 'utf8')) as Record<
    string,
    {cursor: {x: number; y: number}}
  >;
  const rows = readFileSync(`${dir}${name}.txt`, 'utf8').replace(/\n$/, '').split('\n');
  const cursor = index[name]?.cursor ?? {x: 0, y: 0};
  return paneViewOf(rows, {
    cursorX: cursor.x,
    cursorY: cursor.y,
    width: 120,
    currentCommand: 'node',
  });
}
