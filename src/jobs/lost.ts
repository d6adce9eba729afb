import {readFile, writeFile} from 'node:fs/promises';
import {join} from 'node:path';
import type {Clock} from '../base/clock.js';
import {describeError} from '../base/errors.js';
import {FILE_MODE} from '../base/paths.js';
import {thisProcess} from '../base/this-process.js';
import type {ServerSpec} from '../tmux/server.js';
import type {Tmux} from '../tmux/tmux.js';

/** What telling of a lost job takes (a command's context has it). */
export interface LostDeps {
  env: Record<string, string | undefined>;
  clock: Clock;
  tmux(spec: ServerSpec): Tmux;
}

import {notifyPreviewOf} from '../notify/config.js';
import {teller} from '../notify/tell.js';
import type {JobHandle, JobRecord} from './store.js';

/** The marker that a lost job's person was told (at most once, whoever noticed first). */
const LOST_TOLD = 'lost-told';

/**
 * Tell a lost job's `--notify` sinks that its worker is gone and it never finished: done by
 * the first nudge command that finds it so (`jobs`, `status`), once — the marker is created
 * exclusively, and a second command finds it there. Never throws.
 */
export async function tellLost(handle: JobHandle, record: JobRecord, ctx: LostDeps): Promise<void> {
  try {
    const sinks = await sinksOf(handle);
    if (sinks.length === 0) return;
    await writeFile(join(handle.dir, LOST_TOLD), `${thisProcess.pid}\n`, {
      flag: 'wx',
      mode: FILE_MODE,
    });
    const tell = teller({
      sinks,
      job: {id: record.id, pane: record.pane, preview: record.preview},
      previewOut: notifyPreviewOf(ctx.env),
      deps: {
        clock: ctx.clock,
        tmux: ctx.tmux({kind: 'socket-path', path: record.socketPath}),
        platform: thisProcess.platform,
      },
      record: (about, told) =>
        handle.appendEvent(told.ok ? 'notify-sent' : 'notify-failed', {about, ...told}),
    });
    await tell({
      event: 'lost',
      state: 'lost',
      reason: `Its process ${record.pid ?? '?'} is gone; the job never finished.`,
    });
  } catch (error) {
    // Told already (the marker exists), or the request unreadable: nothing more to do.
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') void describeError(error);
  }
}

async function sinksOf(handle: JobHandle): Promise<string[]> {
  const request = JSON.parse(await readFile(handle.requestPath, 'utf8')) as {
    options?: {notifySinks?: unknown};
  };
  const sinks = request.options?.notifySinks;
  return Array.isArray(sinks) ? sinks.filter((s): s is string => typeof s === 'string') : [];
}
