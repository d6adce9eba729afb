/**
 * The ps reader's parsing and rules (src/process/ps.ts, view.ts): `ps` lines as procps (Linux)
 * and BSD ps (macOS) print them, `lsof -F tn` output from both, and the verdict for each kind
 * of wait. Lines below were captured from real programs in a tmux pane on Linux (procps-ng
 * 4.0.2, lsof 4.95); the BSD wait messages are XNU's and FreeBSD's (`ttyin`, `select`,
 * `kqread`, `wait`).
 */
import {describe, expect, test} from 'vitest';
import {
  type Descriptors,
  parseDescriptors,
  parseMembers,
  parseStatLine,
  programName,
  psMemberState,
} from '../../../src/process/ps.js';
import {badProcessView, processView, waitKindOf} from '../../../src/process/view.js';
import {eachMapsTo} from '../../helpers/maps-each.js';

describe('processView', () => {
  test('forced by NUDGE_PROCESS_VIEW; else /proc where it exists', () => {
    expect(processView({NUDGE_PROCESS_VIEW: 'ps'})).toBe('ps');
    expect(processView({NUDGE_PROCESS_VIEW: 'proc'})).toBe('proc');
    expect(processView({})).toBe(process.platform === 'linux' ? 'proc' : 'ps');
    expect(processView({NUDGE_PROCESS_VIEW: 'lsof'})).toBe(processView({}));
    expect(badProcessView({NUDGE_PROCESS_VIEW: 'lsof'})).toBe('lsof');
    expect(badProcessView({NUDGE_PROCESS_VIEW: 'ps'})).toBeUndefined();
  });
});

describe('waitKindOf', () => {
  eachMapsTo(
    waitKindOf,
    [
      ['wait_woken', 'tty-read'],
      ['n_tty_read', 'tty-read'],
      ['ttyin', 'tty-read'],
      ['poll_schedule_timeout.constprop.0', 'poll'],
      ['do_sys_poll', 'poll'],
      ['select', 'poll'],
      ['do_epoll_wait', 'event-loop'],
      ['kqread', 'event-loop'],
      ['do_wait', 'child'],
      ['wait', 'child'],
      ['hrtimer_nanosleep', 'other'],
      ['nanslp', 'other'],
      ['-', 'none'],
      ['0', 'none'],
      ['', 'none'],
    ],
    '%s → %s',
  );
});

describe('parsing ps', () => {
  test('stat and lstart: the state letter and the start as epoch seconds', () => {
    const got = parseStatLine('Ssl+ Thu Nov 26 14:10:18 2026\n');
    expect(got?.state).toBe('S');
    expect(got?.start).toBe(`@${Math.floor(Date.parse('Thu Nov 26 14:10:18 2026') / 1000)}`);
    expect(parseStatLine('')).toBeUndefined();
    expect(parseStatLine('S garbage')).toBeUndefined();
  });

  test('members: pid, group, state letter and the whole wait channel', () => {
    const out = [
      ' 5032  5032 Ss+  poll_schedule_timeout.constprop.0',
      ' 5116  5116 Ssl+ do_epoll_wait',
      '  412   401 R+   -',
      '   77    77 Z    ',
    ].join('\n');
    expect(parseMembers(out)).toEqual([
      {pid: 5032, pgid: 5032, state: 'S', wchan: 'poll_schedule_timeout.constprop.0'},
      {pid: 5116, pgid: 5116, state: 'S', wchan: 'do_epoll_wait'},
      {pid: 412, pgid: 401, state: 'R', wchan: '-'},
      {pid: 77, pgid: 77, state: 'Z', wchan: ''},
    ]);
  });

  test('program names: no folder (BSD ps), no login shell dash', () => {
    expect(programName('python3')).toBe('python3');
    expect(programName('/bin/zsh')).toBe('zsh');
    expect(programName('-zsh')).toBe('zsh');
    expect(programName('/usr/local/bin/node\n')).toBe('node');
  });
});

describe('parsing lsof', () => {
  // Node's REPL (no socket), a Node server (a listening socket), `tail -f` (inotify), python3.
  const NODE_REPL =
    'p5116\nf0\ntCHR\nn/dev/pts/4\nf1\ntCHR\nn/dev/pts/4\nf3\nta_inode\nn[eventpoll]\nf4\ntFIFO\nnpipe\nf8\nta_inode\nn[eventfd:32]\n';
  const NODE_SERVER = `${NODE_REPL}f22\ntIPv6\nn*:41031\n`;
  const TAIL = 'p5119\nf0\ntCHR\nn/dev/pts/5\nf3\ntREG\nn/tmp/q.log\nf4\nta_inode\nninotify\n';
  const MAC_REPL =
    'p88\nf0\ntCHR\nn/dev/ttys003\nf3\ntKQUEUE\nncount=0, state=0x8\nf4\ntPIPE\nn->0x1\n';

  test.each([
    [NODE_REPL, '/dev/pts/4', {tty: 2, eventSets: 1, sockets: 0, others: 2}],
    [NODE_SERVER, '/dev/pts/4', {tty: 2, eventSets: 1, sockets: 1, others: 2}],
    [TAIL, '/dev/pts/5', {tty: 1, eventSets: 0, sockets: 0, others: 1}],
    [MAC_REPL, '/dev/ttys003', {tty: 1, eventSets: 1, sockets: 0, others: 1}],
    [NODE_REPL, '/dev/pts/9', {tty: 0, eventSets: 1, sockets: 0, others: 2}],
  ])('%#', (out, terminal, want) => {
    expect(parseDescriptors(out, terminal)).toEqual(want);
  });
});

describe('psMemberState', () => {
  const only = (d: Partial<Descriptors>): Descriptors => ({
    tty: 1,
    eventSets: 0,
    sockets: 0,
    others: 0,
    ...d,
  });
  test('the state letter first: a zombie is neutral, a runnable or stopped process runs', () => {
    expect(psMemberState({state: 'Z', wchan: ''}, 'not-read')).toBe('neutral');
    expect(psMemberState({state: 'R', wchan: '-'}, 'not-read')).toBe('running');
    expect(psMemberState({state: 'T', wchan: 'do_signal_stop'}, 'not-read')).toBe('running');
  });
  test("BSD's terminal read needs no descriptors; Linux's does", () => {
    expect(psMemberState({state: 'S', wchan: 'ttyin'}, 'not-read')).toBe('waiting');
    expect(psMemberState({state: 'S', wchan: 'wait_woken'}, 'not-read')).toBe('needs-descriptors');
    expect(psMemberState({state: 'S', wchan: 'wait_woken'}, only({}))).toBe('waiting');
    // wait_woken is also where a socket read sleeps.
    expect(psMemberState({state: 'S', wchan: 'wait_woken'}, only({sockets: 1}))).toBe('running');
  });
  test('poll/select: waiting only with nothing but the terminal to read', () => {
    const poll = {state: 'S', wchan: 'poll_schedule_timeout.constprop.0'};
    expect(psMemberState(poll, only({}))).toBe('waiting');
    expect(psMemberState(poll, only({others: 1}))).toBe('running'); // tail -f: inotify
    expect(psMemberState(poll, only({tty: 0}))).toBe('running');
  });
  test('an event loop with the terminal and no socket waits for input (a REPL); with a socket it serves', () => {
    const loop = {state: 'S', wchan: 'do_epoll_wait'};
    expect(psMemberState(loop, only({eventSets: 1, others: 2}))).toBe('waiting');
    expect(psMemberState(loop, only({eventSets: 1, others: 2, sockets: 1}))).toBe('running');
    expect(psMemberState({state: 'S', wchan: 'kqread'}, only({eventSets: 1}))).toBe('waiting');
  });
  test('a sleep, a parent waiting for its child, and what cannot be told', () => {
    expect(psMemberState({state: 'S', wchan: 'hrtimer_nanosleep'}, 'not-read')).toBe('running');
    expect(psMemberState({state: 'S', wchan: 'do_wait'}, 'not-read')).toBe('neutral');
    expect(psMemberState({state: 'S', wchan: '-'}, 'not-read')).toBe('unknown');
    expect(psMemberState({state: 'S', wchan: 'do_sys_poll'}, undefined)).toBe('unknown');
  });
});
