import type {HookMarkSource} from '../agents/hook-marks.js';
import type {ProfileName} from '../agents/profile.js';
import {isAgent} from '../agents/profile.js';
import {isShellPane} from '../agents/shell.js';
import {formatDuration} from '../base/durations.js';
import {IdleCondition} from '../detect/conditions.js';
import {waitUntil} from '../detect/wait-until.js';
import {PaneBlocked, PaneFailure} from './failures.js';
import type {PaneIo} from './keys.js';
import {type RecognizeDeps, recognize} from './profile.js';

/** How often a busy pane is looked at again. */
const RECHECK_MS = 500;

/**
 * Wait until the pane is idle, before queueing for it (`--when-idle`): two looks in a row
 * that the shared idle rule (src/detect/idle.ts) calls idle. Throws PaneFailure after
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
  // Hook marks are written by other processes, on the wall clock.
  const startedWall = clock.wall();
  let announced = false;
  const condition = new IdleCondition(
    async () => {
      const info = await tmux.describePane(pane);
      if (!info) throw new PaneFailure(`Pane ${pane} is gone; nothing was typed.`);
      const {profile} = await recognize(io, pane, info, o.profile);
      const shellPane = isShellPane(info);
      const mark = await io.hookMarks.read(pane);
      const needs = await io.hookMarks.readNeeds(pane);
      // Announced once a look found it not idle (a wait has begun): a pane idle from the
      // first look goes without a word.
      if (condition.busyLooks > 0 && !announced) {
        announced = true;
        await io.note('waiting-for-idle', {pane, profile: profile.name});
      }
      return {
        agent: isAgent(profile) ? profile : undefined,
        shellPane,
        input: shellPane ? await io.foreground.inputState(info.panePid) : undefined,
        freshMark: mark !== undefined && mark.atMs >= startedWall,
        needs: needs !== undefined && needs.atMs >= startedWall ? needs : undefined,
      };
    },
    () => clock.wall(),
  );
  const waited = await waitUntil(tmux, pane, condition, {
    intervalMs: RECHECK_MS,
    timeoutMs: o.timeoutMs,
    clock,
    signal,
  });
  if (waited.status === 'done') {
    if (announced) await io.note('idle', {pane, waitedMs: clock.now() - started});
    return;
  }
  if (waited.verdict.status === 'blocked') throw new PaneBlocked(pane, waited.verdict.dialog);
  const why = waited.verdict.status === 'pending' ? waited.verdict.why : undefined;
  throw new PaneFailure(
    `Pane ${pane} stayed busy for ${formatDuration(o.timeoutMs)} (--idle-timeout${why ? `; ${why}` : ''}); nothing was typed.`,
  );
}
