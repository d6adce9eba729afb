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
  /** SIGINT to the pane's shell itself: an interactive shell told so while a command of a
   * typed list runs abandons the rest of the list once that command ends, however it ends
   * (a C-c alone reaches only the command's group, and a command that catches it, or is
   * ended by SIGTERM, lets the shell run the next one). */
  interruptShell: (panePid: number) => void;
}

/** How long the command gets after C-c before its process group is ended. */
const INTERRUPT_GRACE_MS = 500;

/**
 * A cancelled job's command still running in its shell's pane (a program, not the shell,
 * holds the terminal): the shell told to abandon the rest of a typed list (`a; b`: SIGINT to
 * it), C-c to the command, as a person would, then, if the same group still holds the
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
  deps.stopWork.interruptShell(panePid);
  await io.tmux.pressKeys(pane, ['C-c']);
  await io.note('command-interrupted', {pane, keys: ['C-c'], group, shell: panePid});
  await deps.clock.sleep(INTERRUPT_GRACE_MS);
  if ((await deps.foreground.group(panePid)) !== group) return 'its command was interrupted (C-c)';
  const how = await deps.stopWork.endGroup(group);
  await io.note('command-group-ended', {pane, group, how});
  return `its command was interrupted (C-c) and its process group ${how}`;
}
