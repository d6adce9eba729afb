import {describe, expect, test} from 'vitest';
import {NudgeError} from '../../../src/base/errors.js';
import {checkWatcherRecord} from '../../../src/watch/record.js';

describe('a watcher.json read back', () => {
  const good = {
    version: 1,
    name: 'parser',
    state: 'active',
    pane: '%1',
    paneTarget: 's:0.0',
    socketPath: '/tmp/s',
    serverPid: 7,
    plan: 'p',
    assessor: {kind: 'command', argv: ['true']},
    options: {},
    createdAt: '',
    updatedAt: '',
    pending: [],
    transcript: [],
  };

  test('a record of this version is taken as it is', () => {
    expect(checkWatcherRecord(good, '/w/watcher.json')).toEqual(good);
  });

  test.each([
    [{...good, version: 2}, 'version 2, this nudge reads 1'],
    [{...good, state: 'sleeping'}, 'state "sleeping"'],
    [{...good, pending: undefined}, 'no report queue or transcript'],
    [[], 'not an object'],
  ])('%j is refused with one sentence naming the file', (value, why) => {
    const read = () => checkWatcherRecord(value, '/w/watcher.json');
    expect(read).toThrow(NudgeError);
    expect(read).toThrow(`/w/watcher.json is not a watcher record nudge can read (${why}).`);
  });
});
