// Waiting on several panes at once (`nudge wait %1 %2 %3 --any|--all|--count N`): each pane's
// own wait, played here by scripted verdicts at set times; the answer once enough are idle, or
// once enough ended otherwise that they cannot be, and the rest stopped.
import {describe, expect, test} from 'vitest';
import type {PaneIdleResult} from '../../../src/pane/wait-idle.js';
import {type ManyMode, neededOf, waitMany} from '../../../src/pane/wait-many.js';

type Script = Record<string, {afterMs: number; status: PaneIdleResult['status']}>;

/** Each pane's wait ends as `script` says, after its time (real timers, a few ms each); the
 * panes it stopped are noted. */
function scripted(script: Script) {
  const stopped: string[] = [];
  const waitOne = (pane: string, signal: AbortSignal) =>
    new Promise<PaneIdleResult>((resolve, reject) => {
      const s = script[pane];
      if (!s) return reject(new Error(`no script for ${pane}`));
      let ended = false;
      const timer = setTimeout(() => {
        ended = true;
        resolve({status: s.status, pane, until: 'stable', durationMs: s.afterMs, reason: s.status});
      }, s.afterMs);
      signal.addEventListener('abort', () => {
        if (ended) return;
        clearTimeout(timer);
        stopped.push(pane);
        reject(signal.reason);
      });
    });
  return {waitOne, stopped};
}

const run = (panes: string[], mode: ManyMode, script: Script) => {
  const s = scripted(script);
  return waitMany(panes, mode, s.waitOne, {
    signal: new AbortController().signal,
    now: () => Date.now(),
  }).then((r) => ({...r, stopped: s.stopped}));
};

describe('waitMany', () => {
  test('--any: the first idle pane is the answer, named; the others are stopped', async () => {
    const r = await run(
      ['%1', '%2', '%3'],
      {kind: 'any'},
      {
        '%1': {afterMs: 60, status: 'idle'},
        '%2': {afterMs: 10, status: 'idle'},
        '%3': {afterMs: 80, status: 'idle'},
      },
    );
    expect(r).toMatchObject({status: 'idle', mode: 'any', needed: 1, first: '%2', idle: ['%2']});
    expect(r.stopped.sort()).toEqual(['%1', '%3']);
    expect(r.panes.map((p) => p.status)).toEqual(['stopped', 'idle', 'stopped']);
  });

  test('--all: done when every pane is, in the order they were', async () => {
    const r = await run(
      ['%1', '%2'],
      {kind: 'all'},
      {
        '%1': {afterMs: 40, status: 'idle'},
        '%2': {afterMs: 10, status: 'idle'},
      },
    );
    expect(r).toMatchObject({status: 'idle', needed: 2, idle: ['%2', '%1'], first: '%2'});
    expect(r.stopped).toEqual([]);
  });

  test('--count 2 of 3', async () => {
    const r = await run(
      ['%1', '%2', '%3'],
      {kind: 'count', count: 2},
      {
        '%1': {afterMs: 10, status: 'idle'},
        '%2': {afterMs: 200, status: 'idle'},
        '%3': {afterMs: 20, status: 'idle'},
      },
    );
    expect(r).toMatchObject({status: 'idle', needed: 2, idle: ['%1', '%3']});
    expect(r.stopped).toEqual(['%2']);
  });

  test('--all with a pane that waits for a person: blocked as soon as all cannot be idle', async () => {
    const r = await run(
      ['%1', '%2'],
      {kind: 'all'},
      {
        '%1': {afterMs: 10, status: 'blocked'},
        '%2': {afterMs: 500, status: 'idle'},
      },
    );
    expect(r).toMatchObject({status: 'blocked', idle: []});
    expect(r.stopped).toEqual(['%2']);
  });

  test('--any where none gets idle: blocked before unknown before timeout', async () => {
    const r = await run(
      ['%1', '%2', '%3'],
      {kind: 'any'},
      {
        '%1': {afterMs: 10, status: 'timeout'},
        '%2': {afterMs: 20, status: 'unknown'},
        '%3': {afterMs: 30, status: 'timeout'},
      },
    );
    expect(r.status).toBe('unknown');
    const t = await run(
      ['%1', '%2'],
      {kind: 'any'},
      {
        '%1': {afterMs: 10, status: 'timeout'},
        '%2': {afterMs: 20, status: 'timeout'},
      },
    );
    expect(t.status).toBe('timeout');
  });

  test('a pane whose wait fails (gone) fails the call', async () => {
    await expect(
      run(['%1', '%9'], {kind: 'all'}, {'%1': {afterMs: 10, status: 'idle'}}),
    ).rejects.toThrow(/no script for %9/);
  });

  test('how many each mode needs', () => {
    expect(neededOf({kind: 'any'}, 5)).toBe(1);
    expect(neededOf({kind: 'all'}, 5)).toBe(5);
    expect(neededOf({kind: 'count', count: 3}, 5)).toBe(3);
  });
});
