/**
 * What a text sent to an agent is meant to be (a prompt, or a command for its shell mode), and
 * how often it shows in the transcript as either: how delivery tells whether an Enter took
 * (src/pane/submitted.ts).
 */
import type {PaneView} from '../tmux/view.js';
import type {Profile} from './profile.js';
import {readComposerState, rowsOf} from './screens.js';

/** What a submitted text is meant to be: a prompt to the model, or (text starting with the
 * profile's shell prefix) a command for its shell mode. */
export type EchoKind = 'prompt' | 'shell';

/** Whether `text` is meant for the profile's shell mode. */
export function echoKindOf(profile: Profile, text: string): EchoKind {
  return profile.shellPrefix !== undefined && text.startsWith(profile.shellPrefix)
    ? 'shell'
    : 'prompt';
}

/**
 * How many times `text` shows in the transcript (every row of `view` above the composer) as a
 * submitted prompt (`prompt`) or as a command run from the shell mode (`shell`). Rows that
 * wrapped are joined; whitespace is ignored. undefined when the profile cannot tell.
 */
export function countEchoes(
  profile: Profile,
  view: PaneView,
  text: string,
  kind: EchoKind,
): number | undefined {
  const echo = kind === 'prompt' ? profile.promptEcho : profile.shellEcho;
  if (!echo) return undefined;
  const body =
    kind === 'shell' && profile.shellPrefix && text.startsWith(profile.shellPrefix)
      ? text.slice(profile.shellPrefix.length)
      : text;
  const target = squash(body);
  if (target === '') return undefined;
  const end = readComposerState(profile, view)?.index ?? view.rows.length;
  const rows = rowsOf(profile, view);
  let count = 0;
  for (let i = 0; i < end; i++) {
    const m = echo.exec(rows[i] ?? '');
    if (!m) continue;
    let seen = squash(m[1] ?? '');
    // Continuation rows (indented) while what was read is still the start of the text.
    for (let k = i + 1; seen !== target && target.startsWith(seen) && k < end; k++) {
      const row = rows[k] ?? '';
      if (!/^\s+\S/.test(row)) break;
      seen += squash(row);
    }
    if (seen === target) count++;
  }
  return count;
}

function squash(text: string): string {
  return text.replace(/\s+/g, '');
}
