import type {Profile} from '../agents/profile.js';
import {isAgent} from '../agents/profile.js';

/** How long a line of nudge's own waits for its pane: for the pane's lock, and for a
 * person's draft there to be sent or cleared. */
export interface OwnLineWaits {
  lockTimeoutMs: number;
  draftWaitMs: number;
}

/**
 * The one table of how long nudge's own lines wait, by who types them. `submit`'s defaults
 * (--lock-timeout, --draft-wait) are the notice's row; a run's notice waits longer for a
 * draft (the person may be answering its question in that pane).
 */
export const OWN_LINE_WAITS = {
  /** A job's notice (and the defaults of `submit`'s text). */
  notice: {lockTimeoutMs: 10 * 60_000, draftWaitMs: 30_000},
  /** A watcher's line (its decision, typed into the agent's pane). */
  watcher: {lockTimeoutMs: 10 * 60_000, draftWaitMs: 30_000},
  /** A run's notice or permission question, into the calling pane. */
  run: {lockTimeoutMs: 10 * 60_000, draftWaitMs: 60_000},
} as const satisfies Record<string, OwnLineWaits>;

/** The pace of typing into a shell or a program nudge does not know (`submit`'s defaults:
 * --type-delay, --enter-delay). */
export const SHELL_PACE = {typeDelayMs: 20, enterDelayMs: 500} as const;

/** How a line is paced: characters apart, and the pause before Enter. */
export interface Pace {
  typeDelayMs: number;
  enterDelayMs: number;
}

/**
 * The pace of one line of nudge's own (no picker character, nothing a person typed): to an
 * agent a one-line text goes as one burst followed by the profile's measured least pause
 * before Enter, so an agent waits for its wake-up no longer than it must; anything else goes
 * at `otherwise` (the job's own pace, or SHELL_PACE).
 */
export function ownLinePace(profile: Profile, line: string, otherwise: Pace): Pace {
  return isAgent(profile) && !/[\r\n]/.test(line)
    ? {typeDelayMs: 0, enterDelayMs: profile.minEnterDelayMs}
    : {typeDelayMs: otherwise.typeDelayMs, enterDelayMs: otherwise.enterDelayMs};
}
