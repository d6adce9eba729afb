import {NudgeError} from '../base/errors.js';
import {resolveStateDir} from '../base/paths.js';
import type {SubmitOptions} from '../job-options/table.js';
import {NAME_PATTERN} from '../setup/schedule.js';
import {readScheduledJob, scheduleMarks} from '../setup/schedule-store.js';
import type {CommandContext} from './context.js';

/**
 * `nudge schedule run NAME`, what a crontab line, a unit or a plist runs: the submit it
 * stands for, read from the schedule's private file, aimed at the pane that carries its mark
 * now. No marked pane (closed, or tmux restarted: a pane there may have the old `%N`), or more
 * than one: nothing is typed, one sentence, exit 1. The caller runs the submit (`--wait`).
 */
export async function scheduledSubmit(
  o: {name: string},
  ctx: CommandContext,
): Promise<SubmitOptions> {
  if (!NAME_PATTERN.test(o.name))
    throw new NudgeError('bad-usage', `${JSON.stringify(o.name)} is not a schedule's name.`);
  const job = await readScheduledJob(resolveStateDir(ctx.env), o.name);
  const tmux = ctx.tmux({kind: 'socket-path', path: job.socket});
  const marks = scheduleMarks(o.name);
  const find = async (option: string): Promise<string> => {
    let found: Array<{paneId: string; value: string}>;
    try {
      found = (await tmux.panesMarked(option)).filter((m) => m.value === job.mark);
    } catch (error) {
      throw new NudgeError(
        'no-server',
        `Schedule ${o.name}: the tmux server at ${job.socket} does not answer (${(error as Error).message.split('\n')[0]}); nothing was typed.`,
      );
    }
    if (found.length === 1 && found[0]) return found[0].paneId;
    throw new NudgeError(
      'no-such-schedule',
      found.length === 0
        ? `Schedule ${o.name}: no pane carries its mark ${option} (the pane was closed, or tmux restarted); nothing was typed. Run nudge schedule again from the pane it is for.`
        : `Schedule ${o.name}: ${found.length} panes carry its mark ${option}; nothing was typed. Run nudge schedule again from the pane it is for.`,
    );
  };
  const pane = await find(marks.pane);
  const notifyPane = job.noticeMarked ? await find(marks.notice) : undefined;
  return {
    ...(job.submit as SubmitOptions),
    pane,
    notifyPane,
    socketPath: job.socket,
    socketName: undefined,
    wait: true,
  };
}
