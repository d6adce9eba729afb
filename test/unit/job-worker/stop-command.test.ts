/**
 * stopCommand: a cancelled job's command still running in its shell's pane gets C-c, then its
 * process group is ended if it holds the terminal still; nothing when the shell holds it, or
 * when the person asked to keep it running.
 */
import {describe, expect, test} from 'vitest';
import {stopCommand} from '../../../src/job-worker/stop-command.js';
import {FakeClock} from '../../helpers/fake-clock.js';
import {FakeTmux} from '../../helpers/fake-tmux.js';

function world(groups: number[], wanted = true) {
  const tmux = new FakeTmux();
  const notes: string[] = [];
  const ended: number[] = [];
  const interrupted: number[] = [];
  const io = {
    tmux,
    clock: new FakeClock(),
    note: async (e: string) => void notes.push(e),
    guard: () => {},
  };
  const deps = {
    clock: io.clock,
    foreground: {group: async () => groups.shift() ?? 100},
    stopWork: {
      wanted: async () => wanted,
      endGroup: async (g: number) => {
        ended.push(g);
        return 'terminated' as const;
      },
      interruptShell: (pid: number) => void interrupted.push(pid),
    },
  };
  return {tmux, io, deps, notes, ended, interrupted};
}

describe('stopCommand', () => {
  test('C-c, and the group that stays is ended', async () => {
    const w = world([200, 200]);
    expect(await stopCommand(w.io, w.deps, '%1', 100)).toBe(
      'its command was interrupted (C-c) and its process group terminated',
    );
    expect(w.tmux.typed()).toBe('<C-c>');
    // The shell too, so that it runs no more of a typed list.
    expect(w.interrupted).toEqual([100]);
    expect(w.ended).toEqual([200]);
    expect(w.notes).toEqual(['command-interrupted', 'command-group-ended']);
  });

  test('C-c is enough when the shell comes back', async () => {
    const w = world([200, 100]);
    expect(await stopCommand(w.io, w.deps, '%1', 100)).toBe('its command was interrupted (C-c)');
    expect(w.ended).toEqual([]);
  });

  test('nothing when the shell holds the terminal, or with --keep-running', async () => {
    const idle = world([100]);
    expect(await stopCommand(idle.io, idle.deps, '%1', 100)).toBeUndefined();
    const kept = world([200], false);
    expect(await stopCommand(kept.io, kept.deps, '%1', 100)).toBeUndefined();
    expect(idle.tmux.typed() + kept.tmux.typed()).toBe('');
    expect([...idle.interrupted, ...kept.interrupted]).toEqual([]);
  });
});
