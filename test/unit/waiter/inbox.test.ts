// The waiter's inbox: entries oldest job first, anything else left out; an entry a dead
// waiter was taking put back; a job's entry its own until a waiter has taken it.
import {mkdirSync, writeFileSync} from 'node:fs';
import {join} from 'node:path';
import {describe, expect, test} from 'vitest';
import {inboxEntries, stillOurs, takeBack} from '../../../src/waiter/inbox.js';
import {useTempDir} from '../../helpers/temp-dir.js';

/** A pid no process has (above the kernel's pid_max). */
const GONE_PID = 2 ** 22 + 1;

describe('the inbox', () => {
  test('entries oldest job first; files that are not a job entry are left out', async () => {
    const inbox = useTempDir();
    for (const name of ['0mwr33g3y-aaaa.json', '0mwr33g3x-k62r.json', 'notes.txt', 'x.json'])
      writeFileSync(join(inbox, name), '{}');
    expect(await inboxEntries(inbox)).toEqual(['0mwr33g3x-k62r.json', '0mwr33g3y-aaaa.json']);
    expect(await inboxEntries(join(inbox, 'missing'))).toEqual([]);
  });

  test("an entry a dead waiter was taking is put back; a live one's stays taken", async () => {
    const inbox = useTempDir();
    writeFileSync(join(inbox, `0mwr33g3x-k62r.json.${GONE_PID}.taken`), '{}');
    writeFileSync(join(inbox, `0mwr33g3y-aaaa.json.${process.pid}.taken`), '{}');
    expect(await inboxEntries(inbox)).toEqual(['0mwr33g3x-k62r.json']);
  });

  test("a job's entry is its own while there or being taken; taken back once", async () => {
    const inbox = useTempDir();
    mkdirSync(inbox, {recursive: true});
    const entry = join(inbox, '0mwr33g3x-k62r.json');
    writeFileSync(entry, '{}');
    expect(await stillOurs(inbox, '0mwr33g3x-k62r')).toBe(true);
    expect(await takeBack(entry)).toBe(true);
    expect(await takeBack(entry)).toBe(false);
    expect(await stillOurs(inbox, '0mwr33g3x-k62r')).toBe(false);
    writeFileSync(`${entry}.${process.pid}.taken`, '{}');
    expect(await stillOurs(inbox, '0mwr33g3x-k62r')).toBe(true);
  });
});
