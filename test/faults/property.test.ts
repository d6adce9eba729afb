// Property-based tests (fast-check): the request codec round-trips every valid request and
// rejects garbage, truncations, wrong versions, oversized and ill-typed requests with a
// sentence (never a throw); and random Unicode text is typed byte for byte into a recorder,
// on both transports.
import fc from 'fast-check';
import {describe, expect, it} from 'vitest';
import {agentProfiles} from '../../src/agents/registry.js';
import {IF_BUSY} from '../../src/job-options/policies.js';
import {MAX_TEXT_BYTES} from '../../src/job-options/resolve.js';
import type {JobRequest} from '../../src/jobs/request.js';
import {parseStoredRequest} from '../../src/jobs/request-check.js';
import {recordFigure, roundTrip, TRANSPORTS, waitForLocksFree} from '../helpers/faults.js';
import {recorderWorld} from '../helpers/recorder-pane.js';

const noNul = (s: string) => !s.includes('\0');
const oneLine = (s: string) => !/[\0\r\n]/.test(s);

const untilArb = fc.oneof(
  fc.constant({kind: 'stable' as const}),
  fc.constant({kind: 'exit' as const}),
  fc
    .constantFrom('done', 'a+b', '\\d+ passed', '^\\$ $', 'x|y', '[(]')
    .filter((p) => p !== '[(]')
    .map((pattern) => ({kind: 'regex' as const, pattern})),
  fc.constantFrom(
    {kind: 'prompt' as const, profile: 'shell', pattern: undefined},
    {kind: 'prompt' as const, profile: undefined, pattern: '❯ $'},
    {kind: 'prompt' as const, profile: undefined, pattern: undefined},
  ),
);

/** Any request the front end could make. */
const requestArb: fc.Arbitrary<JobRequest> = fc.record({
  version: fc.constant(1 as const),
  jobId: fc
    .tuple(fc.integer({min: 0, max: 2 ** 46}), fc.stringMatching(/^[0-9a-z]{4}$/))
    .map(([t, s]) => `${t.toString(36).padStart(9, '0')}-${s}`),
  createdAt: fc
    .date({min: new Date(0), max: new Date(4e12), noInvalidDate: true})
    .map((d) => d.toISOString()),
  server: fc.record({
    socketPath: fc.string({minLength: 1, maxLength: 80}).filter(noNul),
    pid: fc.integer({min: 1, max: 2 ** 31}),
  }),
  pane: fc.nat(99_999).map((n) => `%${n}`),
  paneTarget: fc.string({maxLength: 40}).filter(noNul),
  text: fc
    .oneof(
      fc.string({unit: 'grapheme', minLength: 1, maxLength: 100}),
      fc.string({unit: 'binary', minLength: 1, maxLength: 200}),
    )
    .filter((t) => noNul(t) && t.length > 0),
  options: fc.record({
    delayMs: fc.nat(),
    typeDelayMs: fc.nat(),
    enterDelayMs: fc.nat(),
    clear: fc.boolean(),
    enter: fc.boolean(),
    intervalMs: fc.integer({min: 10, max: 100_000}),
    stableChecks: fc.integer({min: 1, max: 1000}),
    timeoutMs: fc.integer({min: 1, max: 7 * 24 * 3_600_000}),
    notify: fc.boolean(),
    noticeTemplate: fc.option(fc.string({maxLength: 200}).filter(oneLine), {nil: null}),
    notifyPane: fc.option(
      fc.nat(999).map((n) => `%${n}`),
      {nil: null},
    ),
    noticeElsewhere: fc.option(
      fc
        .tuple(fc.constantFrom('local', 'gpu', 'me@mini', '[::1]'), fc.nat(999))
        .map(([host, n]) => `${host}:%${n}`),
      {nil: null},
    ),
    until: untilArb,
    ignore: fc.array(fc.constantFrom('\\d+s', 'clock \\d\\d:\\d\\d', '[|/\\\\-]'), {maxLength: 3}),
    lines: fc.integer({min: 1, max: 100_000}),
    profile: fc.constantFrom('auto', 'shell', 'raw', ...agentProfiles().map((p) => p.name)),
    ifBusy: fc.constantFrom(...IF_BUSY),
    idleTimeoutMs: fc.nat(),
    clearDraft: fc.boolean(),
    draftWaitMs: fc.nat(),
    lockTimeoutMs: fc.nat(),
    onLimit: fc.constantFrom('stop', 'wait'),
    limitMarginMs: fc.nat(),
    resumeText: fc
      .string({minLength: 1, maxLength: 40})
      .filter((t) => oneLine(t) && t.trim() !== ''),
    notifySinks: fc.array(
      fc.constantFrom('desktop', 'tmux', 'ntfy:https://ntfy.sh/t', 'cmd:notify-send'),
      {
        maxLength: 3,
      },
    ),
  }),
}) as fc.Arbitrary<JobRequest>;

/** A rejection is one sentence about the request, never an exception. */
function expectRejected(encoded: string, says?: RegExp): string {
  let result: ReturnType<typeof parseStoredRequest>;
  try {
    result = parseStoredRequest(encoded);
  } catch (error) {
    throw new Error(`parseStoredRequest threw instead of rejecting: ${String(error)}`);
  }
  expect(result.ok).toBe(false);
  if (result.ok) return '';
  expect(result.error).toMatch(/^(the request|no request)/);
  expect(result.error).not.toMatch(/\n/);
  if (says) expect(result.error).toMatch(says);
  return result.error;
}

/** A request.json's text. */
const stored = (value: unknown) => JSON.stringify(value, null, 2);

describe('stored request (fast-check)', () => {
  const runs = {round: 400, garbage: 1000, json: 500, truncated: 300, broken: 400};

  it('round-trips every valid request', () => {
    fc.assert(
      fc.property(requestArb, (request) => {
        const decoded = parseStoredRequest(stored(request));
        if (!decoded.ok) throw new Error(decoded.error);
        expect(decoded.value).toEqual(JSON.parse(JSON.stringify(request)));
      }),
      {numRuns: runs.round},
    );
  });

  it('rejects garbage strings and arbitrary JSON with a sentence, never a throw', () => {
    fc.assert(
      fc.property(fc.oneof(fc.string(), fc.base64String(), fc.string({unit: 'binary'})), (s) => {
        expectRejected(s);
      }),
      {numRuns: runs.garbage},
    );
    fc.assert(
      fc.property(fc.jsonValue(), (value) => {
        expectRejected(stored(value));
      }),
      {numRuns: runs.json},
    );
  });

  it('rejects truncated requests', () => {
    fc.assert(
      fc.property(requestArb, fc.double({min: 0, max: 1, noNaN: true}), (request, cut) => {
        const encoded = stored(request);
        // Short of its closing brace at least: broken JSON.
        const keep = Math.floor(cut * (encoded.length - 1));
        expectRejected(encoded.slice(0, keep));
      }),
      {numRuns: runs.truncated},
    );
  });

  it('rejects a wrong version, a missing or ill-typed field, and oversized requests', () => {
    fc.assert(
      fc.property(
        requestArb,
        fc.oneof(fc.integer(), fc.string(), fc.constant(null)).filter((v) => v !== 1),
        (request, version) => {
          expectRejected(stored({...request, version}), /version/);
        },
      ),
      {numRuns: 100},
    );
    const topKeys = ['jobId', 'createdAt', 'server', 'pane', 'paneTarget', 'text', 'options'];
    const optionKeys = Object.keys(fc.sample(requestArb, 1)[0]!.options);
    fc.assert(
      fc.property(
        requestArb,
        fc.constantFrom(...topKeys.map((k) => ['top', k]), ...optionKeys.map((k) => ['opt', k])),
        fc.constantFrom(undefined, 'x', -1, 1.5, [], {}, true),
        (request, [where, key], wrong) => {
          const copy = JSON.parse(JSON.stringify(request)) as Record<string, unknown> & {
            options: Record<string, unknown>;
          };
          const target = where === 'top' ? copy : copy.options;
          const before = target[key!];
          if (wrong === undefined) delete target[key!];
          else target[key!] = wrong;
          // Some values are valid for some fields (e.g. "x" as a paneTarget): only count the
          // ones a valid request could not have.
          const decoded = parseStoredRequest(stored(copy));
          // A request from before --notify-pane HOST:%N has no noticeElsewhere: still valid.
          if (decoded.ok && key === 'noticeElsewhere' && wrong === undefined) return;
          // One from before ifBusy was stored has none: its policy came from its booleans.
          if (decoded.ok && key === 'ifBusy' && wrong === undefined)
            return void expect(decoded.value.options.ifBusy).toBe('queue');
          if (decoded.ok) {
            // Accepted only where the value is of the field's own type and range.
            const sameType =
              typeof wrong === typeof before || (before === null && typeof wrong === 'string');
            expect(sameType, `${key}: ${JSON.stringify(wrong)} accepted`).toBe(true);
            expect(decoded.value).toEqual(copy);
          } else {
            expect(decoded.error).toMatch(/^the request/);
          }
        },
      ),
      {numRuns: runs.broken},
    );
    const request = fc.sample(requestArb, 1)[0]!;
    expectRejected(
      stored({...request, text: 'x'.repeat(MAX_TEXT_BYTES + 1)}),
      /too long|too large/,
    );
    expectRejected(' '.repeat(MAX_TEXT_BYTES * 7 + 1), /too large/);
    expectRejected(stored({...request, text: 'a\0b'}), /NUL/);
    expectRejected(stored({...request, text: 'a\uD800b'}), /Unicode/);
    expectRejected(
      stored({...request, options: {...request.options, until: {kind: 'regex', pattern: '(('}}}),
      /regex/,
    );
    expectRejected(stored({...request, options: {...request.options, ignore: ['[']}}), /regex/);
    recordFigure({
      scenario: 'request codec properties (fast-check)',
      jobs: 0,
      accounted: 0,
      cases: runs.round + runs.garbage + runs.json + runs.truncated + runs.broken + 100 + 6,
    });
  });
});

describe.each(TRANSPORTS)('typing fidelity for random Unicode (%s transport)', (transport) => {
  it('types random strings byte for byte', async () => {
    const {server, rec, home} = await recorderWorld();
    let offset = 0;
    let runs = 0;
    const textArb = fc
      .oneof(
        fc.string({unit: 'grapheme', minLength: 1, maxLength: 20}),
        fc.string({unit: 'binary', minLength: 1, maxLength: 40}),
      )
      .filter((t) => noNul(t) && t.trim() !== '');
    await fc.assert(
      fc.asyncProperty(textArb, fc.constantFrom('0', '1ms'), async (text, typeDelay) => {
        runs++;
        ({end: offset} = await roundTrip({
          home,
          socket: server.socket,
          rec,
          transport,
          text,
          typeDelay,
          from: offset,
        }));
      }),
      {numRuns: 12, endOnFailure: true},
    );
    await waitForLocksFree(home);
    recordFigure({
      scenario: 'random Unicode typed byte for byte (fast-check)',
      transport,
      jobs: runs,
      accounted: runs,
      bytesVerified: offset,
    });
  });
});
