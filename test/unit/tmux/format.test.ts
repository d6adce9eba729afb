import {expect, test} from 'vitest';
import {FIELD_SEPARATOR, joinFormat, splitFields} from '../../../src/tmux/format.js';
import {parsePaneInfo} from '../../../src/tmux/pane-info.js';

// What three tmux versions printed for nudge's pane format, recorded with
// `tmux [-u] -L … display-message -p -t %0 <format>` for a pane started as
// `sleep 60 # a|:nudge:|b<TAB>ü<0x1f>z`: once with -u (as nudge runs tmux) and once from an
// empty environment without -u (cron, launchd, systemd). tmux quotes the start command itself.
const S = FIELD_SEPARATOR;
const recorded: Record<string, string> = {
  '3.3a utf8': `%0${S}0${S}0${S}${S}0${S}0${S}7460${S}0${S}$0${S}7459${S}/tmp/tmux-0/rec744633a${S}0${S}0${S}sleep${S}"sleep 60 # a${S}b\\tü\\037z"`,
  '3.3a bare': `%0${S}0${S}0${S}${S}0${S}0${S}7460${S}0${S}$0${S}7459${S}/tmp/tmux-0/rec744633a${S}0${S}0${S}sleep${S}"sleep 60 # a${S}b\\t_\\037z"`,
  '3.5a utf8': `%0${S}0${S}0${S}${S}0${S}0${S}7469${S}0${S}$0${S}7468${S}/tmp/tmux-0/rec744635a${S}0${S}0${S}sleep${S}"sleep 60 # a${S}b\\tü\\037z"`,
  '3.5a bare': `%0${S}0${S}0${S}${S}0${S}0${S}7469${S}0${S}$0${S}7468${S}/tmp/tmux-0/rec744635a${S}0${S}0${S}sleep${S}"sleep 60 # a${S}b\\t_\\037z"`,
  '3.8 utf8': `%0${S}0${S}0${S}${S}0${S}0${S}7476${S}0${S}$0${S}7475${S}/tmp/tmux-0/rec744638${S}0${S}0${S}sleep${S}"sleep 60 # a${S}b\\tü\\037z"`,
  '3.8 bare': `%0${S}0${S}0${S}${S}0${S}0${S}7476${S}0${S}$0${S}7475${S}/tmp/tmux-0/rec744638${S}0${S}0${S}sleep${S}"sleep 60 # a${S}b\\t_\\037z"`,
};

// The same two fields joined by 0x1f, as nudge used to print them: the separator itself is
// what tmux rewrites (tmux 3.5a: `display -p '#{pane_id}<0x1f>#{pane_pid}'`).
const oldForms = {raw: '%0\x1f29389', octal: '%0\\03729389', underscore: '%0_29389'};

test.each(Object.entries(recorded))('tmux %s: the pane description parses', (_, line) => {
  const info = parsePaneInfo(line);
  expect(info).toMatchObject({
    paneId: '%0',
    dead: false,
    inMode: false,
    mode: '',
    currentCommand: 'sleep',
    cursorX: 0,
    cursorY: 0,
  });
  expect(info?.panePid).toBeGreaterThan(0);
  expect(info?.serverPid).toBeGreaterThan(0);
  expect(info?.socketPath).toMatch(/^\/tmp\/tmux-0\/rec\d+a?$/);
  // The last field keeps the separator it holds.
  expect(info?.startCommand).toMatch(/^"sleep 60 # a\|:nudge:\|b\\t(ü|_)\\037z"$/);
});

test('a control character between fields does not survive every tmux: nudge does not use one', () => {
  // Only the raw form splits on 0x1f; the octal and the underscore forms are one field.
  expect(oldForms.raw.split('\x1f')).toHaveLength(2);
  expect(oldForms.octal.split('\x1f')).toHaveLength(1);
  expect(oldForms.underscore.split('\x1f')).toHaveLength(1);
  // The separator is printable ASCII, and has no '#' (a format's escape) and no '_'.
  expect(FIELD_SEPARATOR).toMatch(/^[\x21-\x7e]+$/);
  expect(FIELD_SEPARATOR).not.toMatch(/[#_\\]/);
  expect(joinFormat(['pane_id', 'pane_pid'])).toBe(`#{pane_id}${S}#{pane_pid}`);
});

test('splitFields: a fixed count, the rest in the last field, too few is undefined', () => {
  expect(splitFields(`a${S}b${S}c${S}d`, 3)).toEqual(['a', 'b', `c${S}d`]);
  expect(splitFields(`a${S}${S}`, 3)).toEqual(['a', '', '']);
  expect(splitFields('anything', 1)).toEqual(['anything']);
  expect(splitFields(`a${S}b`, 3)).toBeUndefined();
  expect(parsePaneInfo(`%1${S}0`)).toBeUndefined();
});
