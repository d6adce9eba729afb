import {joinFormat, splitFields} from './format.js';

/** A pane's facts (PaneInfo) as one line of tmux's format, and read back. */

/** What the worker checks about a pane before typing into it. */
export interface PaneInfo {
  paneId: string;
  dead: boolean;
  inMode: boolean;
  mode: string;
  inputOff: boolean;
  synchronized: boolean;
  panePid: number;
  currentCommand: string;
  alternateOn: boolean;
  sessionId: string;
  serverPid: number;
  socketPath: string;
  cursorX: number;
  cursorY: number;
  /** The command the pane was started with ('' for the default shell). */
  startCommand: string;
}

export const PANE_FIELDS = [
  'pane_id',
  'pane_dead',
  'pane_in_mode',
  'pane_mode',
  'pane_input_off',
  'pane_synchronized',
  'pane_pid',
  'alternate_on',
  'session_id',
  'pid',
  'socket_path',
  'cursor_x',
  'cursor_y',
  'pane_current_command',
  // Last: the only field that could hold anything (the command the pane started with).
  'pane_start_command',
];

export const PANE_FORMAT = joinFormat(PANE_FIELDS);

/** Parse one line of PANE_FORMAT output. */
export function parsePaneInfo(line: string): PaneInfo | undefined {
  const f = splitFields(line, PANE_FIELDS.length);
  if (!f || !/^%\d+$/.test(f[0] ?? '')) return undefined;
  const n = (s: string | undefined) => Number.parseInt(s ?? '', 10);
  return {
    paneId: f[0]!,
    dead: f[1] === '1',
    inMode: f[2] === '1',
    mode: f[3] ?? '',
    inputOff: f[4] === '1',
    synchronized: f[5] === '1',
    panePid: n(f[6]),
    alternateOn: f[7] === '1',
    sessionId: f[8] ?? '',
    serverPid: n(f[9]),
    socketPath: f[10] ?? '',
    cursorX: n(f[11]),
    cursorY: n(f[12]),
    currentCommand: f[13] ?? '',
    startCommand: f[14] ?? '',
  };
}
