// What the process tree proves of a caller on one server (issue 61).
import {describe, expect, test} from 'vitest';
import {isTmuxServer, proofOf} from '../../../src/pane/proof.js';
import {paneRow} from '../../helpers/fake-tree.js';

const rows = [paneRow('%1', '$0', {panePid: 101, tty: '/dev/pts/1'})];

describe('proofOf', () => {
  test("the nearest pane's first process proves the pane", () => {
    const chain = [
      {pid: 9, command: 'node'},
      {pid: 101, command: 'bash'},
      {pid: 42, command: 'tmux'},
    ];
    expect(proofOf(chain, undefined, rows, 42)).toEqual({
      kind: 'pane',
      pane: '%1',
      sessionId: '$0',
    });
  });

  test('the server itself first, or another tmux server: no pane of this one', () => {
    expect(
      proofOf(
        [
          {pid: 9, command: 'sh'},
          {pid: 42, command: 'x'},
        ],
        undefined,
        rows,
        42,
      ),
    ).toEqual({
      kind: 'none',
    });
    const other = [
      {pid: 9, command: 'sh'},
      {pid: 7, command: '/usr/bin/tmux attach'},
    ];
    expect(proofOf(other, '/dev/pts/1', rows, 42)).toEqual({kind: 'none'});
  });

  test("without a server among the ancestors, a pane's terminal proves the pane", () => {
    expect(proofOf([{pid: 9, command: 'node'}], '/dev/pts/1', rows, 42)).toMatchObject({
      pane: '%1',
    });
    expect(proofOf([{pid: 9, command: 'node'}], '/dev/pts/5', rows, 42)).toEqual({kind: 'none'});
  });
});

describe('isTmuxServer', () => {
  test("Linux's name, or a command line that starts with tmux", () => {
    expect(isTmuxServer({pid: 1, command: 'whatever', name: 'tmux: server'})).toBe(true);
    expect(isTmuxServer({pid: 1, command: '/opt/homebrew/bin/tmux new -s a'})).toBe(true);
    expect(isTmuxServer({pid: 1, command: 'tmux: server (/tmp/tmux-501/default)'})).toBe(true);
    expect(isTmuxServer({pid: 1, command: 'tmuxinator start'})).toBe(false);
    expect(isTmuxServer({pid: 1, command: 'bash', name: 'bash'})).toBe(false);
  });
});
