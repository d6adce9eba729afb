// The changes a cycle makes to its watcher's record: pausing it (queued reports dropped, said
// in the transcript), and the --max-injections count and bound.
import {describe, expect, it} from 'vitest';
import type {WatcherRecord} from '../../../src/watch/record.js';
import {countInjection, injectionBound, pause} from '../../../src/watch/record-changes.js';
import {FakeClock} from '../../helpers/fake-clock.js';
import {MemoryRecords} from '../../helpers/memory-records.js';

function records(r: WatcherRecord) {
  const memory = new MemoryRecords(r);
  return Object.assign(memory, {
    get box() {
      return memory;
    },
  });
}

const record = (o: Partial<WatcherRecord> = {}, maxInjections?: number): WatcherRecord =>
  ({
    version: 1,
    name: 'w',
    state: 'active',
    pending: [{at: 't', status: 's'}],
    transcript: [],
    options: {transcriptCap: 10, maxInjections},
    ...o,
  }) as unknown as WatcherRecord;

describe('record changes', () => {
  it('pause: paused with the reason; queued reports dropped and said; a paused one kept as it is', async () => {
    const r = records(record());
    expect(await pause({records: r, clock: new FakeClock(0)}, 'w', 'It broke.')).toBe(true);
    expect(r.box.record).toMatchObject({state: 'paused', pausedReason: 'It broke.', pending: []});
    expect(r.box.record?.transcript.map((e) => e.text)).toEqual([
      'It broke.',
      '1 queued report(s) not assessed: the watcher paused. Start it again to resume.',
    ]);
    expect(await pause({records: r, clock: new FakeClock(0)}, 'w', 'Again.')).toBe(true);
    expect(r.box.record?.pausedReason).toBe('It broke.');
  });

  it('counts the lines typed; the bound is reached at --max-injections; none: no bound', async () => {
    const r = records(record({}, 2));
    expect(injectionBound(r.box.record!, 'go')).toBeUndefined();
    await countInjection(r, 'w');
    await countInjection(r, 'w');
    expect(r.box.record?.injections).toBe(2);
    expect(injectionBound(r.box.record!, 'go')).toContain('--max-injections 2');
    expect(injectionBound({...record(), injections: 500}, 'go')).toBeUndefined();
  });
});
