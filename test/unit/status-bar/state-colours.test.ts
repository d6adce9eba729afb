// One colour per state, wherever a person sees it: top's rows and the status line agree.
import {describe, expect, test} from 'vitest';
import {WAITS_ON_PERSON} from '../../../src/status-bar/pane-states.js';
import {stateColour, stateStyle} from '../../../src/status-bar/state-colours.js';

describe('state colours', () => {
  test('a state that needs the person is bold in tmux, in the colour top gives it', () => {
    for (const state of WAITS_ON_PERSON) {
      expect(stateStyle(state, true)).toBe(`fg=${stateColour(state)},bold`);
    }
    expect(stateStyle('stalled', true)).toBe('fg=magenta,bold');
  });

  test('an ending is coloured, not bold; a state without a colour has no style', () => {
    expect(stateStyle('done')).toBe('fg=green');
    expect(stateStyle('failed')).toBe('fg=red');
    expect(stateColour('no-such-state')).toBeUndefined();
    expect(stateStyle('no-such-state')).toBeUndefined();
  });
});
