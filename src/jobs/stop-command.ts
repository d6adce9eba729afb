import type {Clock} from '../base/clock.js';
import type {PaneIo} from '../pane/keys.js';
import type {Foreground} from '../process/foreground.js';

/** How a cancelled job stops the command it typed (JobDeps.stopWork). */
export interface StopWork {
  /** Whether to stop it: a person's `nudge cancel` without `--keep-running` (a signal from
   * outside, a shutdown's, leaves it). */
  wanted: () => Promise<boolean>;
  /** End a process group: SIGTERM, then SIGKILL (src/process/group.ts). */
  endGroup: (pgid: number) => Promise<'gone' | 'terminated' | 'killed'>;
}

/** How long the command gets after C-c before its process group is ended. */
const INTERRUPT_GRACE_MS = 500;

/**
 * A cancelled job's command still running in its shell's pane (a program, not the shell,
 * holds the terminal): C-c to it, as a person would, then, if the same group still holds the
 * terminal, end that group's processes. Nothing when the shell holds the terminal. Resolves
 * to what was done, for the ending's reason (undefined: nothing ran).
 */
export async function stopCommand(
  io: PaneIo,
  deps: {foreground: Pick<Foreground, 'group'>; clock: Clock; stopWork: StopWork},
  pane: string,
  panePid: number,
): Promise<string | undefined> {
  const group = await deps.foreground.group(panePid);
  if (group === undefined || group === panePid || !(await deps.stopWork.wanted())) return undefined;
  io.guard();
  await io.tmux.pressKeys(pane, ['C-c']);
  await io.note('command-interrupted', {pane, keys: ['C-c'], group});
  await deps.clock.sleep(INTERRUPT_GRACE_MS);
  if ((await deps.foreground.group(panePid)) !== group) return 'its command was interrupted (C-c)';
  const how = await deps.stopWork.endGroup(group);
  await io.note('command-group-ended', {pane, group, how});
  return `its command was interrupted (C-c) and its process group ${how}`;
}
