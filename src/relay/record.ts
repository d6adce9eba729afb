import {mkdir, readFile} from 'node:fs/promises';
import {join} from 'node:path';
import {NudgeError} from '../base/errors.js';
import {writeFileAtomic} from '../base/fs.js';
import {DIR_MODE, JOB_ID_PATTERN} from '../base/paths.js';

/** A relay's record (`<state>/relays/<job>.json`): what src/relay/relay.ts follows and
 * writes, and what `nudge status` reads of it (without loading the relay itself). */
export interface RelaySpec {
  /** The job followed (its id on its host). */
  job: string;
  /** The job's host (absent: this machine). */
  from?: string | undefined;
  /** The notice's pane, and its host (absent: this machine). */
  to: {host?: string | undefined; pane: string};
  /** The notice as submitted here: its template (absent: the default) and the job's --until.
   * The relay renders the notice from these and the job's state, number and duration; no
   * text the other host sends is typed (docs/security.md). */
  notice: {template?: string | undefined; until?: string | undefined};
}

/** A relay's states: following the job, typing its notice, and the three ends. */
export type RelayState = 'following' | 'delivering' | 'delivered' | 'no-notice' | 'failed';

/** Which state may follow which: every state is a key (an exhaustive machine). */
export const RELAY_NEXT: Readonly<Record<RelayState, readonly RelayState[]>> = {
  following: ['delivering', 'no-notice', 'failed'],
  delivering: ['delivered', 'failed'],
  delivered: [],
  'no-notice': [],
  failed: [],
};

/** Whether a relay in `state` has ended. */
export function relayEnded(state: RelayState): boolean {
  return RELAY_NEXT[state].length === 0;
}

/** What a relay did, in `<state>/relays/<job>.json`. */
export interface RelayRecord extends RelaySpec {
  state: RelayState;
  /** The job that typed the notice (on the notice's host). */
  delivery?: string | undefined;
  error?: string | undefined;
  updatedAt: string;
}

/** The folder of the relays' records and logs. */
export function relaysDir(stateDir: string): string {
  return join(stateDir, 'relays');
}

/** Write a relay's record (its folder made private first). The job's id came from another
 * host: it names a file here only when it is a job id (no `/`, no `..`), else it is refused. */
export async function writeRelay(stateDir: string, record: RelayRecord): Promise<void> {
  if (!JOB_ID_PATTERN.test(record.job))
    throw new NudgeError(
      'host-failed',
      `The other host answered a job id nudge does not take (${JSON.stringify(record.job.slice(0, 40))}); nothing was written.`,
    );
  await mkdir(relaysDir(stateDir), {recursive: true, mode: DIR_MODE});
  await writeFileAtomic(join(relaysDir(stateDir), `${record.job}.json`), JSON.stringify(record));
}

/** The relay of a job, if this machine started one. */
export async function relayOf(stateDir: string, job: string): Promise<RelayRecord | undefined> {
  if (!JOB_ID_PATTERN.test(job)) return undefined;
  try {
    return JSON.parse(await readFile(join(relaysDir(stateDir), `${job}.json`), 'utf8'));
  } catch {
    return undefined;
  }
}
