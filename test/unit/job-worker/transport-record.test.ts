// The transport a job's worker reaches tmux by, in its record: control mode names its
// session, spawned processes say why; a control client that ends unasked is told once, one
// closed on purpose never; a record that cannot be written is only logged.
import {describe, expect, test} from 'vitest';
import {
  describeTransport,
  recordTransport,
  watchForLoss,
} from '../../../src/job-worker/transport-record.js';
import type {JobRecorder} from '../../../src/jobs/recorder.js';
import type {JobHandle} from '../../../src/jobs/store.js';
import type {ControlClosed} from '../../../src/tmux/control-types.js';
import type {Transport} from '../../../src/tmux/transport.js';

/** A transport of `kind`, its control client ending as `closed` says. */
function transport(kind: 'control' | 'spawn', closed?: Promise<ControlClosed>): Transport {
  const control =
    kind === 'control' ? {sessionId: '$3', closed: closed ?? new Promise(() => {})} : undefined;
  return {
    kind,
    fallbackReason: kind === 'spawn' ? 'tmux 3.1 has no control mode' : undefined,
    control,
  } as unknown as Transport;
}

describe('the transport in the record', () => {
  test('control mode names its session; spawned processes say why', () => {
    expect(describeTransport(transport('control'))).toBe('control ($3)');
    expect(describeTransport(transport('spawn'))).toBe('spawn (tmux 3.1 has no control mode)');
  });

  test('a control client that ends unasked is told; one closed on purpose is not', async () => {
    const told: string[] = [];
    watchForLoss(
      transport(
        'control',
        Promise.resolve({reason: 'exit', detail: 'server exited'} as ControlClosed),
      ),
      (d) => told.push(d),
    );
    watchForLoss(
      transport('control', Promise.resolve({reason: 'closed', detail: 'closed'} as ControlClosed)),
      (d) => told.push(d),
    );
    await new Promise((r) => setTimeout(r, 10));
    expect(told).toEqual(['server exited']);
  });

  test('recorded in the state and as an event; a write that fails is only logged', async () => {
    const written: unknown[] = [];
    const warned: unknown[] = [];
    const recorder = {
      event: async (name: string, data: unknown) => void written.push([name, data]),
    } as unknown as JobRecorder;
    const log = {warn: (o: unknown) => void warned.push(o)} as never;
    const handle = {
      updateState: async (p: unknown) => void written.push(p),
    } as unknown as JobHandle;
    await recordTransport(transport('control'), 'control ($3)', {handle, recorder, log});
    expect(written).toEqual([
      {transport: 'control ($3)'},
      ['transport', {kind: 'control', session: '$3'}],
    ]);
    const failing = {
      updateState: async () => Promise.reject(new Error('disk full')),
    } as unknown as JobHandle;
    await recordTransport(transport('spawn'), 'spawn (x)', {handle: failing, recorder, log});
    expect(warned).toHaveLength(1);
  });
});
