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

export async function markPane(
  runner: TmuxRunner,
  paneId: string,
  option: string,
  value: string | undefined,
): Promise<void> {
  if (!/^@[A-Za-z0-9_-]+$/.test(option)) throw new Error(`not a user option: ${option}`);
  await runner.run(
    value === undefined
      ? ['set-option', '-p', '-u', '-t', paneId, option]
      : ['set-option', '-p', '-t', paneId, option, value],
  );
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
  return value === '' ? undefined : value;
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
    if (paneId && value) marked.push({paneId, value});
  }
  return marked;
}
