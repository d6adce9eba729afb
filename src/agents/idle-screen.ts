import type {PaneView} from '../tmux/view.js';
import type {Profile} from './profile.js';
import {isBusy, readComposer, readComposerState, rowsOf} from './screens.js';

// Whether an agent's screen says it is idle: its composer shows, nothing says busy, and its
// footer shows no work it started still running (`working`, src/agents/work.ts).

/** Idle: the composer is on screen, nothing says busy, no work shows in its footer. */
export function isIdle(profile: Profile, view: PaneView): boolean {
  return (
    readComposer(profile, view) !== undefined &&
    !isBusy(profile, view) &&
    workingOnScreen(profile, view) === undefined
  );
}

/** The turn ended (`--until turn`): composer on screen, nothing busy, whatever still runs. */
export function turnIdle(profile: Profile, view: PaneView): boolean {
  return readComposer(profile, view) !== undefined && !isBusy(profile, view);
}

/** What the footer (or the status row just above the composer) says still runs (`1 shell`),
 * by `working`; undefined when nothing does or no composer shows (the transcript further up
 * keeps rows of work long ended). */
export function workingOnScreen(profile: Profile, view: PaneView): string | undefined {
  if (!profile.working?.length) return undefined;
  const at = readComposerState(profile, view)?.index;
  if (at === undefined) return undefined;
  // The footer below the composer, and the one row just above it (blank rows and its rule
  // line skipped: Codex's status row), never the transcript further up.
  const rows = rowsOf(profile, view);
  let above = at - 1;
  while (above >= 0 && (rows[above]?.trim() === '' || profile.ruleLine?.test(rows[above] ?? '')))
    above--;
  for (const row of [rows[above] ?? '', ...rows.slice(at + 1)]) {
    for (const rule of profile.working) {
      const m = rule.exec(row);
      if (!m) continue;
      // Its parts are joined by ` · `: the ones that count something name the work.
      const named = (m[1] ?? m[0]).trim();
      const counted = named.split(' · ').filter((part) => /^\d+ /.test(part));
      return counted.length > 0 ? counted.join(' · ') : named;
    }
  }
  return undefined;
}
