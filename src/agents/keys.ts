/**
 * The keys a profile sends: the names tmux takes as keys (never text), and every key a
 * profile file's table would send.
 */

/** tmux's names of keys (key-string.c) that type no text on any tmux nudge is tested on: the
 * cursor and function keys with `C-`, `M-` and `S-` before them (in that order: `C-S-Left`);
 * Enter, Tab and BTab alone or with one `C-` or `M-`, Escape, BSpace and KPEnter alone or with
 * `M-` (3.3a types `S-Tab` or `C-M-Enter` as those letters, 3.5a and 3.8 `C-Escape` and
 * `C-BSpace`); and `C-` or `M-` before one lower-case letter
 * (`C-u`, `M-x`, `C-M-a`). What tmux would type as a printable character is refused: a bare
 * character, `S-` before one (3.5a and 3.8 type `S-e` as the letter, issue 42), `C-S-t` (3.3a
 * types `T`), `C-1` (3.5a and 3.8 type `1`), `Space`, the keypad's digits and signs (issue
 * 61). test/integration/key-names.test.ts presses every name of these forms on each tmux. */
export const TMUX_KEY_NAME =
  /^(?:C-)?(?:M-)?(?:S-)?(?:Up|Down|Left|Right|Home|End|IC|DC|Insert|Delete|PPage|PgUp|PageUp|NPage|PgDn|PageDown|F(?:[1-9]|1[0-2]))$|^(?:C-|M-)?(?:Enter|Tab|BTab)$|^(?:M-)?(?:Escape|BSpace|KPEnter)$|^(?:C-|M-|C-M-)[a-z]$/;

/** Every key a profile file's table would send (its key fields, in file order), for the person
 * to read before trusting it (`nudge agents trust`, `nudge agents check`). */
export function keysOfTable(table: Record<string, unknown>): string[] {
  const keys: string[] = [];
  const groups = (v: unknown) => {
    if (!Array.isArray(v)) return;
    for (const g of v) if (Array.isArray(g)) keys.push(...g.filter((k) => typeof k === 'string'));
  };
  groups(table.clearKeys);
  const modes = table.inputModes;
  if (modes && typeof modes === 'object')
    for (const m of Object.values(modes)) groups((m as {leaveKeys?: unknown}).leaveKeys);
  if (Array.isArray(table.dialogs))
    for (const d of table.dialogs) groups((d as {denyKeys?: unknown} | null)?.denyKeys);
  if (typeof table.queueKey === 'string') keys.push(table.queueKey);
  return keys;
}
