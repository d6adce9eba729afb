import {MODE_GUARD_OPTION} from './control-line.js';
import {TmuxCommandError, type TmuxRunner} from './runner.js';

/**
 * Input only while the pane is in no mode, decided inside the tmux server.
 *
 * A person who scrolls up (the mouse wheel, `prefix [`) puts the pane in copy mode, and tmux
 * hands every key sent meanwhile to copy mode: `q` leaves it and the rest of the text reaches
 * the program cut short (measured: bash ran 73 of 101 characters of a command). A look before
 * each key cannot close that gap, so every key and paste goes in one tmux call behind a check
 * that fails while the pane is in a mode: the check unsets a pane option of ours, sets it again
 * when `#{pane_in_mode}` is true (if-shell -F runs its command at once, before the next one of
 * the list), then sets it with `-o` (only if unset) — which fails when the pane is in a mode,
 * and tmux drops the rest of a command list after a failing command. Checked on tmux 3.3a,
 * 3.5a and 3.8 (test/integration/copy-mode.test.ts runs in the tmux matrix), over both
 * transports (the control runner takes this one if-shell: src/tmux/control-line.ts).
 */
const OPTION = MODE_GUARD_OPTION;

/** The commands that go before an input command to `pane` (a `%N` id), ending in `;`. */
export function modeGuard(pane: string): string[] {
  if (!/^%\d+$/.test(pane)) throw new Error(`the mode guard needs a pane id, got ${pane}`);
  return [
    'set-option',
    '-p',
    '-u',
    '-t',
    pane,
    OPTION,
    ';',
    'if-shell',
    '-F',
    '-t',
    pane,
    '#{pane_in_mode}',
    `set-option -p -t ${pane} ${OPTION} 1`,
    ';',
    'set-option',
    '-p',
    '-o',
    '-t',
    pane,
    OPTION,
    '0',
    ';',
  ];
}

/** Keys for the pane were refused because a person put it in a mode (copy mode …). */
export class PaneInMode extends Error {
  override name = 'PaneInMode';
  constructor(readonly pane: string) {
    super(`pane ${pane} is in a mode (copy mode): no key may go to it until it leaves`);
  }
}

/** Run `args` (input for `pane`) behind the mode guard; PaneInMode when it refused. */
export async function guardedInput(
  runner: TmuxRunner,
  pane: string,
  args: readonly string[],
): Promise<string> {
  try {
    return await runner.run([...modeGuard(pane), ...args]);
  } catch (error) {
    if (error instanceof TmuxCommandError && error.stderr.includes(OPTION))
      throw new PaneInMode(pane);
    throw error;
  }
}
