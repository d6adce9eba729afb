import {commandNames} from './control-line.js';
import {TmuxCommandError, type TmuxRunner} from './runner.js';

/**
 * The pane lock, fenced inside the tmux server.
 *
 * The lock's own check (PaneLease.assertHeld) runs in the worker right before a key is sent,
 * so a worker stopped between that check and the tmux call (SIGSTOP, a suspended machine)
 * would, on waking, send one key after the job that took the pane over began: measured, 1 in
 * some hundred stalls in test/faults/stall.test.ts. So the holder of a pane's lock also marks
 * the pane in the tmux server (a pane option `@nudge-fence-<job>`, the others' removed), and
 * every key it sends goes in one tmux call behind a check of that mark: a command list stops
 * at its first failing command, and showing an option that is not set fails. Once another
 * job has taken the pane, the mark is gone and the late key is refused by tmux itself.
 */
export interface Fence {
  pane: string;
  /** The pane option that marks the holder. */
  option: string;
}

const PREFIX = '@nudge-fence-';

/** The commands that put input into a pane. */
const INPUT_COMMANDS = new Set(['send-keys', 'send', 'paste-buffer', 'pasteb']);

/** A key was refused because the pane's fence is no longer this job's. */
export class FenceLost extends Error {
  override name = 'FenceLost';
  constructor(readonly fence: Fence) {
    super(`pane ${fence.pane} is fenced by another job now; no key of this one may follow`);
  }
}

/** The pane option that marks `token` (a job id or queue ticket) as the pane's holder. */
export function fenceOption(token: string): string {
  return `${PREFIX}${token.replace(/[^A-Za-z0-9_-]/g, '_')}`;
}

/** Mark `pane` as held by `token`: every other holder's mark removed, ours set, in one call
 * after reading the pane's options. Call it with the pane's lock held. */
export async function takeFence(runner: TmuxRunner, pane: string, token: string): Promise<Fence> {
  const option = fenceOption(token);
  const shown = await runner.run(['show-options', '-p', '-t', pane]);
  const others = shown
    .split('\n')
    .map((line) => line.split(' ', 1)[0] ?? '')
    .filter((name) => name.startsWith(PREFIX) && name !== option);
  await runner.run([
    ...others.flatMap((name) => ['set-option', '-p', '-u', '-t', pane, name, ';']),
    'set-option',
    '-p',
    '-t',
    pane,
    option,
    '1',
  ]);
  return {pane, option};
}

/** Remove our mark (another job may have removed it already: nothing to do then). */
export async function dropFence(runner: TmuxRunner, fence: Fence): Promise<void> {
  await runner.run(['set-option', '-p', '-u', '-t', fence.pane, fence.option]).catch(() => {});
}

/** A runner whose input commands go behind the check of `current()`'s mark (none: as they
 * are); anything else goes as it is. A refused key throws FenceLost. */
export function fencingRunner(runner: TmuxRunner, current: () => Fence | undefined): TmuxRunner {
  return {
    async run(args) {
      const fence = current();
      const sendsInput = commandNames(args).some((name) => INPUT_COMMANDS.has(name));
      if (!fence || !sendsInput) return runner.run(args);
      const check = ['show-options', '-p', '-v', '-t', fence.pane, fence.option, ';'];
      try {
        const stdout = await runner.run([...check, ...args]);
        // The check prints the mark's value on a line of its own, first.
        return stdout.slice(stdout.indexOf('\n') + 1);
      } catch (error) {
        if (error instanceof TmuxCommandError && error.stderr.includes(fence.option)) {
          throw new FenceLost(fence);
        }
        throw error;
      }
    },
  };
}
