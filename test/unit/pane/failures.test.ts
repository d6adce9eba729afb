import {expect, test} from 'vitest';
import {NotDelivered, PaneBlocked, PaneFailure} from '../../../src/pane/failures.js';

test('why work on a pane stopped: each a PaneFailure, with its sentence and what the record keeps', () => {
  const not = new NotDelivered('The text stayed in the composer.', 'not-submitted');
  expect(not).toBeInstanceOf(PaneFailure);
  expect(not.delivery).toBe('not-submitted');
  const blocked = new PaneBlocked('%2', {
    kind: 'permission',
    question: 'Do you want to proceed?',
    detail: [],
    denyKeys: [],
  });
  expect(blocked).toBeInstanceOf(PaneFailure);
  expect(blocked.message).toBe('Pane %2 waits for a person (permission): Do you want to proceed?');
});
