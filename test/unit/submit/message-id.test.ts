// Message ids: a retried send finds the first one's job; another message under the same id is
// refused; an id whose job was never made (or is gone) is free again.
import {readdirSync, statSync, writeFileSync} from 'node:fs';
import {join} from 'node:path';
import {describe, expect, test} from 'vitest';
import {
  checkMessageId,
  claimMessageId,
  type MessageClaim,
  textDigest,
} from '../../../src/submit/message-id.js';
import {FakeClock} from '../../helpers/fake-clock.js';
import {useTempDir} from '../../helpers/temp-dir.js';

const send = (job: string, over: Partial<MessageClaim> = {}): MessageClaim => ({
  id: 'review-42',
  job,
  server: '/tmp/tmux-0/default',
  pane: '%3',
  text: textDigest('look at the parser'),
  ...over,
});

/** A state directory and the jobs recorded in it so far. */
function world() {
  const dir = useTempDir('nudge-ids-');
  const jobs = new Set<string>();
  const deps = {jobExists: async (j: string) => jobs.has(j), clock: new FakeClock()};
  return {dir, jobs, deps};
}

describe('message ids', () => {
  test('the first send claims the id; the same message again finds its job', async () => {
    const {dir, jobs, deps} = world();
    const first = await claimMessageId(dir, send('0mxcq2dsq-g66o'), deps);
    expect(first.kind).toBe('claimed');
    jobs.add('0mxcq2dsq-g66o');
    const again = await claimMessageId(dir, send('0mxcq2dsr-aaaa'), deps);
    expect(again).toEqual({kind: 'sent', job: '0mxcq2dsq-g66o'});
    // The claim is private, one file named by the id's digest (not the id itself).
    const [file] = readdirSync(join(dir, 'ids'));
    expect(file).toMatch(/^[0-9a-f]{64}\.json$/);
    expect(statSync(join(dir, 'ids', file ?? '')).mode & 0o777).toBe(0o600);
    expect(statSync(join(dir, 'ids')).mode & 0o777).toBe(0o700);
  });

  test('the same id with another text, or to another pane, is refused in one sentence', async () => {
    const {dir, jobs, deps} = world();
    await claimMessageId(dir, send('0mxcq2dsq-g66o'), deps);
    jobs.add('0mxcq2dsq-g66o');
    await expect(
      claimMessageId(dir, send('0mxcq2dsr-aaaa', {text: textDigest('something else')}), deps),
    ).rejects.toThrow(
      'Message id review-42 was sent as job 0mxcq2dsq-g66o with another text; nothing was sent: give this message an id of its own.',
    );
    await expect(claimMessageId(dir, send('0mxcq2dsr-aaaa', {pane: '%4'}), deps)).rejects.toThrow(
      /^Message id review-42 was sent as job 0mxcq2dsq-g66o to pane %3;/,
    );
    await expect(
      claimMessageId(dir, send('0mxcq2dsr-aaaa', {server: '/tmp/other'}), deps),
    ).rejects.toThrow(/ to pane %3 on \/tmp\/tmux-0\/default; nothing was sent/);
  });

  test('a send that failed before its job was made gives the id back; so does one whose job is gone', async () => {
    const {dir, jobs, deps} = world();
    const first = await claimMessageId(dir, send('0mxcq2dsq-g66o'), deps);
    if (first.kind !== 'claimed') throw new Error('not claimed');
    await first.release();
    expect(await claimMessageId(dir, send('0mxcq2dsr-aaaa'), deps)).toMatchObject({
      kind: 'claimed',
    });
    // Its job pruned (never recorded here): after the recording window, the id is taken over.
    const later = await claimMessageId(dir, send('0mxcq2dss-bbbb'), deps);
    expect(later.kind).toBe('claimed');
    jobs.add('0mxcq2dss-bbbb');
    expect(await claimMessageId(dir, send('0mxcq2dst-cccc'), deps)).toEqual({
      kind: 'sent',
      job: '0mxcq2dss-bbbb',
    });
  });

  test('two sends at once: one claims; the other waits for its job and finds it', async () => {
    const {dir, jobs, deps} = world();
    const [a, b] = await Promise.all([
      claimMessageId(dir, send('0mxcq2dsq-g66o'), deps),
      (async () => {
        // The other records its job a moment later (virtual time).
        setTimeout(() => jobs.add('0mxcq2dsq-g66o'), 5);
        return claimMessageId(dir, send('0mxcq2dsr-aaaa'), {
          ...deps,
          jobExists: async (j) => {
            await new Promise((r) => setTimeout(r, 1));
            return jobs.has(j);
          },
        });
      })(),
    ]);
    expect(a.kind).toBe('claimed');
    expect(b).toEqual({kind: 'sent', job: '0mxcq2dsq-g66o'});
  });

  test('a claim file cut short (a full disk) is nobody’s', async () => {
    const {dir, deps} = world();
    await claimMessageId(dir, send('0mxcq2dsq-g66o'), deps);
    const [file] = readdirSync(join(dir, 'ids'));
    writeFileSync(join(dir, 'ids', file ?? ''), '{"id":"rev');
    expect((await claimMessageId(dir, send('0mxcq2dsr-aaaa'), deps)).kind).toBe('claimed');
  });

  test('an id has a form: refused in one sentence otherwise', () => {
    expect(checkMessageId('550e8400-e29b-41d4-a716-446655440000')).toBeTruthy();
    expect(checkMessageId('sha256:ab.cd_ef')).toBeTruthy();
    for (const bad of ['', '-x', 'a b', '../x', 'x'.repeat(129), 'é'])
      expect(() => checkMessageId(bad)).toThrow(/is not a message id: 1 to 128 letters/);
  });
});
