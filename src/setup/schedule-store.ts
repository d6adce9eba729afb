import {lstat} from 'node:fs/promises';
import {join} from 'node:path';
import {READ_LIMITS, readTextCapped} from '../base/bounded-read.js';
import {NudgeError} from '../base/errors.js';
import {writeFileAtomic} from '../base/fs.js';
import {thisProcess} from '../base/this-process.js';

/**
 * What a schedule types, kept where no scheduler sees it (docs/security.md): a 0600 file under
 * the state directory, `schedule/<name>.json`. The crontab line, the unit and the plist only
 * run `nudge schedule run NAME`; the text, its options and the pane's mark are read from here
 * when it fires, so no text becomes configuration and none sits in `ps`.
 */
export interface ScheduledJob {
  version: 1;
  name: string;
  /** The tmux server's socket (a schedule runs outside tmux). */
  socket: string;
  /** The value of the pane option `@nudge-schedule-<name>` on the pane it types into (and
   * `@nudge-schedule-<name>-notice` on the pane its notice goes to): a pane that merely has
   * the old `%N` after a tmux restart carries no such mark. */
  mark: string;
  /** Whether the notice goes to a marked pane of its own. */
  noticeMarked: boolean;
  /** The panes the marks were put on, and their server then (`nudge recover` marks the new
   * pane of a recovered run again). Absent in files written before it existed. */
  marked?: {serverPid: number; pane: string; notice?: string | undefined} | undefined;
  /** The submit options as given, without the panes and the server (the marks say those). */
  submit: Record<string, unknown> & {text: string};
}

/** The file of schedule `name`. */
export function scheduledJobPath(stateDir: string, name: string): string {
  return join(stateDir, 'schedule', `${name}.json`);
}

/** The pane options that mark a schedule's panes. */
export function scheduleMarks(name: string): {pane: string; notice: string} {
  return {pane: `@nudge-schedule-${name}`, notice: `@nudge-schedule-${name}-notice`};
}

export async function writeScheduledJob(stateDir: string, job: ScheduledJob): Promise<string> {
  const path = scheduledJobPath(stateDir, job.name);
  await writeFileAtomic(path, `${JSON.stringify(job, null, 2)}\n`);
  return path;
}

/** Read schedule `name`'s file: it must be a plain file of ours that no one else can write
 * (it says what is typed); one sentence otherwise. */
export async function readScheduledJob(stateDir: string, name: string): Promise<ScheduledJob> {
  const path = scheduledJobPath(stateDir, name);
  let text: string;
  try {
    const st = await lstat(path);
    const mine = thisProcess.uid === undefined || st.uid === thisProcess.uid;
    if (!st.isFile() || !mine || (st.mode & 0o022) !== 0)
      throw new NudgeError(
        'state-dir',
        `${path} is not a private file of yours (a symlink, another owner, or writable by others); nothing was typed: run nudge schedule again.`,
      );
    text = await readTextCapped(path, READ_LIMITS.config);
  } catch (error) {
    if (error instanceof NudgeError) throw error;
    throw new NudgeError(
      'no-such-schedule',
      `No schedule ${JSON.stringify(name)} (${path} cannot be read: ${(error as NodeJS.ErrnoException).code ?? error}); nothing was typed.`,
    );
  }
  const job = JSON.parse(text) as ScheduledJob;
  if (
    job.version !== 1 ||
    job.name !== name ||
    typeof job.socket !== 'string' ||
    typeof job.mark !== 'string' ||
    typeof job.submit?.text !== 'string'
  )
    throw new NudgeError(
      'no-such-schedule',
      `${path} is not a schedule nudge wrote; nothing was typed.`,
    );
  return job;
}

/** A word written into a crontab, a unit or a plist must hold no control character: a newline
 * would add a line (a command) there. One sentence naming it otherwise. */
export function checkConfigWord(word: string, what: string): void {
  if (/[\u0000-\u001f\u007f]/.test(word))
    throw new NudgeError(
      'bad-usage',
      `${what} ${JSON.stringify(word)} holds a control character (a newline, a tab …), which a schedule's files cannot carry; use a path without one.`,
    );
}
