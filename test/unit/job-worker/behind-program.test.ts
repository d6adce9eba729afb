/**
 * behindProgram: under `--if-busy queue` a job waits behind a program a shell's pane runs in
 * its foreground, up to its timeout; it types at once when the person chose to type into it.
 */
import {describe, expect, test} from 'vitest';
import type {Profile} from '../../../src/agents/profile.js';
import {PROFILES} from '../../../src/agents/registry.js';
import {behindProgram} from '../../../src/job-worker/behind-program.js';
import {FakeClock} from '../../helpers/fake-clock.js';
import {FakeTmux} from '../../helpers/fake-tmux.js';

function world(currentCommand: string) {
  const tmux = new FakeTmux({currentCommand});
  const notes: string[] = [];
  const io = {tmux, clock: new FakeClock(), note: async (e: string) => void notes.push(e)};
  const first = {info: tmux.info, profile: PROFILES.raw};
  return {tmux, io, notes, first};
}
const O = {serverPid: 42, intervalMs: 1_000, timeoutMs: 10_000, typesInto: false};

describe('behindProgram', () => {
  test('waits until the shell holds the terminal again, then is ready', async () => {
    const w = world('sleep');
    let looks = 0;
    const describe = w.tmux.describePane.bind(w.tmux);
    w.tmux.describePane = async (t) => {
      if (++looks === 3) w.tmux.info.currentCommand = 'bash';
      return describe(t);
    };
    const got = await behindProgram(w.io, '%1', w.first, O, new AbortController().signal);
    expect('ready' in got && got.ready.currentCommand).toBe('bash');
    expect(w.notes).toEqual(['waiting-for-program']);
    expect(w.io.clock.now() - 1_700_000_000_000).toBe(3_000);
  });

  test('a program that never ends: the timeout ending, nothing typed', async () => {
    const w = world('sleep');
    const got = await behindProgram(w.io, '%1', w.first, O, new AbortController().signal);
    expect(got).toEqual({
      timedOut: {
        state: 'timeout',
        waitedMs: 10_000,
        reason:
          "Pane %1's shell still ran sleep after 10.0s, so nothing was typed (--if-busy queue waits behind a running program; --if-busy type-ahead or a named --profile types into it).",
      },
    });
    expect(w.tmux.typed()).toBe('');
  });

  test('type-ahead, the shell itself, or an agent: ready at once', async () => {
    const ahead = world('sleep');
    const o = {...O, typesInto: true};
    expect(
      'ready' in (await behindProgram(ahead.io, '%1', ahead.first, o, AbortSignal.abort())),
    ).toBe(true);
    const idle = world('bash');
    expect(
      'ready' in (await behindProgram(idle.io, '%1', idle.first, O, AbortSignal.abort())),
    ).toBe(true);
    const agent = world('claude');
    const first = {info: agent.tmux.info, profile: PROFILES.claude as Profile};
    expect('ready' in (await behindProgram(agent.io, '%1', first, O, AbortSignal.abort()))).toBe(
      true,
    );
    expect([...ahead.notes, ...idle.notes, ...agent.notes]).toEqual([]);
  });
});
