/**
 * The colour of each state, one table for every view that colours states (`nudge top`'s rows,
 * the status line's segments), so a state looks the same wherever a person sees it.
 * Which states are bold is the view's to say (the status bar: those that wait on the person).
 */
const COLOUR: Record<string, string> = {
  blocked: 'red',
  'waiting-for-you': 'yellow',
  stalled: 'magenta',
  failed: 'red',
  timeout: 'red',
  lost: 'red',
  done: 'green',
  waiting: 'yellow',
  typing: 'cyan',
  locked: 'cyan',
  notifying: 'cyan',
  queued: 'gray',
};

/** The colour name (as Ink and tmux both spell it) of a state, if it has one. */
export function stateColour(state: string): string | undefined {
  return COLOUR[state];
}

/** The tmux style of a state (`fg=red`, `fg=red,bold`), if it has a colour. */
export function stateStyle(state: string, bold = false): string | undefined {
  const colour = COLOUR[state];
  if (colour === undefined) return undefined;
  return bold ? `fg=${colour},bold` : `fg=${colour}`;
}
