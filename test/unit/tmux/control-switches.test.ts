// The lines a control client sends to pause, continue and follow panes for itself, and
// tmux's own pauses of a pane it muted (not resumed).
import {describe, expect, test} from 'vitest';
import {LinearPattern} from '../../../src/base/pattern.js';
import {PaneSwitches, type SubscriptionChange} from '../../../src/tmux/control-switches.js';
import {Listeners} from '../../../src/tmux/listeners.js';
import {searchFormat, tmuxSearch} from '../../../src/tmux/search.js';

function switches() {
  const lines: string[] = [];
  const s = new PaneSwitches(async (line) => {
    lines.push(line);
  }, new Listeners<SubscriptionChange>());
  return {s, lines};
}

describe('PaneSwitches', () => {
  test('pause and continue: refresh-client -A, the pane quoted; never :off', () => {
    const {s, lines} = switches();
    s.setOutput('%3', 'pause');
    expect(s.isMuted('%3')).toBe(true);
    s.setOutput('%3', 'continue');
    expect(s.isMuted('%3')).toBe(false);
    expect(lines).toEqual(["refresh-client -A '%3:pause'", "refresh-client -A '%3:continue'"]);
    expect(lines.join('\n')).not.toMatch(/:off/);
  });

  test("tmux's own pause of a pane: resumed, and it was output we missed; of one we muted: left", () => {
    const {s, lines} = switches();
    expect(s.tmuxPaused('%4')).toBe(true);
    expect(lines).toEqual(["refresh-client -A '%4:continue'"]);
    s.setOutput('%5', 'pause');
    expect(s.tmuxPaused('%5')).toBe(false);
    expect(lines).toEqual(["refresh-client -A '%4:continue'", "refresh-client -A '%5:pause'"]);
  });

  test('a subscription: its name, pane and format in one quoted argument; removed by name', () => {
    const {s, lines} = switches();
    s.subscribe('nudge-7', '%7', '#{window_activity} #{cursor_x},#{cursor_y}');
    s.unsubscribe('nudge-7');
    expect(lines).toEqual([
      "refresh-client -B 'nudge-7:%7:#{window_activity} #{cursor_x},#{cursor_y}'",
      "refresh-client -B 'nudge-7'",
    ]);
  });

  test('a search for a pattern from outside is sent as tmux reads it: escaped, whole', () => {
    const {s, lines} = switches();
    const format = searchFormat(
      tmuxSearch(new LinearPattern('#(touch /tmp/x)}, a')) ?? {ere: '', ignoreCase: false},
    );
    s.subscribe('nudge-1', '%1', format);
    expect(lines).toEqual([`refresh-client -B 'nudge-1:%1:#{C/r:##touch /tmp/x[#}]#, a}'`]);
  });

  test.each([
    ['a quote', 'nudge-1', '%1', "#{pane_id}'; kill-server"],
    ['a command run by the format', 'nudge-1', '%1', '#(touch /tmp/x)'],
    ['a command after an escaped #', 'nudge-1', '%1', '#{C/r:a###(touch /tmp/x)}'],
    ['a control character', 'nudge-1', '%1', '#{C/r:a\tb}'],
    ['a name with a colon', 'a:b', '%1', '#{pane_id}'],
    ['a pane that is not a pane id', 'nudge-1', 'main:0', '#{pane_id}'],
  ])(
    'nothing that could leave the quotes or run a command is sent: %s',
    (_, name, pane, format) => {
      const {s, lines} = switches();
      expect(() => s.subscribe(name, pane, format)).toThrow(/not a subscription nudge makes/);
      s.setOutput(pane, 'pause');
      expect(lines.filter((l) => l.includes('-B'))).toEqual([]);
    },
  );
});
