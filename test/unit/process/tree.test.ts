// The process tree's readers (issue 61): a caller's controlling terminal, as /proc's device
// number and as ps prints it, named as tmux's #{pane_tty} names a pane's; the real tree on
// this very process.
import {spawn} from 'node:child_process';
import {describe, expect, onTestFinished, test} from 'vitest';
import {
  ancestryOf,
  parsePsTable,
  systemTree,
  terminalOfDevice,
  terminalOfPs,
} from '../../../src/process/tree.js';

describe('a controlling terminal', () => {
  test("/proc's device number: a Unix98 pseudo-terminal as /dev/pts/N; none or another kind undefined", () => {
    expect(terminalOfDevice(34816 + 3)).toBe('/dev/pts/3'); // major 136, minor 3
    expect(terminalOfDevice((137 << 8) | 4)).toBe('/dev/pts/260');
    // A minor past 255 sits in the upper bits: pts/300 on major 136.
    expect(terminalOfDevice((136 << 8) | (300 & 0xff) | ((300 & ~0xff) << 12))).toBe(
      '/dev/pts/300',
    );
    expect(terminalOfDevice(0)).toBeUndefined();
    expect(terminalOfDevice((4 << 8) | 1)).toBeUndefined(); // /dev/tty1, a console
    expect(terminalOfDevice(Number.NaN)).toBeUndefined();
  });

  test('ps -o tty=: Linux pts/3, macOS ttys003; ? and ?? are none', () => {
    expect(terminalOfPs('pts/3\n')).toBe('/dev/pts/3');
    expect(terminalOfPs('ttys003')).toBe('/dev/ttys003');
    expect(terminalOfPs('?')).toBeUndefined();
    expect(terminalOfPs(' ??\n')).toBeUndefined();
    expect(terminalOfPs('')).toBeUndefined();
    expect(terminalOfPs('pts/3 extra')).toBeUndefined();
  });

  test('the real tree: a child of this process is its own ancestry first, with the name it runs as, then this process', async () => {
    // A program whose name is its own (Node 24 names every node process `MainThread`).
    const child = spawn('sleep', ['30'], {stdio: 'ignore'});
    onTestFinished(() => {
      child.kill();
    });
    const pid = child.pid ?? 0;
    const chain = await systemTree.ancestry(pid);
    expect(chain[0]?.pid).toBe(pid);
    expect(chain[0]?.name).toBe('sleep');
    expect(chain[1]?.pid).toBe(process.pid);
  });

  test.each(['proc', 'ps'])(
    'the real tree (%s): each link carries its terminal, as terminalOf reads it',
    async (view) => {
      const before = process.env.NUDGE_PROCESS_VIEW;
      process.env.NUDGE_PROCESS_VIEW = view;
      onTestFinished(() => {
        if (before === undefined) delete process.env.NUDGE_PROCESS_VIEW;
        else process.env.NUDGE_PROCESS_VIEW = before;
      });
      const chain = await systemTree.ancestry(process.pid);
      expect(chain.length).toBeGreaterThan(1);
      for (const link of chain.slice(0, 3)) {
        expect('terminal' in link).toBe(true);
        expect(link.terminal).toBe(await systemTree.terminalOf(link.pid));
      }
    },
  );
});

describe('a ps listing with terminals (pid=,ppid=,tty=,command=)', () => {
  test('as macOS and procps print it: each link its terminal, none where ? or ??', () => {
    const mac = parsePsTable(
      '  501     1 ??       /Applications/Ghostty.app/Contents/MacOS/ghostty -l\n    7   501 ttys003  -zsh\n   90     7 ttys003  node /nudge/dist/src/cli.js submit -- a b\n',
      {tty: true},
    );
    expect(ancestryOf(mac, 90)).toEqual([
      {pid: 90, command: 'node /nudge/dist/src/cli.js submit -- a b', terminal: '/dev/ttys003'},
      {pid: 7, command: '-zsh', terminal: '/dev/ttys003'},
      {
        pid: 501,
        command: '/Applications/Ghostty.app/Contents/MacOS/ghostty -l',
        terminal: undefined,
      },
    ]);
    const procps = parsePsTable(' 3726  3514 pts/4    /bin/bash -c nudge submit\n', {tty: true});
    expect(ancestryOf(procps, 3726)).toEqual([
      {pid: 3726, command: '/bin/bash -c nudge submit', terminal: '/dev/pts/4'},
    ]);
  });
});
