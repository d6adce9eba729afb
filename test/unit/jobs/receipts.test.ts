import {describe, expect, test} from 'vitest';
import {createSilentLogger} from '../../../src/base/log.js';
import {ensureStateDir} from '../../../src/base/paths.js';
import {climb, finalReceipt, isUndelivered, type Receipt} from '../../../src/jobs/receipts.js';
import {climbingReceipts, createJobRecorder} from '../../../src/jobs/recorder.js';
import {JobStore} from '../../../src/jobs/store.js';
import {FakeClock} from '../../helpers/fake-clock.js';
import {jobRequest} from '../../helpers/job-request.js';
import {useTempDir} from '../../helpers/temp-dir.js';

const AT = '2026-12-07T00:00:00.000Z';
const at = (rung: Receipt['rung'], extra: Partial<Receipt> = {}): Receipt => ({
  rung,
  why: 'x',
  at: AT,
  ...extra,
});

describe('the ladder', () => {
  test('a rung is climbed once and never down; an ending rung is final', () => {
    const held = {rung: 'held', why: 'a draft'} as const;
    expect(climb(at('accepted'), held, AT)?.rung).toBe('held');
    expect(climb(at('held'), held, AT)).toBeUndefined();
    expect(climb(at('delivered'), held, AT)).toBeUndefined();
    expect(climb(at('undeliverable'), {rung: 'turn-ended', why: 'idle'}, AT)).toBeUndefined();
    // A turn too quick to be seen busy: turn-ended straight after delivered.
    expect(climb(at('delivered'), {rung: 'turn-ended', why: 'idle'}, AT)?.rung).toBe('turn-ended');
  });

  test('the ending rung, whoever ends the job, with the rung it had reached', () => {
    const lost = finalReceipt(at('turn-started'), 'lost', {reason: 'its tmux server is gone'}, AT);
    expect(lost).toMatchObject({rung: 'undeliverable', reached: 'turn-started'});
    expect(lost?.why).toBe('its tmux server is gone');
    expect(finalReceipt(at('turn-ended'), 'failed', {reason: 'fail pattern'}, AT)).toBeUndefined();
    expect(finalReceipt(at('turn-ended'), 'done', {}, AT)).toBeUndefined();
    expect(finalReceipt(at('held'), 'cancelled', {reason: 'by you'}, AT)?.rung).toBe('cancelled');
    const refused = finalReceipt(at('held'), 'failed', {delivery: 'not-submitted'}, AT);
    expect(refused?.rung).toBe('refused');
    const expired = finalReceipt(at('held'), 'timeout', {reason: 'waited 5m'}, AT);
    expect(expired).toMatchObject({rung: 'expired', reached: 'held'});
    expect(expired?.why).toMatch(/^not delivered before its --timeout/);
  });

  test('dead letters: never got through, and not resent', () => {
    expect(isUndelivered(at('undeliverable', {reached: 'turn-started'}))).toBe(true);
    expect(isUndelivered(at('refused'))).toBe(true);
    expect(isUndelivered(at('expired', {reached: 'held'}))).toBe(true);
    expect(isUndelivered(at('expired', {reached: 'turn-started'}))).toBe(false);
    expect(isUndelivered(at('cancelled'))).toBe(false);
    expect(isUndelivered(at('undeliverable'), '0mwt00001-abcd')).toBe(false);
  });
});

describe('a job’s recorder climbs its receipts, recorded in its record and events', () => {
  async function job() {
    const home = useTempDir('nudge-receipts-');
    await ensureStateDir(home, {});
    const handle = await new JobStore(home).create(
      jobRequest({jobId: '0mwt00000-abcd'}),
      'detached',
    );
    const first = await handle.readState();
    const inner = createJobRecorder(handle, createSilentLogger(), {
      clock: new FakeClock(),
      signal: new AbortController().signal,
    });
    const recorder = climbingReceipts(inner, first, () => AT);
    const rungs = async () =>
      (await handle.readEvents()).filter((e) => e.event === 'receipt').map((e) => e.rung);
    return {handle, recorder, rungs};
  }

  test('accepted → held → delivered → turn-started → turn-ended, each once', async () => {
    const {handle, recorder, rungs} = await job();
    await recorder.event('waiting-for-lock', {pane: '%1', ahead: 1, head: '0mwt00000-aaaa'});
    await recorder.event('waiting-for-draft', {pane: '%1', chars: 4});
    await recorder.event('typed', {chars: 3, enter: true, delivery: 'submitted'});
    await recorder.event('turn-started', {pane: '%1', by: 'the agent showed itself at work'});
    await recorder.event('condition-met', {
      waitedMs: 10,
      checks: 3,
      verdict: 'idle: at its prompt',
    });
    await recorder.end({state: 'done', notified: true});
    expect(await rungs()).toEqual(['accepted', 'held', 'delivered', 'turn-started', 'turn-ended']);
    const record = await handle.readState();
    expect(record.kind === 'submit' && record.receipt).toMatchObject({
      rung: 'turn-ended',
      why: 'idle: at its prompt',
    });
  });

  test('delivered rides on the state change that follows it: no write of its own', async () => {
    const {handle, recorder} = await job();
    const rung = async () => {
      const r = await handle.readState();
      return r.kind === 'submit' ? r.receipt?.rung : undefined;
    };
    await recorder.event('typed', {chars: 3, enter: true, delivery: 'submitted'});
    expect(await rung()).toBe('accepted');
    await recorder.transition('waiting', {until: 'stable', intervalMs: 100});
    expect(await rung()).toBe('delivered');
    await recorder.event('turn-started', {pane: '%1', by: 'the agent showed itself at work'});
    expect(await rung()).toBe('turn-started');
  });

  test('a shell takes the line at once: turn-started, written then, is not undone by the delivered that waited to ride', async () => {
    const {handle, recorder} = await job();
    await recorder.event('typed', {chars: 3, enter: true, delivery: 'submitted'});
    await recorder.event('turn-started', {pane: '%1', by: 'the shell took the line'});
    await recorder.transition('waiting', {until: 'exit', intervalMs: 100});
    const after = await handle.readState();
    expect(after.kind === 'submit' && after.receipt?.rung).toBe('turn-started');
  });

  test('a turn too quick to be seen at work: turn-started is recorded as it ends, and says so', async () => {
    const {recorder, rungs, handle} = await job();
    await recorder.event('typed', {chars: 3, enter: true, delivery: 'submitted'});
    await recorder.event('condition-met', {waitedMs: 10, checks: 3, verdict: 'idle'});
    expect(await rungs()).toEqual(['accepted', 'delivered', 'turn-started', 'turn-ended']);
    const started = (await handle.readEvents()).find((e) => e.rung === 'turn-started');
    expect(started?.why).toMatch(/^seen only as its turn ended/);
  });

  test('every door refused the text (--if-busy now): refused, not undeliverable', async () => {
    const {handle, recorder, rungs} = await job();
    const refused = {door: 'claude-inbox', result: 'refused', why: 'no', ms: 1, pane: '%1'};
    await recorder.event('door', refused as never);
    await recorder.end({state: 'failed', notified: false, reason: 'No door took the text.'});
    expect(await rungs()).toEqual(['accepted', 'refused']);
    const record = await handle.readState();
    expect(record.kind === 'submit' && isUndelivered(record.receipt)).toBe(true);
  });

  test('ended from outside (lost) after its turn started: undeliverable, with why', async () => {
    const {handle, recorder, rungs} = await job();
    await recorder.event('typed', {chars: 3, enter: true, delivery: 'submitted'});
    await recorder.event('turn-started', {pane: '%1', by: 'the agent showed itself at work'});
    await handle.end('lost', {reason: 'pane %1 is gone'});
    expect(await rungs()).toEqual(['accepted', 'delivered', 'turn-started', 'undeliverable']);
    const record = await handle.readState();
    expect(record.kind === 'submit' && record.receipt).toMatchObject({
      rung: 'undeliverable',
      why: 'pane %1 is gone',
      reached: 'turn-started',
    });
  });
});
