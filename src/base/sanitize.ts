/**
 * Text from outside nudge (a hook's payload, an agent's session record, a screen, another
 * host's reply) shown to the person or stored in a tmux option (docs/security.md): one
 * sanitiser, so no escape sequence reaches the person's terminal (OSC 52 writes the
 * clipboard, OSC 0 the title, CSI 2J clears the screen) and no `#[…]` restyles the bar.
 *
 * Whole escape sequences go (CSI, OSC, DCS/SOS/PM/APC strings, two-byte escapes), then every
 * C0 control but newline and tab, DEL and every C1 control. Linear: each pattern has one
 * bounded way to match.
 */

// ESC [ params intermediates final | ESC ] … (BEL | ESC \ | end) | ESC P/X/^/_ … ST | ESC x.
// The C1 forms (CSI U+009B, OSC U+009D, DCS U+0090 …) the same.
const SEQUENCE =
  /(?:\x1b\[|\u009b)[0-?]*[ -/]*[@-~]?|(?:\x1b[\]PX^_]|[\u009d\u0090\u0098\u009e\u009f])[^\x07\x1b\u009c]*(?:\x07|\x1b\\|\u009c)?|\x1b[ -/]*[0-~]?/g;
// What is left: C0 but \t and \n, DEL, C1.
const CONTROL = /[\x00-\x08\x0b-\x1f\x7f-\x9f]/g;

/** Text for the person's terminal: escape sequences and control characters removed; lines
 * and tabs kept. */
export function plainText(text: string): string {
  return text.replace(SEQUENCE, '').replace(CONTROL, '');
}

/** A line of nudge's own, as it is typed (a notice, an assessor's answer, a continue line):
 * plainText with a tab (a shell's completion) or a line break (Enter) made a space. */
export function ownLineText(text: string): string {
  return plainText(text).replace(/[\t\r\n]/g, ' ');
}

/** plainText on one line: runs of white space (newlines too) become one space. */
export function plainLine(text: string): string {
  return plainText(text).replace(/\s+/g, ' ').trim();
}

/** plainLine for a tmux format (a status bar, a pane option shown through `#{@…}`): every `#`
 * doubled, so `#[…]`, `#(…)` and `#{…}` are shown as written, never run. */
export function formatText(text: string): string {
  return plainLine(text).replace(/#/g, '##');
}

/** What formatText stored, as the person wrote it (`##` → `#`). */
export function unformatText(text: string): string {
  return text.replace(/##/g, '#');
}
