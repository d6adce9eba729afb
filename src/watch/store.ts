import {mkdir, readdir, readFile, rm} from 'node:fs/promises';
import {join} from 'node:path';
import {stateWriteError, writeFileAtomic} from '../base/fs.js';
import {DIR_MODE} from '../base/paths.js';
import {withRecordLock} from '../locks/record-lock.js';
import {checkWatcherRecord, validateWatcherName, type WatcherRecord} from './record.js';

/** What an update does with the record: write this one, remove it, or leave it as it is. */
export type WatcherChange = WatcherRecord | 'remove' | 'keep';

/** How long a record's lock may be held before another process takes it as stale. The
 * holder only reads, changes and writes one small file. */
const RECORD_LOCK_STALE_MS = 10_000;

/**
 * The watchers under the state dir: `watchers/<name>/watcher.json` (0600, replaced
 * atomically) and `watchers/<name>/cycle.log` (the cycle workers' log). Every change is a
 * read-modify-write under `watchers/<name>.lock` (proper-lockfile), because the front end
 * (a report) and the cycle worker change the same record.
 */
export class WatcherStore {
  readonly root: string;

  constructor(readonly stateDir: string) {
    this.root = join(stateDir, 'watchers');
  }

  dir(name: string): string {
    return join(this.root, validateWatcherName(name));
  }

  recordPath(name: string): string {
    return join(this.dir(name), 'watcher.json');
  }

  logPath(name: string): string {
    return join(this.dir(name), 'cycle.log');
  }

  /** The record, or undefined when there is no such watcher. */
  async read(name: string): Promise<WatcherRecord | undefined> {
    try {
      const path = this.recordPath(name);
      return checkWatcherRecord(JSON.parse(await readFile(path, 'utf8')), path);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
      throw error;
    }
  }

  /** Every watcher's record, by name. */
  async list(): Promise<WatcherRecord[]> {
    let names: string[];
    try {
      names = (await readdir(this.root, {withFileTypes: true}))
        .filter((e) => e.isDirectory())
        .map((e) => e.name)
        .sort();
    } catch {
      return [];
    }
    const records = await Promise.all(names.map((n) => this.read(n).catch(() => undefined)));
    return records.filter((r): r is WatcherRecord => r !== undefined);
  }

  /**
   * Change one watcher's record under its lock: `change` gets the record as it is now (or
   * undefined) and says what to write, and a result to hand back. Writes are atomic; the lock
   * keeps a report and a cycle from losing each other's changes.
   */
  async update<T>(
    name: string,
    change: (
      record: WatcherRecord | undefined,
    ) => {record: WatcherChange; result: T} | Promise<{record: WatcherChange; result: T}>,
  ): Promise<T> {
    const dir = this.dir(name);
    try {
      await mkdir(this.root, {recursive: true, mode: DIR_MODE});
    } catch (error) {
      throw stateWriteError(this.stateDir, error);
    }
    return withRecordLock(dir, RECORD_LOCK_STALE_MS, async () => {
      try {
        const {record, result} = await change(await this.read(name));
        if (record === 'remove') {
          await rm(dir, {recursive: true, force: true});
        } else if (record !== 'keep') {
          await mkdir(dir, {recursive: true, mode: DIR_MODE});
          await writeFileAtomic(this.recordPath(name), `${JSON.stringify(record, null, 2)}\n`);
        }
        return result;
      } catch (error) {
        throw stateWriteError(this.stateDir, error);
      }
    });
  }
}
