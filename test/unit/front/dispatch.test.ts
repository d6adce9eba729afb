import {expect, test} from 'vitest';
import {runsHere} from '../../../src/front/dispatch.js';

// What the quick bundles (src/quick.ts, src/quick-submit.ts) run themselves: a line of this
// machine alone. Another host is main's (the way there is not in those bundles).
test('a command runs here unless a host is named, implied or its notice relayed', () => {
  expect(runsHere('jobs', {}, {})).toBe(true);
  expect(runsHere('status', {job: '0mwt00000-abcd'}, {})).toBe(true);
  expect(runsHere('jobs', {host: 'gpu'}, {})).toBe(false);
  expect(runsHere('jobs', {}, {NUDGE_HOST: 'gpu'})).toBe(false);
  expect(runsHere('status', {job: 'gpu:0mwt00000-abcd'}, {})).toBe(false);
  expect(runsHere('submit', {pane: '%1', text: 'x', notifyPane: 'gpu:%2'}, {})).toBe(false);
  expect(runsHere('submit', {pane: '%1', text: 'x', notifyPane: '%2'}, {})).toBe(true);
});

test('a host named wrongly runs here: dispatch refuses it there, with its sentence', () => {
  expect(runsHere('submit', {pane: '%1', text: 'x', host: '-oProxyCommand=touch /tmp/x'}, {})).toBe(
    true,
  );
});
