import {mkdirSync, writeFileSync} from 'node:fs';
import {join} from 'node:path';
import {describe, expect, test} from 'vitest';
import {doorBody, realDoors} from '../../../src/doors/ladder.js';
import {useTempDir} from '../../helpers/temp-dir.js';

const noParents = {parentOf: async () => undefined, procStartOf: async () => undefined};

describe('realDoors', () => {
  test('no session record: not applicable, and says where it looked', async () => {
    const home = useTempDir('door-home-');
    const doors = realDoors({
      tree: noParents,
      env: {HOME: home},
      confirmMs: 100,
      stateDir: home,
      commandLine: async () => undefined,
    });
    const attempts = await doors.deliver(
      [{kind: 'claude-inbox', minVersion: '2.1.224'}],
      {pane: '%1', panePid: 100, jobId: 'j1'},
      'done',
      new AbortController().signal,
    );
    expect(attempts).toEqual([
      expect.objectContaining({
        door: 'claude-inbox',
        result: 'not-applicable',
        why: `no Claude Code session record in ${join(home, '.claude', 'sessions')}`,
      }),
    ]);
  });

  test('a Claude Code older than the door: not applicable, nothing posted', async () => {
    const home = useTempDir('door-home-');
    mkdirSync(join(home, '.claude', 'sessions'), {recursive: true});
    writeFileSync(
      join(home, '.claude', 'sessions', '100.json'),
      JSON.stringify({pid: 100, sessionId: 's', version: '2.1.197', messagingSocketPath: '/x'}),
    );
    const doors = realDoors({
      tree: noParents,
      env: {HOME: home},
      confirmMs: 100,
      stateDir: home,
      commandLine: async () => undefined,
    });
    const [attempt] = await doors.deliver(
      [{kind: 'claude-inbox', minVersion: '2.1.224'}],
      {pane: '%1', panePid: 100, jobId: 'j1'},
      'done',
      new AbortController().signal,
    );
    expect(attempt).toMatchObject({
      result: 'not-applicable',
      why: 'Claude Code 2.1.197 has no inbox (it came in 2.1.224)',
    });
  });

  test('the notice is the last line of the body, whole; the first says who sends it', () => {
    expect(doorBody('[SYSTEM COMMAND] Command complete. Resume.', 'abc')).toBe(
      'From nudge (not another Claude session): job abc, which this session started, has ended.\n[SYSTEM COMMAND] Command complete. Resume.',
    );
  });
});
