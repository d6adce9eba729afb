import {NudgeError} from './errors.js';

const UNIT_MS: Record<string, number> = {
  ms: 1,
  s: 1000,
  m: 60_000,
  h: 3_600_000,
  d: 86_400_000,
};

/** The longest duration any option accepts (a week): anything longer is a typo. */
export const MAX_DURATION_MS = 7 * 24 * 3_600_000;

/**
 * Parse `250ms`, `3s`, `1.5s`, `5m` or `1h` into milliseconds. A bare number of text has no
 * unit and is refused (`--timeout 10` read as 10 ms timed out at once), except 0 (no unit
 * needed) and where the option's name says milliseconds (`--timeout-ms`, `timeout_ms`); a
 * number (an MCP tool's argument, documented as milliseconds) is milliseconds. `option`
 * names the flag in the error message, e.g. `--timeout`.
 */
export function parseDuration(value: unknown, option: string, maxMs = MAX_DURATION_MS): number {
  if (value === '' || value === true)
    throw new NudgeError('bad-duration', `${option} needs a value, e.g. ${option} 10m.`);
  const text = typeof value === 'number' ? String(value) : typeof value === 'string' ? value : '';
  const match = /^\s*(\d+(?:\.\d+)?)\s*(ms|s|m|h|d)?\s*$/.exec(text);
  const amount = match ? Number(match[1]) : Number.NaN;
  if (
    match &&
    match[2] === undefined &&
    amount !== 0 &&
    typeof value !== 'number' &&
    !/[-_]ms$/.test(option)
  ) {
    throw new NudgeError(
      'bad-duration',
      `${option} ${match[1]} has no unit; say ${option} ${match[1]}s (or ${match[1]}m, ${match[1]}ms).`,
    );
  }
  const ms = Math.round(amount * (UNIT_MS[match?.[2] ?? 'ms'] ?? 1));
  if (!match || !Number.isFinite(ms)) {
    throw new NudgeError(
      'bad-duration',
      `${option} expects a duration such as 250ms, 3s, 5m or 1h, got ${JSON.stringify(value)}.`,
    );
  }
  if (ms > maxMs) {
    throw new NudgeError(
      'bad-duration',
      `${option} is ${JSON.stringify(value)}, longer than the ${Math.round(maxMs / 86_400_000)}-day maximum; use a shorter duration.`,
    );
  }
  return ms;
}

/** The longest a history duration may be (`jobs --since`, `jobs prune --older-than`, the
 * `[jobs] keep` setting): ten years. */
export const HISTORY_MAX_MS = 3650 * 86_400_000;

/** Parse a whole number within [min, max] for `option`. */
export function parseInteger(value: unknown, option: string, min: number, max: number): number {
  const text = typeof value === 'number' ? String(value) : typeof value === 'string' ? value : '';
  const n = /^\s*\d+\s*$/.test(text) ? Number(text) : Number.NaN;
  if (!Number.isSafeInteger(n) || n < min || n > max) {
    throw new NudgeError(
      'bad-number',
      `${option} expects a whole number from ${min} to ${max}, got ${JSON.stringify(value)}.`,
    );
  }
  return n;
}

/** Render milliseconds for people: `850ms`, `12.3s`, `4m05s`, `1h02m`. */
export function formatDuration(ms: number): string {
  if (ms < 1000) return `${Math.round(ms)}ms`;
  if (ms < 60_000) return `${(ms / 1000).toFixed(1)}s`;
  const totalSeconds = Math.round(ms / 1000);
  if (totalSeconds < 3600) {
    const m = Math.floor(totalSeconds / 60);
    return `${m}m${String(totalSeconds % 60).padStart(2, '0')}s`;
  }
  const h = Math.floor(totalSeconds / 3600);
  return `${h}h${String(Math.floor((totalSeconds % 3600) / 60)).padStart(2, '0')}m`;
}
