/**
 * What typing a text means, as a plan of steps. Pure: the worker turns the plan into tmux
 * calls.
 *
 * A newline in the text presses Enter, as a person typing it would: `\r\n`, `\n` and a lone
 * `\r` each become one Enter (sent after the enter delay), so multi-line text runs line by
 * line in a shell. Every other character is typed literally, one key event per character.
 */
export type TypingStep = {kind: 'chars'; chars: string[]} | {kind: 'enter'};

/** Split `text` into runs of literal characters and Enter presses. */
export function planTyping(text: string): TypingStep[] {
  const steps: TypingStep[] = [];
  for (const [i, line] of text.split(/\r\n|\n|\r/).entries()) {
    if (i > 0) steps.push({kind: 'enter'});
    if (line.length > 0) steps.push({kind: 'chars', chars: Array.from(line)});
  }
  return steps;
}

/** Characters tmux cannot type: NUL cannot travel in an argument. */
export function findUntypable(text: string): string | undefined {
  return text.includes('\0') ? 'a NUL character' : undefined;
}

/**
 * Make one character safe as a tmux `send-keys -l --` argument. tmux treats an argument
 * that ends in `;` as a command separator even after `--` (cmd-parse.y,
 * cmd_parse_from_arguments); a `\` before the final `;` makes it a literal `;`. Nothing
 * else in an argv argument is special to tmux (no quotes, `$`, `#{}` or key names with -l).
 */
export function literalArgument(chunk: string): string {
  return chunk.endsWith(';') ? `${chunk.slice(0, -1)}\\;` : chunk;
}
