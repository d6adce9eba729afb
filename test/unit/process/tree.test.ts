// The process tree's readers (issue 61): a caller's controlling terminal, as /proc's device
// number and as ps prints it, named as tmux's #{pane_tty} names a pane's; the real tree on
// this very process.
import {spawn} from 'node:child_process';
import {describe, expect, onTestFinished, test} from 'vitest';
import {systemTree, terminalOfDevice, terminalOfPs} from '../../../src/process/tree.js';

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
});
