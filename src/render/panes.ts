import {EXIT_CODES, type ExitCode} from '../base/errors.js';
import {formatText, plainLine} from '../base/sanitize.js';
import type {NextResult, ShownPane, StatusLine} from '../verbs/panes.js';
import type {Output} from './render.js';
import {stateStyle} from './states.js';

/** How many panes that need the person the segment names before "+N". */
const NAMED = 3;

/**
 * `nudge status-line`: one line for tmux's status bar — the panes that need the person first
 * (`blocked main:1.0`), then how many are at work and how many jobs wait. Empty when nudge has
 * nothing on the server, so the bar shows nothing.
 */
export function statusLineText(r: StatusLine, plain: boolean): string {
  // What a pane shows is the pane's (anyone in it may set its options): never a style of tmux.
  const styled = (style: string | undefined, text: string) =>
    plain ? plainLine(text) : style ? `#[${style}]${formatText(text)}#[default]` : formatText(text);
  const named = r.needsYou
    .slice(0, NAMED)
    .map((p: ShownPane) => styled(stateStyle(p.state), `${p.state} ${p.target}`));
  if (r.needsYou.length > NAMED) named.push(`+${r.needsYou.length - NAMED}`);
  const parts = [...named];
  if (r.atWork.length > 0) parts.push(`${r.atWork.length} working`);
  if (r.queued > 0) parts.push(`${r.queued} queued`);
  return parts.join(' · ');
}

export function renderStatusLine(
  r: StatusLine,
  json: boolean,
  plain: boolean,
  out: Output,
): ExitCode {
  out.stdout(json ? JSON.stringify(r) : statusLineText(r, plain));
  return EXIT_CODES.ok;
}

export function renderNext(r: NextResult, json: boolean, out: Output): ExitCode {
  if (json) out.stdout(JSON.stringify(r));
  else if (!r.pane) out.stdout('Nothing needs you.');
  else {
    const why = r.pane.needs ? ` (${r.pane.needs})` : '';
    const more = r.more > 0 ? `; ${r.more} more need you` : '';
    out.stdout(`${r.pane.pane} ${r.pane.target}: ${r.pane.state}${why}${more}.`);
  }
  return EXIT_CODES.ok;
}
