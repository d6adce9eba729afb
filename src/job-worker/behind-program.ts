import type {Profile} from '../agents/profile.js';
import {programAhead} from '../agents/shell.js';
import {formatDuration} from '../base/durations.js';
import type {PaneIo} from '../pane/keys.js';
import {preflight} from '../pane/preflight.js';
import type {PaneInfo} from '../tmux/tmux.js';

/** How a job goes on once its pane is locked: typed now, or ended (waited too long). */
export type BehindProgram =
  | {ready: PaneInfo}
  | {timedOut: {state: 'timeout'; waitedMs: number; reason: string}};

/**
 * Under `--if-busy queue` (the default), a shell pane whose shell runs a program in its
 * foreground (`sleep 12; echo DONE` a person started, a build a cancelled job left) is busy:
 * the job, holding the pane's lock, waits behind that program as it would behind another job,
 * up to its timeout, and types once the shell holds the terminal again. Nothing waits when the
 * person chose to type into the program (`--if-busy type-ahead`, a named `--profile`), or the
 * pane's program is an agent. The wait is recorded (`waiting-for-program`).
 */
export async function behindProgram(
  io: Pick<PaneIo, 'tmux' | 'clock' | 'note'>,
  pane: string,
  first: {info: PaneInfo; profile: Profile},
  o: {serverPid: number; intervalMs: number; timeoutMs: number; typesInto: boolean},
  signal: AbortSignal,
): Promise<BehindProgram> {
  let {info} = first;
  const program = o.typesInto ? undefined : programAhead(info, first.profile);
  if (program === undefined) return {ready: info};
  await io.note('waiting-for-program', {pane, program});
  const start = io.clock.now();
  for (;;) {
    const waitedMs = io.clock.now() - start;
    if (waitedMs >= o.timeoutMs) {
      const reason = `Pane ${pane}'s shell still ran ${info.currentCommand} after ${formatDuration(waitedMs)}, so nothing was typed (--if-busy queue waits behind a running program; --if-busy type-ahead or a named --profile types into it).`;
      return {timedOut: {state: 'timeout', waitedMs, reason}};
    }
    await io.clock.sleep(Math.min(o.intervalMs, o.timeoutMs - waitedMs), signal);
    info = await preflight(io, pane, o.serverPid);
    if (programAhead(info, first.profile) === undefined) return {ready: info};
  }
}
