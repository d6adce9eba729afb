// The desktop sink on a Mac: terminal-notifier where it is installed (macOS shows osascript's
// notices as from "Script Editor"), osascript otherwise; the title and line are arguments,
// never script text. Both run here as recording stand-ins on the PATH.
import {readFileSync, writeFileSync} from 'node:fs';
import {join} from 'node:path';
import {expect, test} from 'vitest';
import {realClock} from '../../../src/base/clock.js';
import {sendEvent} from '../../../src/notify/send.js';
import type {Tmux} from '../../../src/tmux/tmux.js';
import {useTempDir} from '../../helpers/temp-dir.js';

/** A PATH of stand-ins for `programs`, each writing its argv (a line each) to `<name>.args`. */
function standIns(programs: string[]) {
  const dir = useTempDir('nudge-desktop-');
  for (const name of programs)
    writeFileSync(join(dir, name), `#!/bin/sh\nprintf '%s\\n' "$@" > '${dir}/${name}.args'\n`, {
      mode: 0o755,
    });
  return {
    dir,
    args: (name: string) =>
      readFileSync(join(dir, `${name}.args`), 'utf8')
        .split('\n')
        .filter(Boolean),
  };
}

const event = {
  event: 'done' as const,
  job: 'a1b2c3d4-e5f6',
  state: 'done',
  pane: '%3',
  at: '2026-12-03T10:00:00.000Z',
  reason: 'it said "done"; $(rm -rf /)',
};

async function send(dir: string) {
  return sendEvent({kind: 'desktop'} as never, event as never, {
    clock: realClock,
    tmux: {} as Tmux,
    platform: 'darwin',
    env: {PATH: `${dir}:/usr/bin:/bin`},
  });
}

test('terminal-notifier where it is installed', async () => {
  const s = standIns(['terminal-notifier', 'osascript']);
  expect(await send(s.dir)).toMatchObject({ok: true});
  const args = s.args('terminal-notifier');
  expect(args.slice(0, 1)).toEqual(['-title']);
  expect(args).toContain('-group');
  expect(args.join('\n')).toContain('$(rm -rf /)');
});

test('osascript otherwise, the words as arguments to a fixed script', async () => {
  const s = standIns(['osascript']);
  expect(await send(s.dir)).toMatchObject({ok: true});
  const args = s.args('osascript');
  expect(args.slice(0, 6)).toEqual([
    '-e',
    'on run argv',
    '-e',
    'display notification (item 2 of argv) with title (item 1 of argv)',
    '-e',
    'end run',
  ]);
});
