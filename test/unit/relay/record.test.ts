import {readdir, writeFile} from 'node:fs/promises';
import {join} from 'node:path';
import {expect, test} from 'vitest';
import {NudgeError} from '../../../src/base/errors.js';
import {relayEnded, relayOf, relaysDir, writeRelay} from '../../../src/relay/record.js';
import {RELAY_SPEC} from '../../helpers/relay-spec.js';
import {useTempDir} from '../../helpers/temp-dir.js';

const SPEC = RELAY_SPEC;

test('a relay written is read back by its job; a job without one has none', async () => {
  const stateDir = useTempDir('nudge-relay-record-');
  await writeRelay(stateDir, {...SPEC, state: 'following', updatedAt: 'x'});
  expect(await relayOf(stateDir, SPEC.job)).toEqual({...SPEC, state: 'following', updatedAt: 'x'});
  expect(await relayOf(stateDir, '0mwt00000-zzzz')).toBeUndefined();
});

test('a name that is no job id is read as no relay, and an unreadable record as none', async () => {
  const stateDir = useTempDir('nudge-relay-record-');
  await writeRelay(stateDir, {...SPEC, state: 'following', updatedAt: 'x'});
  expect(await relayOf(stateDir, `../relays/${SPEC.job}`)).toBeUndefined();
  await writeFile(join(relaysDir(stateDir), `${SPEC.job}.json`), '{not json');
  expect(await relayOf(stateDir, SPEC.job)).toBeUndefined();
});

test("another host's job id that is a path is refused: nothing is written outside relays/", async () => {
  const stateDir = useTempDir('nudge-relay-record-');
  for (const job of ['../../escaped', '/tmp/abs', 'a/b'])
    await expect(
      writeRelay(stateDir, {...SPEC, job, state: 'following', updatedAt: 'x'}),
    ).rejects.toBeInstanceOf(NudgeError);
  await expect(readdir(stateDir)).resolves.not.toContain('escaped.json');
});

test('a relay has ended once delivered, with no notice, or failed', () => {
  expect(relayEnded('following')).toBe(false);
  expect(relayEnded('delivering')).toBe(false);
  for (const state of ['delivered', 'no-notice', 'failed'] as const)
    expect(relayEnded(state)).toBe(true);
});
