/**
 * What the pane services report as they work, by event name. A job records them in its
 * events.jsonl and log; another front end (the watcher) in its transcript. Each is one typed
 * event: `note('left-input-mode', {pane, mode})`.
 */
export interface PaneEvents {
  /** A tmux mode (copy mode, ...) was left before typing. */
  'left-mode': {pane: string; mode: string};
  /** An agent's input mode (shell mode, bash mode) was left before typing. */
  'left-input-mode': {pane: string; mode: string};
  /** The job's own text, put back in the composer by an interrupted turn, was cleared. */
  'own-text-cleared': {pane: string; chars: number};
  /** A person's draft was cleared (--clear-draft). */
  'draft-cleared': {pane: string; chars: number};
  'waiting-for-composer': {pane: string; profile: string};
  /** The program is still starting (its profile's `starting` marker shows). */
  'waiting-for-start': {pane: string; profile: string};
  'waiting-for-draft': {pane: string; chars: number};
  /** A cancelled job left a half line nudge cannot clear: waiting for the person. */
  'waiting-for-half-line': {pane: string; job: string; chars: number};
  'waiting-to-leave-mode': {pane: string; mode: string};
  /** The person sent or cleared what the job waited for (a draft, a half line). */
  'person-done': {pane: string};
  /** The text went as one bracketed paste; `verified`: the composer showed it whole. */
  pasted: {pane: string; chars: number; verified: boolean};
  /** A command typed into an agent's shell mode, which drops or refuses one while a turn
   * runs (Profile.shellNeedsIdle): Enter waits for the turn to end. */
  'waiting-for-turn': {pane: string; why: 'shell-mode'};
  /** The agent was busy: the line goes with its queue key instead of Enter. */
  queueing: {pane: string; key: string};
  /** Enter was not pressed, or did not take; `read`: what the input line held instead. */
  'not-submitted': {pane: string; enters?: number; why?: string; read?: string};
  /** The line held only the end of the text (its start read as a key sequence): cleared,
   * and the text typed again. */
  retyping:
    | {pane: string; why: 'lost-start'; read: string}
    | {pane: string; why: 'mode-entered'; cleared: number};
  /** A person put the pane in copy mode while nudge typed: tmux refused the rest (`typed` of
   * `of` characters had arrived), or the Enter (`before`). */
  'mode-entered': {pane: string; typed?: number; of?: number; before?: 'Enter'};
  'enter-retry': {pane: string; enters: number};
  /** --when-idle. */
  'waiting-for-idle': {pane: string; profile: string};
  idle: {pane: string; waitedMs: number};
  /** A line of nudge's own waits a moment for the shell's prompt (a command ending). */
  'own-line-awaits-prompt': {pane: string; why: string};
  /** A line of nudge's own was shown as a tmux message, not typed: a shell would run it. */
  'own-line-shown': {pane: string; why: string};
  /** A line of nudge's own failed its read-back: the input line was cleared, not left to run. */
  'own-line-taken-back': {pane: string};
  /** A cancelled job's command was interrupted (the keys), then its process group ended. */
  'command-interrupted': {pane: string; keys: string[]; group: number; shell: number};
  'command-group-ended': {pane: string; group: number; how: string};
  /** The pane's shell runs a program in its foreground: the job waits behind it (`queue`). */
  'waiting-for-program': {pane: string; program: string};
}

/** Record one pane event. */
export type Note = <K extends keyof PaneEvents>(event: K, data: PaneEvents[K]) => Promise<void>;
