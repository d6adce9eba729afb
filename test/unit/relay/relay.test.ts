import {describe, expect, test} from 'vitest';
import {NudgeError} from '../../../src/base/errors.js';
import {relayOf, writeRelay} from '../../../src/relay/record.js';
import {
  deliveryId,
  type FollowedJob,
  planNotice,
  type RelayDeps,
  recordRelayFailure,
  relayedNotice,
  runRelay,
} from '../../../src/relay/relay.js';
import {FakeClock} from '../../helpers/fake-clock.js';
import {RELAY_SPEC} from '../../helpers/relay-spec.js';
import {useTempDir} from '../../helpers/temp-dir.js';

const SPEC = RELAY_SPEC;

/** A relay's two ends, played: the job's states as `status` answers them in turn, and what
 * `submit` does. */
function ends(
  states: (FollowedJob | Error)[],
  submit: RelayDeps['submit'] = async () => ({job: 'J2'}),
) {
  const stateDir = useTempDir('nudge-relay-');
  const log: string[] = [];
  const submitted: Parameters<RelayDeps['submit']>[0][] = [];
  const deps: RelayDeps = {
    stateDir,
    clock: new FakeClock(),
    signal: new AbortController().signal,
    log: (line) => log.push(line),
    status: async () => {
      const next = states.length > 1 ? states.shift() : states[0];
      if (next instanceof Error) throw next;
      return next as FollowedJob;
    },
    submit: async (o) => {
      submitted.push(o);
      return submit(o);
    },
  };
  return {deps, log, submitted, stateDir};
}

describe('the relay: following → delivering → delivered | no-notice | failed', () => {
  test('a job that ends with a notice due: the notice is typed there once, as a job of its own', async () => {
    const w = ends([
      {state: 'waiting'},
      {state: 'done', kind: 'submit', exitCode: 0, waitedMs: 5000, noticeDue: {to: 'local:%4'}},
    ]);
    const record = await runRelay(SPEC, w.deps);
    expect(record).toMatchObject({state: 'delivered', delivery: 'J2'});
    expect(w.submitted).toEqual([
      {
        host: undefined,
        pane: '%4',
        jobId: deliveryId(SPEC.job),
        text: relayedNotice(SPEC, {state: 'done', exitCode: 0, waitedMs: 5000}),
      },
    ]);
    expect(await relayOf(w.stateDir, SPEC.job)).toMatchObject({state: 'delivered'});
    expect(w.log.filter((l) => l.startsWith('relay '))).toEqual([
      'relay delivering',
      'relay delivered as job J2',
    ]);
  });

  test('a job that ends with no notice due: no-notice, nothing typed', async () => {
    const w = ends([{state: 'failed', kind: 'submit'}]);
    expect(await runRelay(SPEC, w.deps)).toMatchObject({state: 'no-notice'});
    expect(w.submitted).toEqual([]);
  });

  test('a host that does not answer is waited out; a user error ends the relay failed', async () => {
    const w = ends([new Error('ssh: connect refused'), new NudgeError('no-such-job', 'no job X')]);
    const record = await runRelay(SPEC, w.deps);
    expect(record).toMatchObject({state: 'failed', error: 'no job X'});
    expect(w.log.some((l) => l.includes('connect refused; again in 2 s'))).toBe(true);
  });

  test('a worker that failed outside the loop: the record says so, unless it had ended', async () => {
    const w = ends([]);
    await writeRelay(w.stateDir, {...SPEC, state: 'following', updatedAt: 'x'});
    await recordRelayFailure(w.stateDir, SPEC.job, 'Worker failed: boom.', 0);
    expect(await relayOf(w.stateDir, SPEC.job)).toMatchObject({
      state: 'failed',
      error: 'Worker failed: boom.',
    });
    await writeRelay(w.stateDir, {...SPEC, state: 'delivered', updatedAt: 'x'});
    await recordRelayFailure(w.stateDir, SPEC.job, 'late', 0);
    expect(await relayOf(w.stateDir, SPEC.job)).toMatchObject({state: 'delivered'});
  });
});

describe('where a notice goes', () => {
  test('a pane of the job host is typed by the job; another host is relayed; self from elsewhere is this pane', () => {
    expect(planNotice('gpu', '%3', undefined)).toEqual({notifyPane: '%3'});
    expect(planNotice('gpu', 'gpu:%3', undefined)).toEqual({notifyPane: '%3'});
    expect(planNotice(undefined, 'gpu:%3', undefined)).toEqual({
      relay: {to: {host: 'gpu', pane: '%3'}, label: 'gpu:%3'},
    });
    expect(planNotice('gpu', 'self', '%9')).toEqual({
      relay: {to: {pane: '%9'}, label: 'local:%9'},
    });
    expect(() => planNotice('gpu', 'self', undefined)).toThrow(/not in tmux/);
  });

  test("the relayed notice is this machine's rendering: the other host's words never typed", () => {
    const text = relayedNotice(
      {job: SPEC.job, from: 'gpu', notice: {template: '{status} {exit} {match} {reason}'}},
      {state: 'done; rm -rf ~', exitCode: 3, delivery: '$(evil)'},
    );
    expect(text).toBe(`done 3 (nudge status gpu:${SPEC.job}) (nudge status gpu:${SPEC.job})`);
  });

  test('a delivery sent twice is one job', () => {
    expect(deliveryId(SPEC.job)).toBe(deliveryId(SPEC.job));
    expect(deliveryId(SPEC.job)).not.toBe(SPEC.job);
    expect(deliveryId(SPEC.job).split('-')[0]).toBe('0mwt00000');
  });
});
