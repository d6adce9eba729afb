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
