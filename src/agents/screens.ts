import {type Pattern, replaceFirst} from '../base/pattern.js';
import type {PaneView} from '../tmux/view.js';
import {cursorLine, visibleText} from '../tmux/view.js';
import type {InputMode, Profile} from './profile.js';

/**
 * What a profile reads of a pane's screen: its rows, its composer (the text, the mode, where),
 * and whether the program is starting or at work.
 */

/** What the composer shows: its text, the input mode its prompt character says, and where. */
export interface ComposerState {
  /** What is in it: '' when empty (placeholders count as empty), else the draft
   * (continuation rows joined by \n). */
  text: string;
  /** The input mode it is in (shell mode, bash mode), if any. */
  mode?: InputMode | undefined;
  /** Index in `view.rows` of its first row. */
  index: number;
}

/**
 * The program's composer, read from the screen: undefined when none is on screen. For a
 * shell: the text after the prompt on the cursor's row.
 */
export function readComposerState(profile: Profile, view: PaneView): ComposerState | undefined {
  if (profile.kind === 'shell') {
    const text = readShellLine(view);
    return text === undefined
      ? undefined
      : {text, index: view.rows.length - view.height + view.cursorY};
  }
  if (!profile.composerLine) return undefined;
  const offset = Math.max(0, view.rows.length - view.height);
  const rows = rowsOf(profile, view).slice(offset);
  if (profile.composerClose) return readComposerBox(profile, profile.composerLine, rows, offset);
  for (let i = rows.length - 1; i >= 0; i--) {
    const m = profile.composerLine.exec(rows[i] ?? '');
    if (!m) continue;
    if (
      profile.ruleLine &&
      ![rows[i - 1], rows[i - 2], rows[i - 3]].some(
        (r) => r !== undefined && profile.ruleLine!.test(r),
      )
    )
      continue;
    // A transcript row is followed by the agent's answer; the composer never is.
    if (
      profile.notBelowComposer &&
      rows.slice(i + 1).some((r) => profile.notBelowComposer!.test(r))
    )
      return undefined;
    const parts = [(m[2] ?? '').trim()];
    // Continuation rows of a multi-line draft, up to the closing rule (Claude).
    for (
      let k = i + 1;
      k < rows.length && profile.ruleLine && !profile.ruleLine.test(rows[k] ?? '');
      k++
    ) {
      if (!/^ {2}\S/.test(rows[k] ?? '')) break;
      parts.push((rows[k] ?? '').trim());
    }
    // Zero-width spaces some programs draw where the cursor rests (Qwen Code) are not text.
    const text = parts
      .join('\n')
      .replace(/\u200b/g, '')
      .trim();
    const ghost =
      profile.ghostAtCursor === true &&
      text !== '' &&
      view.cursorY === i &&
      view.cursorX === (rows[i] ?? '').indexOf(m[2] ?? '');
    return {
      text: ghost || profile.placeholders?.some((p) => p.test(text)) ? '' : text,
      mode: profile.inputModes?.[m[1] ?? ''],
      index: offset + i,
    };
  }
  return undefined;
}

/** A composer drawn as a box (Profile.composerClose). */
export function readComposerBox(
  profile: Profile,
  line: Pattern,
  rows: readonly string[],
  offset: number,
): ComposerState | undefined {
  let close = -1;
  let closing: RegExpExecArray | null = null;
  for (let i = rows.length - 1; i >= 0 && close < 0; i--) {
    closing = profile.composerClose?.exec(rows[i] ?? '') ?? null;
    if (closing) close = i;
  }
  let top = close;
  // Up to the box's top rule (drawn as its closing one is).
  while (
    top > 0 &&
    line.test(rows[top - 1] ?? '') &&
    !profile.composerClose?.test(rows[top - 1] ?? '')
  )
    top--;
  if (close < 0 || top === close) return undefined;
  const box = rows.slice(top, close).map((r) => line.exec(r));
  const contents = box.map((m) => (m?.[2] ?? '').trim());
  let first = 0;
  let last = contents.length - 1;
  while (first < last && contents[first] === '') first++;
  while (last > first && contents[last] === '') last--;
  const text = contents
    .slice(first, last + 1)
    .join('\n')
    .trim();
  return {
    text: profile.placeholders?.some((p) => p.test(text)) ? '' : text,
    // The mode shows in the prompt character, or (opencode) in the closing row's group 1.
    mode: profile.inputModes?.[box[first]?.[1] || closing?.[1] || ''],
    index: offset + top,
  };
}

/**
 * What is in the program's input line: undefined when no composer is on screen, '' when it
 * is empty (placeholders count as empty), else the draft (continuation rows joined by \n).
 * For a shell: the text after the prompt on the cursor's row.
 */
export function readComposer(profile: Profile, view: PaneView): string | undefined {
  return readComposerState(profile, view)?.text;
}

/** The view's rows as the profile reads them: trailing blanks, and what the program draws
 * at their right end (rowEnd), removed. Indices are the view's. */
export function rowsOf(profile: Profile, view: PaneView): string[] {
  const end = profile.rowEnd;
  return view.rows.map((r) => (end ? replaceFirst(end, r, '') : r).trimEnd());
}

/** A shell's input line: the text after the last prompt character on the cursor's row. */
export function readShellLine(view: PaneView): string | undefined {
  return shellCommandOf(cursorLine(view));
}

/** The command typed after a shell's prompt on `line` (undefined: no prompt on it). */
export function shellCommandOf(line: string): string | undefined {
  const m = /^(.*?[$#%>❯»] )(.*)$/.exec(line);
  if (!m) return undefined;
  return (m[2] ?? '').trim();
}

/** Whether the screen shows the program still starting. */
export function isStarting(profile: Profile, view: PaneView): boolean {
  if (!profile.starting?.length) return false;
  const text = visibleText(view);
  return profile.starting.some((s) => s.test(text));
}

/** Whether the screen shows the program working: a busy marker, or a turn still open. */
export function isBusy(profile: Profile, view: PaneView): boolean {
  const text = visibleText(view);
  return profile.busy.some((b) => b.test(text)) || turnOpen(profile, view);
}

/**
 * Whether the transcript shows a turn that has not ended: the last prompt echo above the
 * composer has no turn-end row after it. A shell-mode command's echo is no turn (opencode
 * closes it without a duration). False when the profile has no turn-end rows, or no echo is in
 * the view (scrolled away: the busy markers decide alone).
 */
export function turnOpen(profile: Profile, view: PaneView): boolean {
  const {turnEnd, promptEcho, shellEcho} = profile;
  if (!turnEnd?.length || !promptEcho) return false;
  const end = readComposerState(profile, view)?.index ?? view.rows.length;
  const rows = rowsOf(profile, view);
  for (let i = end - 1; i >= 0; i--) {
    const row = rows[i] ?? '';
    if (turnEnd.some((t) => t.test(row)) || shellEcho?.test(row)) return false;
    if (promptEcho.test(row)) return !shellEcho?.test(firstOfBox(profile, rows, i));
  }
  return false;
}

/** The first row with text of the box row `i` is in (opencode draws each sent prompt, and a
 * shell-mode command with its output, in a box of composerLine rows); row `i` itself where the
 * profile draws no box. */
export function firstOfBox(profile: Profile, rows: readonly string[], i: number): string {
  const box = profile.composerClose ? profile.composerLine : undefined;
  let first = i;
  for (let k = i - 1; box && k >= 0 && box.test(rows[k] ?? ''); k--)
    if (profile.promptEcho?.test(rows[k] ?? '')) first = k;
  return rows[first] ?? '';
}
