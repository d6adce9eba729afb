import {describe, expect, test} from 'vitest';
import {ExitWatcher, exitSentinel, RegexWatcher} from '../../../src/detect/output-watchers.js';
import {OutputReader} from '../../../src/tmux/view.js';
import {screenOf} from '../../helpers/pane-views.js';

const screen = screenOf;

/** A pattern that never matches and keeps every line it was tried on. */
function countingPattern() {
  const searched: string[] = [];
  const pattern = {
    source: 'never',
    flags: '',
    test: () => false,
    exec: (text: string) => {
      searched.push(text);
      return null;
    },
  };
  return {searched, pattern};
}

describe('RegexWatcher', () => {
  test('matches only new output, reports the match and the whole line', () => {
    const w = new RegexWatcher(new OutputReader({row: 1, col: 0}), /port (\d+)/, [], 100);
    expect(w.observe(screen('Server listening on port 1\n$ ')).status).toBe('pending');
    expect(
      w.observe(screen('Server listening on port 1\nServer listening on port 8080\n$ ')),
    ).toEqual({
      status: 'done',
      match: 'port 8080',
      line: 'Server listening on port 8080',
    });
  });
  test("a shell's output is searched once: a look searches only the lines after the last final one", () => {
    const {searched, pattern} = countingPattern();
    const w = new RegexWatcher(new OutputReader({row: 1, col: 0}), pattern, [], 100);
    expect(w.readsForeground).toBe(false);
    w.observe(screen('$ build\nline 1\nline 2\n'));
    expect(searched).toEqual(['line 1', 'line 2', '']);
    searched.length = 0;
    // Two more lines: only they (and the cursor's line, not final) are searched.
    w.observe(screen('$ build\nline 1\nline 2\nline 3\nline 4\n'));
    expect(searched).toEqual(['line 3', 'line 4', '']);
  });

  test('the next look reaches back as far as output scrolled, twice over; never past --lines', () => {
    const w = new RegexWatcher(new OutputReader({row: 0, col: 0}), /never/, [], 100);
    expect(w.historyRows).toBe(100);
    const at = (historySize: number) => screen('a\nb\nc\n', {historySize, firstRow: historySize});
    w.observe(at(10));
    expect(w.historyRows).toBe(100);
    w.observe(at(13));
    expect(w.historyRows).toBe(6);
    w.observe(at(13));
    expect(w.historyRows).toBe(4);
    w.observe(at(500));
    expect(w.historyRows).toBe(100);
  });

  test('a full-screen program (lines seen at the start) is searched whole at every look', () => {
    const {searched, pattern} = countingPattern();
    const w = new RegexWatcher(
      new OutputReader({row: 0, col: 0}),
      pattern,
      [],
      100,
      new Set(['>']),
    );
    w.observe(screen('one\ntwo\n> '));
    w.observe(screen('one\ntwo\n> '));
    expect(searched).toEqual(['one', 'two', 'one', 'two']);
  });

  test('a fail pattern that shows first fails the wait', () => {
    const w = new RegexWatcher(new OutputReader({row: 0, col: 0}), /BUILD OK/, [/error:/i], 100);
    expect(w.observe(screen('compiling\nERROR: missing ;\nBUILD OK'))).toEqual({
      status: 'failed',
      match: 'ERROR:',
      line: 'ERROR: missing ;',
      pattern: 'error:',
    });
  });
});

test('the exit sentinel reports the status and never matches its own echo', () => {
  const s = exitSentinel('job123');
  expect(s.command).toBe(`} ; printf '\\n\\033[8m__NUDGE_%s_EXIT_%s__\\033[0m\\n' job123 "$?"`);
  const w = new ExitWatcher(new OutputReader({row: 0, col: 0}), s.pattern, [], 100);
  expect(w.observe(screen(`$ { false\n> ${s.command}`)).status).toBe('pending');
  expect(w.observe(screen(`$ { false\n> ${s.command}\n\n__NUDGE_job123_EXIT_1__\n$ `))).toEqual({
    status: 'done',
    exitCode: 1,
  });
  expect(s.pattern.test('__NUDGE_otherjob_EXIT_0__')).toBe(false);
});
