import type {Ending, RunDeps} from './events.js';

/** How long an interrupt gets before the process groups are ended. */
const INTERRUPT_GRACE_MS = 1_000;
/** The same after a cancel: the person wants it gone. */
const CANCEL_INTERRUPT_GRACE_MS = 300;

/**
 * stopping (a timeout or a cancel): interrupt what runs in the pane (C-c, or the agent's
 * Escape), then end every foreground process group seen there. A pane already gone has taken
 * what ran in it along.
 */
export async function stopRun(
  deps: Pick<RunDeps, 'recorder' | 'tmux' | 'clock' | 'endGroup'>,
  run: {pane: string; agent: boolean; groups: Set<number>; noteGroup: () => Promise<void>},
  ending: Ending,
): Promise<void> {
  const {recorder, tmux, clock} = deps;
  await recorder.transition('stopping', {why: ending.reason ?? ending.state}).catch(() => {});
  const keys = run.agent ? ['Escape'] : ['C-c'];
  try {
    await tmux.pressKeys(run.pane, keys);
    await recorder.event('interrupted', {keys});
  } catch {
    return;
  }
  await clock.sleep(ending.state === 'cancelled' ? CANCEL_INTERRUPT_GRACE_MS : INTERRUPT_GRACE_MS);
  await run.noteGroup();
  for (const group of run.groups) {
    const how = await deps.endGroup(group);
    await recorder.event('group-ended', {group, how});
  }
}
