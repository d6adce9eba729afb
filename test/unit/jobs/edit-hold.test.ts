/**
 * A job held for `nudge queue edit`: the hold names the editing process; it holds while that
 * process runs, and ends when the edit is written (releaseEdit) or the process is gone.
 */
import {describe, expect, test} from 'vitest';
import {editHolder, holdForEdit, releaseEdit} from '../../../src/jobs/edit-hold.js';
import {processId} from '../../../src/process/identity.js';
import {useTempDir} from '../../helpers/temp-dir.js';

describe('the edit hold', () => {
  test('held by a running process until released', async () => {
    const dir = useTempDir('nudge-edit-hold-');
    expect(await editHolder(dir)).toBeUndefined();
    await holdForEdit(dir, processId(process.pid));
    expect((await editHolder(dir))?.pid).toBe(process.pid);
    await releaseEdit(dir);
    expect(await editHolder(dir)).toBeUndefined();
  });

  test('a holder that is gone (or another process under its pid) holds nothing', async () => {
    const dir = useTempDir('nudge-edit-hold-');
    await holdForEdit(dir, {pid: process.pid, start: 'not-its-start'});
    expect(await editHolder(dir)).toBeUndefined();
  });
});
