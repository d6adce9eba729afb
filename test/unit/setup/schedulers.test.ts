// launchd: a schedule goes into the person's GUI domain, and where there is none (over ssh)
// into their user domain; taking it out looks in both. launchctl cannot run here: its steps
// run against a recorded stand-in for exec.
import {readFileSync} from 'node:fs';
import {join} from 'node:path';
import {describe, expect, test} from 'vitest';
import type {CommandRun} from '../../../src/process/run-command.js';
import {installInto, launchdDomains, uninstallFrom} from '../../../src/setup/schedulers.js';
import {useTempDir} from '../../helpers/temp-dir.js';

const run = (exitCode: number, stderr = ''): CommandRun =>
  ({
    exitCode,
    signal: undefined,
    timedOut: false,
    cancelled: false,
    startError: undefined,
    output: '',
    stderr,
  }) as CommandRun;

/** Steps whose launchctl `bootstrap` into a domain answers as `answers` says. */
function steps(answers: Record<string, number>) {
  const dir = useTempDir('nudge-launchd-');
  const ran: string[] = [];
  return {
    ran,
    files: {launchd: join(dir, 'nudge.test.plist'), service: '', timer: ''},
    steps: {
      name: 'test',
      files: {launchd: join(dir, 'nudge.test.plist'), service: '', timer: ''},
      uid: 501,
      exec: async (file: string, args: string[]) => {
        ran.push([file, ...args].join(' '));
        return args[0] === 'bootstrap'
          ? run(
              answers[args[1] ?? ''] ?? 0,
              'Bootstrap failed: 125: Domain does not support specified action',
            )
          : run(0);
      },
    },
  };
}

describe('launchd domains', () => {
  test('the GUI domain first, then the user domain', () => {
    expect(launchdDomains(501)).toEqual(['gui/501', 'user/501']);
  });

  test('at the Mac: loaded into gui/UID', async () => {
    const s = steps({});
    await installInto('launchd', [{path: s.files.launchd, content: '<plist/>'}], s.steps);
    expect(s.ran.filter((c) => c.includes('bootstrap'))).toEqual([
      `launchctl bootstrap gui/501 ${s.files.launchd}`,
    ]);
    expect(readFileSync(s.files.launchd, 'utf8')).toBe('<plist/>');
  });

  test('over ssh (no GUI session): gui/UID refuses, user/UID takes it', async () => {
    const s = steps({'gui/501': 5});
    await installInto('launchd', [{path: s.files.launchd, content: '<plist/>'}], s.steps);
    expect(s.ran.filter((c) => c.includes('bootstrap'))).toEqual([
      `launchctl bootstrap gui/501 ${s.files.launchd}`,
      `launchctl bootstrap user/501 ${s.files.launchd}`,
    ]);
  });

  test('neither domain takes it: one sentence, the plist left written', async () => {
    const s = steps({'gui/501': 5, 'user/501': 5});
    await expect(
      installInto('launchd', [{path: s.files.launchd, content: '<plist/>'}], s.steps),
    ).rejects.toThrow(
      /^launchctl bootstrap gui\/501 .* failed \(Bootstrap failed: 125.*\); the plist is written/,
    );
    expect(readFileSync(s.files.launchd, 'utf8')).toBe('<plist/>');
  });

  test('taken out of both domains', async () => {
    const s = steps({});
    await uninstallFrom('launchd', s.steps);
    expect(s.ran).toEqual([
      'launchctl bootout gui/501/dev.tmux-nudge.test',
      'launchctl bootout user/501/dev.tmux-nudge.test',
    ]);
  });
});
