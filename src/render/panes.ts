import {EXIT_CODES, type ExitCode} from '../base/errors.js';
import {statusSegment} from '../status-bar/pane-states.js';
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
  // Said on the client's status line already: run-shell would keep a printed line on screen.
  else if (!r.toldClient) out.stdout(r.said);
  return EXIT_CODES.ok;
}
