import {describe, expect, test} from 'vitest';
import {type JobRequest, newJobId} from '../../../src/jobs/request.js';
import {parseStoredRequest} from '../../../src/jobs/request-check.js';
import {jobRequest} from '../../helpers/job-request.js';

const request: JobRequest = jobRequest({
  jobId: newJobId(Date.UTC(2026, 10, 22)),
  server: {socketPath: '/tmp/tmux-0/default', pid: 1234},
  pane: '%3',
  paneTarget: 'main:0.1',
  text: 'echo "a;b" $HOME `x` é€😀 漢字\ttab;',
});

/** A request.json's text. */
const stored = (value: unknown) => JSON.stringify(value, null, 2);

describe('the stored request (request.json)', () => {
  test('round-trips every character', () => {
    const decoded = parseStoredRequest(stored(request));
    expect(decoded).toEqual({ok: true, value: request});
  });

  test.each([
    ['empty', '', /not valid JSON/],
    ['not JSON', '{oops', /not valid JSON/],
    ['wrong version', stored({...request, version: 2}), /version 2, expected 1/],
    ['bad pane', stored({...request, pane: '../../../x'}), /bad pane id/],
    ['bad job id', stored({...request, jobId: '../etc'}), /bad job id/],
    ['empty text', stored({...request, text: ''}), /no text/],
    [
      'negative duration',
      stored({...request, options: {...request.options, delayMs: -1}}),
      /delayMs is not a duration/,
    ],
    [
      'zero stable checks',
      stored({...request, options: {...request.options, stableChecks: 0}}),
      /stableChecks/,
    ],
    ['truncated', stored(request).slice(0, 40), /not valid JSON/],
    ['array', stored([1, 2]), /not an object/],
  ])('rejects %s', (_name, encoded, message) => {
    const decoded = parseStoredRequest(encoded);
    expect(decoded.ok).toBe(false);
    if (!decoded.ok) expect(decoded.error).toMatch(message);
  });
});

describe('the busy policy, stored as given', () => {
  const options = request.options as unknown as Record<string, unknown>;
  test.each([
    [{now: true}, 'now'],
    [{whenIdle: true}, 'wait'],
    [{typeAhead: true}, 'type-ahead'],
    [{}, 'queue'],
  ])('a request stored before ifBusy was (%o) reads as %s', (legacy, ifBusy) => {
    const {ifBusy: _, ...old} = options;
    const decoded = parseStoredRequest(stored({...request, options: {...old, ...legacy}}));
    expect(decoded.ok && decoded.value.options.ifBusy).toBe(ifBusy);
    expect(decoded.ok && 'whenIdle' in decoded.value.options).toBe(false);
  });

  test('a policy it does not know is refused in one sentence', () => {
    const decoded = parseStoredRequest(stored({...request, options: {...options, ifBusy: 'x'}}));
    expect(decoded).toEqual({
      ok: false,
      error: 'the request option ifBusy is not queue, wait, refuse, now or type-ahead',
    });
  });
});
