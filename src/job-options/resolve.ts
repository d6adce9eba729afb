import {Buffer} from 'node:buffer';
import {readOnce} from '../base/config.js';
import {NudgeError} from '../base/errors.js';
import {resolveStall} from '../detect/stall-options.js';
import {findUntypable} from '../tmux/typing.js';
import {MAX_TEXT_BYTES} from './limits.js';
import type {JobOptions} from './schema.js';
import {type Reading, readRows} from './stored.js';
import {SUBMIT_OPTIONS, type SubmitOptions} from './table.js';

/**
 * The one function that makes a job's options from what was given (their stored type and its
 * check: schema.ts).
 */

export {MAX_TEXT_BYTES} from './limits.js';

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
