import type {Delivery} from '../pane/failures.js';
import type {JobEvents} from './events.js';
import type {Step} from './receipts.js';

// Which event of a job's worker proves which rung of its receipts (src/jobs/receipts.ts).

const DELIVERED_WHY: Record<Delivery, string | undefined> = {
  submitted: 'read back at the prompt: the program took it',
  'submitted-after-retry': 'read back at the prompt after Enter again: the program took it',
  queued: 'the agent queued it behind its running turn',
  unconfirmed: 'typed and Enter pressed; its echo could not be read back',
  'no-enter': 'typed, Enter not pressed (--no-enter)',
  'not-submitted': undefined,
  shown: undefined,
};

type EventOf<K extends keyof JobEvents> = {name: K; data: JobEvents[K]};
/** One event of a job, as its recorder is given it. */
export type ReceiptEvent = {[K in keyof JobEvents]: EventOf<K>}[keyof JobEvents];

/** Why a job waits before its text goes in, by the event that says so. */
const HELD_BY: {[K in keyof JobEvents]?: (data: JobEvents[K]) => string} = {
  'waiting-for-lock': ({ahead, pane}) =>
    ahead > 0
      ? `behind ${ahead} job${ahead === 1 ? '' : 's'} at ${pane}`
      : `waiting for ${pane}'s lock`,
  'waiting-for-draft': () => "a person's draft in the composer",
  'waiting-for-half-line': () => "a cancelled job's half line in the input",
  'waiting-for-composer': () => "the agent's composer not on screen yet",
  'waiting-for-start': () => 'the agent still starting',
  'waiting-for-idle': () => 'the pane busy (--when-idle)',
  'waiting-for-program': ({program}) => `behind ${program} in the pane's foreground`,
  'waiting-for-edit': () => 'open in an editor (nudge queue edit)',
  'waiting-to-leave-mode': ({mode}) => `the pane in ${mode}`,
  'waiting-for-turn': () => "the agent's turn (shell mode takes a command only between turns)",
  limit: ({resets}) => `a usage limit, resets ${resets}`,
};

function heldBy(e: ReceiptEvent): string | undefined {
  const why = HELD_BY[e.name] as ((data: ReceiptEvent['data']) => string) | undefined;
  return why?.(e.data);
}

/**
 * The rung one event of a job's worker proves, if any. `notifying`: the job sends its notice
 * now — its doors are the notice's, not the message's.
 */
export function rungOfEvent(e: ReceiptEvent, notifying: boolean): Step {
  const held = heldBy(e);
  if (held) return {rung: 'held', why: held};
  switch (e.name) {
    case 'typed': {
      const why = DELIVERED_WHY[e.data.delivery];
      return why ? {rung: 'delivered', why} : undefined;
    }
    case 'door': {
      if (notifying) return undefined;
      if (e.data.result === 'held') return {rung: 'held', why: `${e.data.door}: ${e.data.why}`};
      if (e.data.result !== 'delivered') return undefined;
      const how = e.data.delivery === 'queued' ? ', queued behind its turn' : '';
      return {rung: 'delivered', why: `taken by ${e.data.door}'s door${how}`};
    }
    case 'turn-started':
      return {rung: 'turn-started', why: e.data.by};
    case 'condition-met':
      return {rung: 'turn-ended', why: metBecause(e.data)};
    case 'fail-pattern':
      return {rung: 'turn-ended', why: `a fail pattern showed: ${e.data.match ?? ''}`.trim()};
    default:
      return undefined;
  }
}

/** Why the wait's condition held, in words: the command's status, what matched, or the
 * verdict (an agent's settling). */
function metBecause(found: JobEvents['condition-met']): string {
  if (found.exitCode !== undefined) return `the command exited with status ${found.exitCode}`;
  if (found.match !== undefined) return `matched: ${found.match}`;
  return found.verdict && found.verdict !== 'done' ? found.verdict : 'the wait ended: done';
}
