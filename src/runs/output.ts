import type {Profile} from '../agents/profile.js';
import {readComposerState} from '../agents/screens.js';
import type {PaneView} from '../tmux/view.js';

/** How many lines of output a report keeps. */
export const TAIL_LINES = 20;

/**
 * The last lines of a run's output, from a view with scrollback: a command's from the row
 * its output began on (`startRow`, absolute) to its exit sentinel; an agent's transcript
 * above its composer (rule lines left out). Blank lines at either end are dropped.
 */
export function outputTail(
  view: PaneView,
  of: {agent: Profile} | {startRow: number; sentinel: RegExp},
): string[] {
  let rows = view.rows;
  if ('agent' in of) {
    const composer = readComposerState(of.agent, view);
    rows = rows
      .slice(0, composer ? composer.index : rows.length)
      .filter((r) => !/^\s*─{10,}\s*$/.test(r));
  } else {
    rows = rows.slice(Math.max(0, of.startRow - view.firstRow));
    const end = rows.findIndex((r) => of.sentinel.test(r));
    if (end >= 0) rows = rows.slice(0, end);
  }
  const kept = rows.map((r) => r.trimEnd());
  while (kept.length > 0 && kept.at(-1) === '') kept.pop();
  while (kept.length > 0 && kept[0] === '') kept.shift();
  return kept.slice(-TAIL_LINES);
}
