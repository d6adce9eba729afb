import {NudgeError} from './errors.js';

/**
 * What a file nudge reads back (a request, a record) is checked field by field, never taken
 * on trust: the small tests every such check is made of.
 */

/** A JSON object (not null, not a list). */
export const isObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);

/**
 * A record of version 1 read back from `path`, as an object, with the error that names the
 * file for what is wrong with it (`what`: "a job record", "a watcher record").
 */
export function versionOneRecord(
  value: unknown,
  path: string,
  what: string,
): {r: Record<string, unknown>; bad: (why: string) => NudgeError} {
  const bad = (why: string) =>
    new NudgeError('state-dir', `${path} is not ${what} nudge can read (${why}).`);
  if (!isObject(value)) throw bad('not an object');
  if (value.version !== 1)
    throw bad(`version ${JSON.stringify(value.version)}, this nudge reads 1`);
  return {r: value, bad};
}
