import {wrapAnsi} from 'fast-wrap-ansi';
import {VERBS} from '../front/verbs.js';

/** Text laid out for the person's terminal: wrapped at words (tables: src/render/text.ts). */

/** `text` wrapped at word boundaries to `width`, every line after the first (and the first,
 * when `first` is given) led by `indent` spaces. A word longer than the line (a path) stays
 * whole on a line of its own rather than being cut. */
export function wrapped(text: string, width: number, indent: number, first = ''): string[] {
  // No width (a pipe): one whole line.
  if (!Number.isFinite(width)) return [`${first}${text}`];
  const room = Math.max(20, width - indent);
  // A command to paste is never broken: its spaces are kept from the wrapper.
  const kept = text.replace(COMMAND, keepCommand);
  const lines = wrapAnsi(kept, room, {hard: false, trim: true, wordWrap: true}).split('\n');
  return lines.map((l, i) => `${i === 0 ? first : ' '.repeat(indent)}${l.replaceAll(KEEP, ' ')}`);
}

/** A command in a sentence: `nudge VERB`, `tmux` with a flag or a hyphened command, or
 * `chmod MODE`, and its words up to a comma, a semicolon, a bracket or a word that ends a
 * clause (`.`, `:`). Prose that names nudge or tmux ("nudge works with …") is not one. */
const COMMAND =
  /\b(?:nudge (?=[a-z])|tmux (?=-|[a-z]+-)|chmod (?=\d))[^\s,;()]*[^\s,;().:](?: [^\s,;()]*[^\s,;().:])*/g;
const NUDGE_WORDS = new Set([
  ...Object.keys(VERBS).map((v) => v.split('-')[0]),
  ...['install', 'agents', 'explain', 'mcp', 'schedule', 'completion', 'hook', 'uninstall'],
]);
/** Keep `match` whole unless it is `nudge` and a word that is not one of its commands. */
const keepCommand = (match: string) =>
  match.startsWith('nudge ') && !NUDGE_WORDS.has(match.split(' ')[1] ?? '')
    ? match
    : match.replaceAll(' ', KEEP);
const KEEP = '\u00a0';
