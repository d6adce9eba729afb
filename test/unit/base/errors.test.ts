// A file system error no command turned into a sentence (issue 62): one sentence naming the
// folder and what to do, never errno text.
import {describe, expect, test} from 'vitest';
import {fileSystemSentence, isNoRoom} from '../../../src/base/errors.js';

const fsError = (code: string, path?: string) =>
  Object.assign(new Error(`${code}: something, open '${path}'`), {code, path});

describe('file system errors', () => {
  test('no room now: the disk full, the quota used up, the file system read-only', () => {
    expect(['ENOSPC', 'EDQUOT', 'EROFS'].map((c) => isNoRoom(fsError(c)))).toEqual([
      true,
      true,
      true,
    ]);
    expect(isNoRoom(fsError('EACCES'))).toBe(false);
    expect(isNoRoom(new Error('x'))).toBe(false);
  });

  test('one sentence naming the folder and what to do; anything else is not one', () => {
    const home = '/home/me/.local/state/nudge/waiters/k/inbox';
    expect(fileSystemSentence(fsError('EROFS', `${home}/0mx.json.tmp`))?.message).toBe(
      `nudge could not write in ${home}: the file system is read-only; make it writable (or set NUDGE_HOME to another folder), then try again.`,
    );
    expect(fileSystemSentence(fsError('ENOSPC', `${home}/0mx.json`))?.message).toMatch(
      /: the disk is full; free some space \(or set NUDGE_HOME/,
    );
    expect(fileSystemSentence(fsError('EACCES', '/x/y'))?.message).toMatch(
      /^nudge could not write in \/x: permission denied; check its owner and permissions/,
    );
    expect(fileSystemSentence(fsError('ENOSPC'))).toBeUndefined();
    expect(fileSystemSentence(fsError('EIO', '/x/y'))).toBeUndefined();
    expect(fileSystemSentence(new Error('boom'))).toBeUndefined();
  });
});
