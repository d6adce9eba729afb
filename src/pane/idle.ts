import type {HookMarkSource} from '../agents/hook-marks.js';
import type {ProfileName} from '../agents/profile.js';
import {isBusy, readComposer} from '../agents/profile.js';
import {isShellCommand, isShellPane} from '../agents/shell.js';
import {formatDuration} from '../base/durations.js';
import {shellPromptVisible, viewKey} from '../detect/watchers.js';
import {PaneFailure} from './failures.js';
import type {PaneIo} from './keys.js';
import {type RecognizeDeps, recognize} from './profile.js';

/** How often a busy pane is looked at again. */
const RECHECK_MS = 500;

/**
 * Wait until the pane is idle per its profile, before queueing for it (`--when-idle`): two
 * checks in a row — a shell at its prompt, an agent not busy with its composer (or a fresh
 * hook mark) on screen, an unknown program's screen unchanged. Throws PaneFailure after
 * `timeoutMs`, or when the pane goes.
 */
export async function waitUntilPaneIdle(
  io: Pick<PaneIo, 'tmux' | 'clock' | 'note'> & RecognizeDeps & {hookMarks: HookMarkSource},
  pane: string,
  o: {profile: ProfileName | 'auto'; timeoutMs: number},
  signal: AbortSignal,
): Promise<void> {
  const {tmux, clock} = io;
  const started = clock.now();
  const deadline = started + o.timeoutMs;
  let inARow = 0;
  /** Why the pane is not idle, where liveness says (for the failure's sentence). */
  let why: string | undefined;
  let lastKey: string | undefined;
  let announced = false;
  for (;;) {
    signal.throwIfAborted();
    const info = await tmux.describePane(pane);
    if (!info) throw new PaneFailure(`Pane ${pane} is gone; nothing was typed.`);
    const view = await tmux.view(pane, 0);
    const {profile} = await recognize(io, pane, info, o.profile);
    const mark = await io.hookMarks.read(pane);
    const key = viewKey(view, []);
    let idle: boolean;
    if (profile.name === 'shell')
      idle = isShellCommand(view.currentCommand) && shellPromptVisible(view);
    else if (profile.name === 'raw') {
      // Another program in a shell's pane: the verdicts of `nudge wait` — a quiet command
      // that is still running is not idle; one waiting for input is, once its screen holds.
      const input = isShellPane(info) ? await io.foreground.inputState(info.panePid) : undefined;
      why = input?.kind === 'running' ? `still running: ${input.program}` : undefined;
      idle = why === undefined && key === lastKey;
    } else
      idle =
        !isBusy(profile, view) &&
        (readComposer(profile, view) !== undefined || (mark !== undefined && mark.atMs >= started));
    lastKey = key;
    inARow = idle ? inARow + 1 : 0;
    if (inARow >= 2) {
      if (announced) await io.note('idle', {pane, waitedMs: clock.now() - started});
      return;
    }
    if (!announced) {
      announced = true;
      await io.note('waiting-for-idle', {pane, profile: profile.name});
    }
    if (clock.now() >= deadline) {
      throw new PaneFailure(
        `Pane ${pane} stayed busy for ${formatDuration(o.timeoutMs)} (--idle-timeout${why ? `; ${why}` : ''}); nothing was typed.`,
      );
    }
    await clock.sleep(Math.min(RECHECK_MS, Math.max(0, deadline - clock.now())), signal);
  }
}
