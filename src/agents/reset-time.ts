/**
 * When a usage limit resets, read from the words an agent's screen shows it in: `10:15 PM`,
 * `7pm`, `19:30`, `19:30:05`, `Nov 28th, 2026 8:29 PM`, `Nov 28 at 9am`, `in 2h 13m`, `in 45 minutes`, each
 * optionally followed by an IANA time zone in parentheses (`7pm (Europe/Berlin)`). A time
 * without a zone is the machine's local time, as the agent printed it; a time of day without a
 * date is today's if it passed less than 12 hours ago (that limit is over), else its next
 * occurrence. Pure: `now` is passed in.
 */

const MONTHS = ['jan', 'feb', 'mar', 'apr', 'may', 'jun', 'jul', 'aug', 'sep', 'oct', 'nov', 'dec'];
const MINUTE_MS = 60_000;
const HOUR_MS = 60 * MINUTE_MS;
const DAY_MS = 24 * HOUR_MS;
/** How long ago a time of day without a date may be and still be today's. */
const PASSED_WINDOW_MS = 12 * HOUR_MS;

/** The reset time in ms since the epoch, or undefined when the words say no time nudge knows. */
export function parseResetTime(text: string, now: number): number | undefined {
  const t = text.trim().replace(/[.\s]+$/, '');
  const relative = /^in\s+(.+)$/i.exec(t);
  if (relative) return parseRelative(relative[1] ?? '', now);
  const zoneMatch = /\s*\(([A-Za-z_]+(?:\/[A-Za-z0-9_+-]+)+|UTC)\)\s*$/.exec(t);
  const zone = zoneMatch?.[1];
  if (zone !== undefined && !validZone(zone)) return undefined;
  const body = zoneMatch ? t.slice(0, zoneMatch.index) : t;
  const time =
    /(\d{1,2})(?::(\d{2}))?(?::(\d{2}))?\s*([ap])\.?m\.?$|(\d{1,2}):(\d{2})(?::(\d{2}))?$/i.exec(
      body,
    );
  if (!time) return undefined;
  let hour = Number(time[1] ?? time[5]);
  const minute = Number(time[2] ?? time[6] ?? 0);
  const second = Number(time[3] ?? time[7] ?? 0);
  const meridiem = time[4]?.toLowerCase();
  if (meridiem) {
    if (hour < 1 || hour > 12) return undefined;
    hour = (hour % 12) + (meridiem === 'p' ? 12 : 0);
  }
  if (hour > 23 || minute > 59 || second > 59) return undefined;
  const datePart = body
    .slice(0, time.index)
    .replace(/\s*(?:at|,)?\s*$/i, '')
    .trim();
  const today = partsIn(now, zone);
  if (datePart === '') {
    // A time of day that passed less than half a day ago is the one the screen meant (the
    // limit is over; its words stay until the next prompt); earlier ones are tomorrow's.
    const at = epochOf({...today, hour, minute}, zone) + second * 1000;
    return at > now - PASSED_WINDOW_MS
      ? at
      : epochOf({...partsIn(now + DAY_MS, zone), hour, minute}, zone) + second * 1000;
  }
  const date = /^([A-Za-z]{3})[a-z]*\.?\s+(\d{1,2})(?:st|nd|rd|th)?(?:,?\s+(\d{4}))?$/.exec(
    datePart,
  );
  if (!date) return undefined;
  const month = MONTHS.indexOf((date[1] ?? '').toLowerCase());
  const day = Number(date[2]);
  if (month < 0 || day < 1 || day > 31) return undefined;
  if (date[3] !== undefined)
    return epochOf({year: Number(date[3]), month, day, hour, minute}, zone);
  const thisYear = epochOf({year: today.year, month, day, hour, minute}, zone);
  return thisYear > now - DAY_MS
    ? thisYear
    : epochOf({year: today.year + 1, month, day, hour, minute}, zone);
}

/** `2h 13m`, `45 minutes`, `3 hours`, `1 day 2 hours`. */
function parseRelative(text: string, now: number): number | undefined {
  const unit: Record<string, number> = {d: DAY_MS, h: HOUR_MS, m: MINUTE_MS, s: 1000};
  let total = 0;
  let matched = '';
  for (const m of text.matchAll(
    /(\d+)\s*(d(?:ays?)?|h(?:(?:ou)?rs?)?|m(?:in(?:ute)?s?)?|s(?:ec(?:ond)?s?)?)\b/gi,
  )) {
    total += Number(m[1]) * (unit[(m[2] ?? '')[0]?.toLowerCase() ?? ''] ?? 0);
    matched += m[0];
  }
  return matched === '' ? undefined : now + total;
}

interface Parts {
  year: number;
  month: number;
  day: number;
  hour: number;
  minute: number;
}

function validZone(zone: string): boolean {
  try {
    new Intl.DateTimeFormat('en-US', {timeZone: zone});
    return true;
  } catch {
    return false;
  }
}

/** The calendar date and time of `at` in `zone` (default: the machine's). */
function partsIn(at: number, zone: string | undefined): Parts {
  if (zone === undefined) {
    const d = new Date(at);
    return {
      year: d.getFullYear(),
      month: d.getMonth(),
      day: d.getDate(),
      hour: d.getHours(),
      minute: d.getMinutes(),
    };
  }
  const get = (type: string, parts: Intl.DateTimeFormatPart[]) =>
    Number(parts.find((p) => p.type === type)?.value);
  const parts = new Intl.DateTimeFormat('en-US', {
    timeZone: zone,
    hourCycle: 'h23',
    year: 'numeric',
    month: 'numeric',
    day: 'numeric',
    hour: 'numeric',
    minute: 'numeric',
  }).formatToParts(new Date(at));
  return {
    year: get('year', parts),
    month: get('month', parts) - 1,
    day: get('day', parts),
    hour: get('hour', parts),
    minute: get('minute', parts),
  };
}

/** The instant a calendar date and time in `zone` names (default: the machine's zone). */
function epochOf(p: Parts, zone: string | undefined): number {
  if (zone === undefined) return new Date(p.year, p.month, p.day, p.hour, p.minute).getTime();
  const wall = Date.UTC(p.year, p.month, p.day, p.hour, p.minute);
  // The zone's offset at that wall time: twice, for a guess that crossed a DST change.
  let at = wall;
  for (let i = 0; i < 2; i++) {
    const q = partsIn(at, zone);
    at += wall - Date.UTC(q.year, q.month, q.day, q.hour, q.minute);
  }
  return at;
}
