import {formatText, plainLine, unformatText} from '../base/sanitize.js';
import {joinFormat, splitFields} from './format.js';
import type {TmuxRunner} from './runner.js';

/** Pane options of nudge's own (marks a schedule, a half line, the state of a pane) and the
 * cursor's whole line: the parts of createTmux that read or set them. */

export async function cursorLogicalLine(
  runner: TmuxRunner,
  paneId: string,
  rowsAbove: number,
): Promise<string> {
  const y = Number.parseInt(
    (await runner.run(['display-message', '-p', '-t', paneId, '#{cursor_y}'])).trim(),
    10,
  );
  const stdout = await runner.run([
    'capture-pane',
    '-p',
    '-J',
    '-t',
    paneId,
    '-S',
    String((Number.isFinite(y) ? y : 0) - Math.max(0, Math.floor(rowsAbove))),
    '-E',
    String(Number.isFinite(y) ? y : 0),
  ]);
  const lines = stdout.replace(/\n$/, '').split('\n');
  return lines[lines.length - 1] ?? '';
}

/** Set (or, given undefined, unset) one of nudge's pane options. The value is stored for a
 * tmux format (src/base/sanitize.ts formatText: no control character, every `#` doubled), as
 * status-format shows `#{@nudge-needs}`; paneMark and panesMarked read it back as written. */
export async function markPane(
  runner: TmuxRunner,
  paneId: string,
  option: string,
  value: string | undefined,
): Promise<void> {
  await setUserOption(runner, ['-p', '-t', paneId], option, value && formatText(value));
}

/** `set-option` of one of nudge's user options in `scope` (`-p -t %N`, `-s`), or its unset. */
async function setUserOption(
  runner: TmuxRunner,
  scope: readonly string[],
  option: string,
  value: string | undefined,
): Promise<void> {
  if (!/^@[A-Za-z0-9_-]+$/.test(option)) throw new Error(`not a user option: ${option}`);
  await runner.run(
    value === undefined
      ? ['set-option', ...scope, '-u', option]
      : ['set-option', ...scope, option, value],
  );
}

/** Set (or unset) one of nudge's server options (`@nudge-status`). Unlike a pane's, the value
 * is a tmux format already: its `#[…]` styles are nudge's own, and every part it took from a pane
 * or a session name is made safe by whoever built it (formatText). tmux does not expand a
 * user option's value again where status-right shows `#{@nudge-status}` (no `#(…)` runs), and
 * redraws every client's status line when it changes. */
export async function markServer(
  runner: TmuxRunner,
  option: string,
  value: string | undefined,
): Promise<void> {
  await setUserOption(runner, ['-s'], option, value === undefined ? value : plainLine(value));
}

export async function paneMark(
  runner: TmuxRunner,
  paneId: string,
  option: string,
): Promise<string | undefined> {
  if (!/^@[A-Za-z0-9_-]+$/.test(option)) throw new Error(`not a user option: ${option}`);
  // -q: no error for an option that is not set (then nothing is printed).
  const out = await runner.run(['show-options', '-p', '-q', '-v', '-t', paneId, option]);
  const value = out.replace(/\n$/, '');
  return value === '' ? undefined : unformatText(value);
}

export async function panesMarked(
  runner: TmuxRunner,
  option: string,
): Promise<Array<{paneId: string; value: string}>> {
  if (!/^@[A-Za-z0-9_-]+$/.test(option)) throw new Error(`not a user option: ${option}`);
  const stdout = await runner.run([
    'list-panes',
    '-a',
    '-F',
    // A user option is a format variable too: #{@name}.
    joinFormat(['pane_id', option]),
  ]);
  const marked: Array<{paneId: string; value: string}> = [];
  for (const line of stdout.split('\n')) {
    const [paneId, value] = splitFields(line, 2) ?? [];
    if (paneId && value) marked.push({paneId, value: unformatText(value)});
  }
  return marked;
}

/** A pane of the server with nudge's state options (status-line, next, top). */
export interface PaneStateRow {
  paneId: string;
  /** `session:window.pane`, as a person names it. */
  target: string;
  command: string;
  state: string;
  job: string;
  queue: string;
  needs: string;
  /** The pane's first process (`#{pane_pid}`): a process descends from it when it runs in the
   * pane (src/pane/own-pane.ts). */
  panePid: number;
  /** `#{session_id}`: the session the pane is in. */
  sessionId: string;
  /** `#{pane_tty}`: the pane's terminal (`/dev/pts/3`), a process's controlling terminal
   * when it runs in the pane. */
  tty: string;
  /** `#{pane_title}`, as its program set it (Codex shows its thread id there once `nudge
   * install codex` asked it to: src/pane/own-pane.ts). */
  title: string;
}

/** Every pane of the server with its nudge options (empty strings where unset), in the
 * server's order (session, window, pane). */
export async function paneStates(runner: TmuxRunner): Promise<PaneStateRow[]> {
  const fields = [
    'pane_id',
    'session_name',
    'window_index',
    'pane_index',
    'pane_current_command',
    '@nudge-state',
    '@nudge-job',
    '@nudge-queue',
    '@nudge-needs',
    'pane_pid',
    'session_id',
    'pane_tty',
    // Last: it is the rest of the line, whatever separator a program put in its title.
    'pane_title',
  ];
  const stdout = await runner.run(['list-panes', '-a', '-F', joinFormat(fields)]);
  const rows: PaneStateRow[] = [];
  for (const line of stdout.split('\n')) {
    const f = splitFields(line, fields.length);
    if (!f) continue;
    const [paneId = '', session, window, pane, command = '', state = '', job = '', queue = ''] = f;
    rows.push({
      paneId,
      target: `${session}:${window}.${pane}`,
      command,
      queue,
      // Anyone in the pane may set these options: shown as plain text, whatever they hold.
      state: plainLine(state),
      job: plainLine(job),
      needs: plainLine(unformatText(f[8] ?? '')),
      panePid: Number.parseInt(f[9] ?? '', 10) || 0,
      sessionId: f[10] ?? '',
      tty: f[11] ?? '',
      title: f[12] ?? '',
    });
  }
  return rows;
}

/** The pane `client` is on (its session's current window's active pane), undefined when no
 * such client is attached. A key binding's `run-shell` sets no `$TMUX_PANE`: this is where the
 * person who pressed the key is. */
export async function clientPane(runner: TmuxRunner, client: string): Promise<string | undefined> {
  const stdout = await runner.run(['list-clients', '-F', joinFormat(['client_name', 'pane_id'])]);
  for (const line of stdout.split('\n')) {
    const [name, pane] = splitFields(line, 2) ?? [];
    if (name === client && pane) return pane;
  }
  return undefined;
}

/** Show `text` on `client`'s status line for the person's `display-time`: tmux's own message,
 * gone by itself (what `run-shell` prints would stay in a view to dismiss). */
export async function tellClient(runner: TmuxRunner, client: string, text: string): Promise<void> {
  // The message is a format: formatText keeps it text (no #{…}, no #(…), no control character).
  await runner.run(['display-message', '-c', client, formatText(text)]);
}

/** Bring a client to `paneId`: its session, window and pane made current, in one command
 * list. `client` names the client (`#{client_name}` in a key binding); without it tmux picks
 * the current one. */
export async function jumpToPane(
  runner: TmuxRunner,
  paneId: string,
  client: string | undefined,
): Promise<void> {
  await runner.run([
    'switch-client',
    ...(client ? ['-c', client] : []),
    '-t',
    paneId,
    ';',
    'select-window',
    '-t',
    paneId,
    ';',
    'select-pane',
    '-t',
    paneId,
  ]);
}
