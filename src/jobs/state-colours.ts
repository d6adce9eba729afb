/**
 * The colour of each state, one table for every view that colours states (`nudge top`'s rows,
 * the status line's segments), so a state looks the same wherever a person sees it.
 * States that need the person are bold where the view can embolden.
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

const NEEDS_PERSON = new Set(['blocked', 'waiting-for-you', 'stalled']);

/** The colour name (as Ink and tmux both spell it) of a state, if it has one. */
export function stateColour(state: string): string | undefined {
  return COLOUR[state];
}

/** The tmux style of a state (`fg=red,bold`), if it has a colour. */
export function stateStyle(state: string): string | undefined {
  const colour = COLOUR[state];
  if (colour === undefined) return undefined;
  return NEEDS_PERSON.has(state) ? `fg=${colour},bold` : `fg=${colour}`;
}
