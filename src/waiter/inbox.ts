import {readdirSync} from 'node:fs';
import {readdir, rename, rm} from 'node:fs/promises';
import {join} from 'node:path';
import {JOB_ID_PATTERN} from '../base/paths.js';
import {isPidAlive} from '../process/identity.js';

/**
 * The waiter's inbox: one file per job handed over (`<job>.json`, its caller's PER_CALLER
 * values in it), renamed while a waiter takes it.
 */

/** The names in `dir` ([] if it cannot be read), read synchronously: a small folder of the
 * state directory, read at each round of the waiter (its backstop every 5 s); through the
 * thread pool each read was one more wake-up of the waiter (issue 44). */
export function listFolder(dir: string): string[] {
  try {
    return readdirSync(dir);
  } catch {
    return [];
  }
}

/** The inbox's entries, oldest job first (job ids sort by time). An entry a waiter was taking
 * when it died (`<job>.json.<pid>.taken`, its pid gone) is put back first. */
export async function inboxEntries(inbox: string): Promise<string[]> {
  let names = listFolder(inbox);
  for (const name of names) {
    const taken = /^(.+\.json)\.(\d+)\.taken$/.exec(name);
    if (taken?.[1] && !isPidAlive(Number(taken[2]))) {
      await rename(join(inbox, name), join(inbox, taken[1])).catch(() => {});
      names = listFolder(inbox);
    }
  }
  return names
    .filter((n) => n.endsWith('.json') && JOB_ID_PATTERN.test(n.slice(0, -'.json'.length)))
    .sort();
}

/** Take a job's entry back out of the inbox (false: a waiter took it first). */
export async function takeBack(entry: string): Promise<boolean> {
  try {
    await rm(entry);
    return true;
  } catch {
    return false;
  }
}

/** Whether the job's entry is still in the inbox, or being taken (renamed to
 * `<job>.json.<pid>.taken` until the waiter has recorded itself as the job's process): the
 * worker stays the job's process until then, so the job is never without a live one. */
export async function stillOurs(inbox: string, jobId: string): Promise<boolean> {
  const names = await readdir(inbox).catch(() => [] as string[]);
  return names.some((n) => n === `${jobId}.json` || n.startsWith(`${jobId}.json.`));
}
