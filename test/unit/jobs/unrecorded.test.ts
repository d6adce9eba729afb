// What a job waits for room to record, told on its pane (issue 62): set while it waits,
// read back for its own job only, unset once written.
import {describe, expect, test} from 'vitest';
import {readUnrecorded, UNRECORDED_OPTION, untilRoom} from '../../../src/jobs/unrecorded.js';
import {FakeTmux} from '../../helpers/fake-tmux.js';

describe('a step not yet recorded', () => {
  test('told on the job pane, read back for that job only, gone once recorded', async () => {
    const tmux = new FakeTmux();
    const room = untilRoom(
      {pane: '%1', jobId: 'J1'},
      {signal: new AbortController().signal},
      () => tmux,
    );
    room.told?.('ending done');
    await Promise.resolve();
    expect(await tmux.paneMark('%1', UNRECORDED_OPTION)).toBe('J1 ending done');
    expect(await readUnrecorded(tmux, '%1', 'J1')).toBe('ending done');
    expect(await readUnrecorded(tmux, '%1', 'J12')).toBeUndefined();
    room.recorded?.();
    await Promise.resolve();
    expect(await readUnrecorded(tmux, '%1', 'J1')).toBeUndefined();
  });
});
