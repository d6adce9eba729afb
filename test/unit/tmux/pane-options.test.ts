// nudge's pane options hold others' words (a dialog's question, what a hook said): stored for
// a tmux format through the one sanitiser, read back as written (issue 42).
import {describe, expect, test} from 'vitest';
import {FIELD_SEPARATOR} from '../../../src/tmux/format.js';
import {markPane, paneMark, paneStates} from '../../../src/tmux/pane-options.js';
import type {TmuxRunner} from '../../../src/tmux/runner.js';

/** A runner that records each call and answers `reply`. */
function recording(reply = ''): TmuxRunner & {calls: string[][]} {
  const calls: string[][] = [];
  return {
    calls,
    run: async (args) => {
      calls.push([...args]);
      return reply;
    },
  };
}

describe('pane options', () => {
  test('a value is set with no escape sequence, its # doubled', async () => {
    const runner = recording();
    await markPane(runner, '%1', '@nudge-needs', 'Allow \x1b]52;c;SGVsbG8=\x07#[fg=red]x?');
    expect(runner.calls).toEqual([
      ['set-option', '-p', '-t', '%1', '@nudge-needs', 'Allow ##[fg=red]x?'],
    ]);
  });

  test('read back as written', async () => {
    expect(await paneMark(recording('Allow ##[fg=red]x?\n'), '%1', '@nudge-needs')).toBe(
      'Allow #[fg=red]x?',
    );
  });

  test('a row of the server: what anyone in the pane set there comes back plain', async () => {
    const fields = [
      '%1',
      's',
      '0',
      '0',
      'bash',
      'blocked\x1b[2J',
      'j1',
      '',
      'x\x1b]0;t\x07y',
      '42',
      '$3',
      '/dev/pts/7',
      // The title last: a separator a program put in it stays in it.
      `work | 01a2${FIELD_SEPARATOR}4b21...`,
    ];
    const rows = await paneStates(recording(`${fields.join(FIELD_SEPARATOR)}\n`));
    expect(rows[0]).toMatchObject({
      state: 'blocked',
      needs: 'xy',
      panePid: 42,
      sessionId: '$3',
      tty: '/dev/pts/7',
      title: `work | 01a2${FIELD_SEPARATOR}4b21...`,
    });
  });
});
