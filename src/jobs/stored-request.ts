import {MAX_TEXT_BYTES} from '../job-options/limits.js';
import {IF_BUSY, type IfBusy} from '../job-options/policies.js';

/** What the store reads of a job's request.json without checking every option (that is
 * src/jobs/request.ts, with the options' schemas): its bound, its busy policy, its preview. */

/** The largest request.json a worker reads: the text at its limit, JSON-escaped, and room for
 * the options around it. */
export const MAX_REQUEST_BYTES = MAX_TEXT_BYTES * 6 + 64 * 1024;

/** The busy policy of stored options: `ifBusy`, or for a request stored before it was, what
 * its three booleans (`now`, `whenIdle`, `typeAhead`) said. */
export function storedIfBusy(o: Record<string, unknown> | undefined): IfBusy {
  if (typeof o?.ifBusy === 'string' && (IF_BUSY as readonly string[]).includes(o.ifBusy))
    return o.ifBusy as IfBusy;
  return o?.now === true
    ? 'now'
    : o?.whenIdle === true
      ? 'wait'
      : o?.typeAhead === true
        ? 'type-ahead'
        : 'queue';
}

/** The first line of `text`, at most 80 characters, for listings. */
export function previewText(text: string): string {
  const oneLine = text.replace(/\r\n|\r|\n/g, '⏎').replace(/[\x00-\x1f\x7f]/g, '·');
  return oneLine.length > 80 ? `${oneLine.slice(0, 79)}…` : oneLine;
}
