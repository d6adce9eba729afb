import type {Pattern} from '../base/pattern.js';
import type {PaneView} from '../tmux/view.js';
import type {DialogKind, Profile} from './profile.js';
import {parseResetTime} from './reset-time.js';
import {readComposerState, rowsOf} from './screens.js';

/** A screen where the program waits for a person, as found: what kind, the question asked,
 * and what else the dialog says. */
export interface FoundDialog {
  kind: DialogKind;
  /** The question as the program asks it (`Do you want to create hello.txt?`), or the usage
   * limit's sentence. */
  question: string;
  /** Up to three rows above the question, inside the dialog (`Bash command`, the command). */
  detail: string[];
  /** The keys that answer no; empty when nudge must never answer it (a usage limit). */
  denyKeys: readonly (readonly string[])[];
  /** A usage limit: when it resets, as the screen says it (`10:15 PM`), and as an instant
   * (ms since the epoch) where the words could be read. */
  resets?: string;
  resetsAt?: number;
}

/** What a command or a job reports when the program waits for a person: what kind of answer
 * it waits for, the question, the pane, and a usage limit's reset (as shown, and as an ISO
 * time where it could be read). */
export interface Blocked {
  kind: DialogKind;
  question: string;
  pane: string;
  detail: string[];
  resets?: string;
  resetsAt?: string;
}

/** The `blocked` report of a dialog found in `pane`. */
export function blockedIn(pane: string, d: FoundDialog): Blocked {
  return {
    kind: d.kind,
    question: d.question,
    pane,
    detail: d.detail,
    ...(d.resets === undefined ? {} : {resets: d.resets}),
    ...(d.resetsAt === undefined ? {} : {resetsAt: new Date(d.resetsAt).toISOString()}),
  };
}

/** The one sentence of a `blocked` report: where, what is asked, and `then` (what nudge did:
 * nothing was typed into it; or the job goes on once it is answered). */
export function blockedReason(b: Blocked, then = 'nothing was typed into it'): string {
  const resets = b.resets === undefined ? '' : ` (it resets ${b.resets})`;
  return `Pane ${b.pane} waits for a person (${b.kind}): ${b.question}${resets}; ${then}.`;
}

/** How far below its question a dialog's first option may be. */
const OPTION_ROWS = 10;
/** Rows that are only frame or rule characters end a dialog's detail. */
const FRAME_ONLY = /^[\s─━╌┄═│┃╭╮╰╯┌┐└┘]*$/;

/**
 * The screen where the program waits for a person, if the visible screen shows one: a
 * permission, question, trust, plan or offer dialog (its question row with its first option within a
 * few rows below it — a transcript quoting the question has no options under it), or a usage
 * limit the program printed after the last prompt it was sent. The lowest match wins. `now`
 * dates a usage limit's reset time.
 */
export function findDialog(profile: Profile, view: PaneView, now: number): FoundDialog | undefined {
  const dialogs = profile.dialogs;
  if (!dialogs?.length) return undefined;
  const offset = Math.max(0, view.rows.length - view.height);
  const rows = rowsOf(profile, view).slice(offset);
  for (let i = rows.length - 1; i >= 0; i--) {
    const row = rows[i] ?? '';
    for (const d of dialogs) {
      if (!d.firstOption) continue;
      const m = d.question.exec(row);
      if (!m) continue;
      const below = rows.slice(i + 1, i + 1 + OPTION_ROWS);
      if (!below.some((r) => d.firstOption?.test(r))) continue;
      const title = d.title ? titleAbove(rows, i, d.title) : undefined;
      const detail = detailAbove(rows, i);
      return {
        kind: d.kind,
        question: unframe(m[1] ?? row),
        detail: title !== undefined && !detail.includes(title) ? [title, ...detail] : detail,
        denyKeys: d.denyKeys ?? [],
        ...resetsOf(d.resets, unframe(m[1] ?? row), now),
      };
    }
  }
  return printedLimit(profile, view, now);
}

/**
 * A dialog without options (a usage limit the program printed into its transcript): found in
 * the text after the last prompt echo above the composer, rows joined by spaces (the sentence
 * wraps), so a limit an earlier turn met, with a prompt sent after it, is not one now.
 */
function printedLimit(profile: Profile, view: PaneView, now: number): FoundDialog | undefined {
  const printed = profile.dialogs?.filter((d) => !d.firstOption) ?? [];
  if (printed.length === 0) return undefined;
  const rows = rowsOf(profile, view);
  const composer = readComposerState(profile, view)?.index ?? rows.length;
  const top = Math.max(0, view.rows.length - view.height);
  let start = top;
  for (let i = composer - 1; i >= top; i--) {
    if (profile.promptEcho?.test(rows[i] ?? '')) {
      start = i + 1;
      break;
    }
  }
  const text = rows
    .slice(start, composer)
    .filter((r) => !profile.ruleLine?.test(r))
    .map((r) => unframe(r))
    .filter((r) => r !== '' && !FRAME_ONLY.test(r))
    .join(' ');
  for (const d of printed) {
    const m = d.question.exec(text);
    if (!m) continue;
    const question = (m[1] ?? m[0]).trim();
    const resets = resetsOf(d.resets, question, now);
    // Its reset time has passed: the limit is over, though its words stay on screen until
    // the next prompt.
    if (resets.resetsAt !== undefined && resets.resetsAt <= now) continue;
    return {kind: d.kind, question, detail: [], denyKeys: d.denyKeys ?? [], ...resets};
  }
  return undefined;
}

/** A usage limit's reset time, from where its pattern finds it in the question. */
function resetsOf(
  resets: Pattern | undefined,
  question: string,
  now: number,
): {resets?: string; resetsAt?: number} {
  const m = resets?.exec(question);
  const words = m?.[1]?.trim();
  if (!words) return {};
  const at = parseResetTime(words, now);
  return at === undefined ? {resets: words} : {resets: words, resetsAt: at};
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
function titleAbove(rows: readonly string[], index: number, title: Pattern): string | undefined {
  for (let k = index - 1; k >= Math.max(0, index - 20); k--) {
    const m = title.exec(rows[k] ?? '');
    if (m) return unframe(m[1] ?? '');
  }
  return undefined;
}

/** A row without a box's side characters and the padding around them. */
function unframe(row: string): string {
  return row
    .replace(/^[\s│┃■●]+/, '')
    .replace(/[\s│┃]+$/, '')
    .trim();
}
