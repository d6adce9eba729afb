import {readFile, rm, writeFile} from 'node:fs/promises';
import {join} from 'node:path';
import {FILE_MODE} from '../base/paths.js';
import {isRunning, type ProcessId} from '../process/identity.js';

/** The marker in a job's folder that `nudge queue edit` has its text open in $EDITOR: the
 * editing process, as JSON. */
const EDITING = 'editing';

/** Hold the job in `dir` for an edit by `holder`: its worker does not type until the edit is
 * written (releaseEdit) or that process is gone. */
export async function holdForEdit(dir: string, holder: ProcessId): Promise<void> {
  await writeFile(join(dir, EDITING), `${JSON.stringify(holder)}\n`, {mode: FILE_MODE});
}

export async function releaseEdit(dir: string): Promise<void> {
  await rm(join(dir, EDITING), {force: true});
}

/** The process holding the job in `dir` for an edit, while it runs. */
export async function editHolder(dir: string): Promise<ProcessId | undefined> {
  const text = await readFile(join(dir, EDITING), 'utf8').catch(() => undefined);
  if (text === undefined) return undefined;
  try {
    const id = JSON.parse(text) as ProcessId;
    return Number.isSafeInteger(id.pid) && isRunning(id) ? id : undefined;
  } catch {
    return undefined;
  }
}
