import {Buffer} from 'node:buffer';
import {describe, expect, test} from 'vitest';
import {
  decodeRequest,
  encodeRequest,
  JOB_ID_PATTERN,
  type JobRequest,
  newJobId,
} from '../../../src/jobs/request.js';
import {jobRequest} from '../../helpers/job-request.js';

const request: JobRequest = jobRequest({
  jobId: newJobId(Date.UTC(2026, 10, 22)),
  server: {socketPath: '/tmp/tmux-0/default', pid: 1234},
  pane: '%3',
  paneTarget: 'main:0.1',
  text: 'echo "a;b" $HOME `x` é€😀 漢字\ttab;',
});

const b64 = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64');

describe('request codec', () => {
  test('round-trips every character', () => {
    const decoded = decodeRequest(encodeRequest(request));
    expect(decoded).toEqual({ok: true, value: request});
  });

  test.each([
    ['missing', undefined, /no request/],
    ['not base64', '!!!', /not valid base64/],
    ['not JSON', Buffer.from('{oops').toString('base64'), /not valid JSON/],
    ['wrong version', b64({...request, version: 2}), /version 2, expected 1/],
    ['bad pane', b64({...request, pane: '../../../x'}), /bad pane id/],
    ['bad job id', b64({...request, jobId: '../etc'}), /bad job id/],
    ['empty text', b64({...request, text: ''}), /no text/],
    [
      'negative duration',
      b64({...request, options: {...request.options, delayMs: -1}}),
      /delayMs is not a duration/,
    ],
    [
      'zero stable checks',
      b64({...request, options: {...request.options, stableChecks: 0}}),
      /stableChecks/,
    ],
    ['truncated', encodeRequest(request).slice(0, 40), /not valid (base64|JSON)/],
    ['array', b64([1, 2]), /not an object/],
  ])('rejects %s', (_name, encoded, message) => {
    const decoded = decodeRequest(encoded);
    expect(decoded.ok).toBe(false);
    if (!decoded.ok) expect(decoded.error).toMatch(message);
  });

  test('job ids sort by creation time and match the pattern', () => {
    const ids = [1_000, 2_000, 1_700_000_000_000, 1_800_000_000_000].map((t) => newJobId(t));
    for (const id of ids) expect(id).toMatch(JOB_ID_PATTERN);
    expect([...ids].sort()).toEqual(ids);
  });
});
