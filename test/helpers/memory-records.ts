import type {WatcherRecord} from '../../src/watch/record.js';
import type {WatcherChange} from '../../src/watch/store.js';

/** One watcher's record in memory, changed as the store changes it. */
export class MemoryRecords {
  record: WatcherRecord | undefined;
  constructor(record: WatcherRecord) {
    this.record = record;
  }
  async update<T>(
    _name: string,
    change: (
      r: WatcherRecord | undefined,
    ) => {record: WatcherChange; result: T} | Promise<{record: WatcherChange; result: T}>,
  ): Promise<T> {
    const copy = this.record ? structuredClone(this.record) : undefined;
    const {record, result} = await change(copy);
    if (record === 'remove') this.record = undefined;
    else if (record !== 'keep') this.record = record;
    return result;
  }
}
