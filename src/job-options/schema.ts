import {z} from 'zod';
import type {StallPolicy} from '../detect/stall.js';
import {isStallPolicy} from '../detect/stall-options.js';
import {storedShape} from './stored.js';
import {SUBMIT_OPTIONS} from './table.js';

/**
 * A job's options as request.json stores them: their type and their check in one, made from
 * the rows of the table (table.ts). Loaded where a request is checked (the worker trusts
 * nothing unchecked: src/jobs/request.ts), not by `nudge submit`, which makes them
 * (resolve.ts) without loading zod.
 */

/** The fields no one flag's value gives: the notice's pane (the command reaches it), the
 * notice's other host (a relay sets it), the stall watchdog (three flags and the config). */
const PLACED = {
  /** The pane (`%N`) the notice is typed into; null: the pane typed into. */
  notifyPane: z
    .string()
    .regex(/^%\d+$/)
    .nullable()
    .describe('a pane id or null'),
  /** The notice's pane is on another host (`HOST:%N`): the worker records it in the ending,
   * and the relay on the submitting machine types it there. Absent or null: typed here. */
  noticeElsewhere: z
    .string()
    .regex(/^.{1,255}:%\d+$/)
    .nullish()
    .describe('HOST:%N or null'),
  /** The stall watchdog over the wait; absent or null: off. */
  stall: z.custom<StallPolicy>(isStallPolicy).nullish().describe('a stall policy'),
};

/**
 * Per-job behaviour as request.json stores it, durations in milliseconds: the type of a job's
 * options and their check in one (the worker trusts nothing unchecked), made of the rows'
 * stored fields and the placed ones.
 */
export const JOB_OPTIONS = z.object({
  ...storedShape(SUBMIT_OPTIONS, z),
  ...PLACED,
});

export type JobOptions = z.infer<typeof JOB_OPTIONS>;
