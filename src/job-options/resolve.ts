import {Buffer} from 'node:buffer';
import {z} from 'zod';
import {readOnce} from '../base/config.js';
import {NudgeError} from '../base/errors.js';
import type {StallPolicy} from '../detect/stall.js';
import {isStallPolicy, resolveStall} from '../detect/stall-options.js';
import {findUntypable} from '../tmux/typing.js';
import {type Reading, readRows, storedShape} from './stored.js';
import {SUBMIT_OPTIONS, type SubmitOptions} from './table.js';

/**
 * A job's options: the type request.json stores them as, derived from the rows of the table
 * (table.ts), and the one function that makes them from what was given.
 */

/** The largest text (UTF-8 bytes) one job may type. */
export const MAX_TEXT_BYTES = 64 * 1024;

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
  ...storedShape(SUBMIT_OPTIONS),
  ...PLACED,
});

export type JobOptions = z.infer<typeof JOB_OPTIONS>;

/**
 * A job's options from what was given and the person's config.toml (its via, busy policy,
 * sinks and stall watchdog): each row reads its value (or its default), then the checks
 * between rows. Everything but the notice's pane, which the command reaches. Throws
 * NudgeError (exit 2).
 */
export function resolveJobOptions(
  o: SubmitOptions,
  given: Reading['env'],
): Omit<JobOptions, 'notifyPane'> {
  const env = readOnce(given);
  const options = readRows(SUBMIT_OPTIONS, o, env);
  if (options.until.kind === 'exit' && !options.enter)
    throw new NudgeError(
      'bad-usage',
      '--until exit runs the command, so it cannot be combined with --no-enter.',
    );
  if (options.ifBusy === 'now' && o.stall !== undefined)
    throw new NudgeError(
      'bad-usage',
      '--stall watches the wait for the work to be done, and --if-busy now does not wait; give one of them.',
    );
  // A text handed to the agent's door is not waited on: config.toml's stall is not for it.
  const stall =
    options.ifBusy === 'now'
      ? null
      : resolveStall(o, env, 'submit', {intervalMs: options.intervalMs, continues: true});
  return {...options, noticeElsewhere: o.noticeElsewhere ?? null, stall};
}

/** Check the text to type; throws NudgeError (exit 2). */
export function validateText(text: string): void {
  if (text.trim() === '') {
    throw new NudgeError(
      'empty-text',
      'Nothing to type: give the text after "--", e.g. nudge submit -- \'npm test\'.',
    );
  }
  const bad = findUntypable(text);
  if (bad)
    throw new NudgeError(
      'untypable-text',
      `The text contains ${bad}, which tmux cannot type; remove it.`,
    );
  const bytes = Buffer.byteLength(text, 'utf8');
  if (bytes > MAX_TEXT_BYTES) {
    throw new NudgeError(
      'text-too-long',
      `The text is ${bytes} bytes, more than the ${MAX_TEXT_BYTES}-byte limit; put it in a file and type a command that reads it.`,
    );
  }
}
