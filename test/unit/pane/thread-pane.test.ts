// The pane of a call from Codex's shared app-server (src/pane/thread-pane.ts): the one pane
// whose title shows the call's thread id (as `nudge install codex` has Codex's TUI put it) and
// whose foreground program is codex; none, or two, is a clause saying so.
import {describe, expect, test} from 'vitest';
import {sharedServers} from '../../../src/agents/registry.js';
import {otherThreadShown, paneShowingThread} from '../../../src/pane/thread-pane.js';
import {paneRow, parentsTree} from '../../helpers/fake-tree.js';

const codex = sharedServers().find((s) => s.agent === 'codex');
if (!codex) throw new Error('no codex server in the profiles');
const THREAD = '01a24b21-d1b5-7572-85b0-d522fb2891d3';
/** As Codex 0.169.0 and 0.171.0 draw it: `work | ` and 29 characters, then `...`. */
const TITLE = `work | ${THREAD.slice(0, 29)}...`;

/** Panes %1 (its first process 10, codex in front), %2 (20, bash in front), %3 (30, codex). */
const tree = parentsTree(
  {11: 10, 21: 20, 31: 30},
  {},
  {
    11: 'node /agents/codex/node_modules/.bin/codex',
    21: 'bash',
    31: '/agents/codex/node_modules/@openai/codex-linux-x64/vendor/bin/codex --yolo',
  },
  {
    10: {group: 10, foreground: 11},
    20: {group: 20, foreground: 21},
    30: {group: 30, foreground: 31},
  },
);

describe("a Codex thread's pane, by its title", () => {
  test('the one pane running codex whose title shows the thread', async () => {
    const rows = [
      paneRow('%1', '$1', {panePid: 10, title: TITLE}),
      paneRow('%3', '$1', {panePid: 30, title: 'work | 01a24b21-aaaa-7572-85b0-d522f...'}),
    ];
    expect(await paneShowingThread({tree}, rows, codex, THREAD)).toEqual({row: rows[0]});
  });

  test('a pane that shows it in its title but runs no codex (a title set by hand) is not it', async () => {
    const rows = [paneRow('%2', '$1', {panePid: 20, title: TITLE})];
    expect(await paneShowingThread({tree}, rows, codex, THREAD)).toEqual({
      why: `no pane running codex shows thread ${THREAD} in its title (nudge install codex has it shown there)`,
    });
  });

  test('two panes running codex that show it: neither', async () => {
    const rows = [
      paneRow('%1', '$1', {panePid: 10, title: TITLE}),
      paneRow('%3', '$1', {panePid: 30, title: TITLE}),
    ];
    expect(await paneShowingThread({tree}, rows, codex, THREAD)).toEqual({
      why: `2 panes running codex show thread ${THREAD} in their titles`,
    });
  });

  test('a thread id that is not one is not looked for (an empty one would be in every title)', async () => {
    const rows = [paneRow('%1', '$1', {panePid: 10, title: TITLE})];
    for (const thread of ['', 'x', 'work | 01', '../../etc'])
      expect(await paneShowingThread({tree}, rows, codex, thread)).toMatchObject({
        why: expect.stringMatching(/is not one$/),
      });
  });
});

describe('another thread than the pane shows (otherThreadShown)', () => {
  test("a UUID's start in the title that is not the thread's: another thread", () => {
    expect(otherThreadShown(TITLE, codex, THREAD)).toBe(false);
    expect(otherThreadShown(TITLE, codex, '01a24b21-ffff-7572-85b0-d522fb2891d3')).toBe(true);
  });

  test('a title that shows no thread, or a thread id that is no UUID, says nothing', () => {
    expect(otherThreadShown('work', codex, THREAD)).toBe(false);
    // A long host name is no thread.
    expect(otherThreadShown('build-server-frankfurt-01-long', codex, THREAD)).toBe(false);
    expect(otherThreadShown(TITLE, codex, 't-2')).toBe(false);
  });
});
