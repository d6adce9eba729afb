import type {PaneView} from '../tmux/view.js';
import type {Profile} from './profile.js';

/** A permission dialog found on screen. */
export interface FoundDialog {
  kind: 'tool' | 'trust';
  /** The question as the program asks it (`Do you want to create hello.txt?`). */
  question: string;
  /** Up to three rows above the question, inside the dialog (`Bash command`, the command). */
  detail: string[];
  denyKeys: readonly (readonly string[])[];
}

/** How far below its question a dialog's first option may be. */
const OPTION_ROWS = 10;
/** Rows that are only frame or rule characters end a dialog's detail. */
const FRAME_ONLY = /^[\s─━╌┄═│┃╭╮╰╯┌┐└┘]*$/;

/**
 * The permission or trust dialog the program shows on the visible screen, if any: its
 * question row with its first option within a few rows below (a transcript quoting the
 * question has no options under it). The lowest match wins.
 */
export function findPermissionDialog(profile: Profile, view: PaneView): FoundDialog | undefined {
  const dialogs = profile.permissionDialogs;
  if (!dialogs?.length) return undefined;
  const rows = view.rows.slice(Math.max(0, view.rows.length - view.height));
  for (let i = rows.length - 1; i >= 0; i--) {
    const row = rows[i] ?? '';
    for (const d of dialogs) {
      const m = d.question.exec(row);
      if (!m) continue;
      const below = rows.slice(i + 1, i + 1 + OPTION_ROWS);
      if (!below.some((r) => d.firstOption.test(r))) continue;
      const title = d.title ? titleAbove(rows, i, d.title) : undefined;
      const detail = detailAbove(rows, i);
      return {
        kind: d.kind,
        question: unframe(m[1] ?? row),
        detail: title !== undefined && !detail.includes(title) ? [title, ...detail] : detail,
        denyKeys: d.denyKeys,
      };
    }
  }
  return undefined;
}

/** Up to three rows above the question, inside the dialog: blank rows are skipped, a rule or
 * a frame's edge ends it. */
function detailAbove(rows: readonly string[], index: number): string[] {
  const detail: string[] = [];
  for (let k = index - 1; k >= Math.max(0, index - 8) && detail.length < 3; k--) {
    const row = unframe(rows[k] ?? '');
    if (row === '') continue;
    if (FRAME_ONLY.test(row)) break;
    detail.unshift(row);
  }
  return detail;
}

/** The dialog's title: the nearest row above the question (within a screen's dialog) that
 * matches `title`. */
function titleAbove(rows: readonly string[], index: number, title: RegExp): string | undefined {
  for (let k = index - 1; k >= Math.max(0, index - 20); k--) {
    const m = title.exec(rows[k] ?? '');
    if (m) return unframe(m[1] ?? '');
  }
  return undefined;
}

/** A row without a box's side characters and the padding around them. */
function unframe(row: string): string {
  return row
    .replace(/^[\s│┃]+/, '')
    .replace(/[\s│┃]+$/, '')
    .trim();
}
