import {EXIT_CODES, type ExitCode} from '../base/errors.js';
import {statusSegment} from '../jobs/pane-states.js';
import type {NextResult, StatusLine} from '../verbs/panes.js';
import type {Output} from './render.js';

export function renderStatusLine(
  r: StatusLine,
  json: boolean,
  plain: boolean,
  out: Output,
): ExitCode {
  out.stdout(json ? JSON.stringify(r) : statusSegment(r, plain));
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
