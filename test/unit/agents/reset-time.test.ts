import {describe, expect, test} from 'vitest';
import {parseResetTime} from '../../../src/agents/reset-time.js';

// A time without a zone is the machine's: these expectations are in UTC.
process.env.TZ = 'UTC';

// 2026-11-25 20:15:00 UTC, a Wednesday.
const NOW = Date.UTC(2026, 10, 25, 20, 15);
const at = (iso: string) => Date.parse(iso);

describe('a usage limit’s reset time, as the screen says it', () => {
  test.each([
    // In the machine's zone (UTC here).
    ['10:15 PM', '2026-11-25T22:15:00Z'],
    ['9:46 PM.', '2026-11-25T21:46:00Z'],
    // 7pm passed an hour ago: that limit is over (today's, not tomorrow's).
    ['7pm', '2026-11-25T19:00:00Z'],
    ['8:00 am', '2026-11-26T08:00:00Z'],
    ['21:30', '2026-11-25T21:30:00Z'],
    ['20:15:42', '2026-11-25T20:15:42Z'],
    ['8:15:42 PM', '2026-11-25T20:15:42Z'],
    ['Nov 28th, 2026 8:29 PM', '2026-11-28T20:29:00Z'],
    ['Nov 28 at 9am', '2026-11-28T09:00:00Z'],
    ['Jan 2, 3:05 PM', '2027-01-02T15:05:00Z'],
    // A zone in parentheses, as Claude Code prints it.
    ['7pm (Europe/Berlin)', '2026-11-25T18:00:00Z'],
    ['11pm (Europe/Berlin)', '2026-11-25T22:00:00Z'],
    ['9:30 AM (America/New_York)', '2026-11-25T14:30:00Z'],
    ['2:00 AM (America/New_York)', '2026-11-26T07:00:00Z'],
    ['Jul 4, 9am (America/New_York)', '2027-07-04T13:00:00Z'],
  ])('%s', (words, iso) => {
    expect(new Date(parseResetTime(words, NOW) ?? 0).toISOString()).toBe(
      new Date(at(iso)).toISOString(),
    );
  });

  test.each([
    ['in 2h 13m', 2 * 3_600_000 + 13 * 60_000],
    ['in 45 minutes', 45 * 60_000],
    ['in 1 day 2 hours', 26 * 3_600_000],
  ])('%s', (words, ms) => {
    expect(parseResetTime(words, NOW)).toBe(NOW + ms);
  });

  test.each(['soon', 'tomorrow', '25pm', 'Foo 3, 9am', '7pm (Mars/Olympus)', ''])(
    '%s: not a time nudge reads',
    (words) => {
      expect(parseResetTime(words, NOW)).toBeUndefined();
    },
  );
});
