import type {Pattern} from '../base/pattern.js';
import type {WorkItem} from './work.js';

/** A server an agent shares between its sessions (`[identity] servers`), as the pane proof
 * reads it (src/pane/own-pane.ts). */
export interface SharedServer {
  agent: string;
  pattern: Pattern;
  /** The variable that names the agent's thread in a tool call, if it has one. */
  thread?: string | undefined;
  /** How many characters of the thread id the agent's pane title shows, if it shows it. */
  titleThread?: number | undefined;
  /** The agent's programs (its profile's), that a pane showing its thread must run. */
  programs: readonly Pattern[];
}

/** An agent's "I finished a turn" hook call, as read from its payload. */
export interface TurnEnd {
  /** The agent's session (thread) id, when the payload names it. */
  session?: string;
  /** The turn's user inputs, when the payload gives them (Codex's `input-messages`): what
   * proves the turn's pane where its hook runs outside it (src/jobs/typed-turn.ts). */
  inputs?: string[];
  /** What the agent says still runs after this turn (Claude Code's `background_tasks` and
   * `session_crons`), when its payload says: undefined when it does not (the screen decides),
   * `[]` when nothing does. */
  work?: WorkItem[];
}
