import {type ConfigEnv, configTable} from '../base/config.js';
import {formatDuration, parseDuration, parseInteger} from '../base/durations.js';
import {NudgeError} from '../base/errors.js';
import type {OptionTable} from '../base/option-table.js';
import type {OnStall, StallPolicy} from './stall.js';

/** The line `--on-stall continue` types unless told otherwise. */
export const DEFAULT_CONTINUE_TEXT = 'Continue.';
/** How many times `continue` types it unless told (`continue:N`). */
export const DEFAULT_CONTINUES = 3;
/** The shortest stall nudge watches for: shorter is a pause between two tool calls. */
const MIN_STALL_MS = 2_000;

/** The stall watchdog's options, the same on `submit`, `run` and `watch start` (and their MCP
 * tools): one declaration. */
export const STALL_OPTIONS = {
  stall: {
    mcp: {
      duration: true,
      describe: 'no change on the screen for this long while not done is a stall (off if unset)',
    },
    type: 'string',
    describe:
      "no change on the pane's screen (its spinner left out), no hook mark and no dialog for this long while the work is not done: a `stalled` event, told once per stall (default: config.toml's stall, else off)",
  },
  'on-stall': {
    mcp: {describe: 'notify (default), continue[:N] or cancel'},
    type: 'string',
    describe: `on a stall: notify (default), continue[:N] (type --continue-text at an idle prompt, at most N times, default ${DEFAULT_CONTINUES}; then notify), or cancel (end as a timeout does)`,
  },
  'continue-text': {
    mcp: {
      describe: `the line continue types (default ${DEFAULT_CONTINUE_TEXT})`,
    },
    type: 'string',
    describe: `the line --on-stall continue types (default ${DEFAULT_CONTINUE_TEXT})`,
  },
} as const satisfies OptionTable;

/** What the three options gave (any of them absent). */
export interface StallGiven {
  stall?: string | number | undefined;
  onStall?: string | undefined;
  continueText?: string | undefined;
}

/**
 * The watchdog's policy from the options, else the config file's table `section` (`[submit]`,
 * `[run]`, `[watch]`: `stall`, `on-stall`, `continue-text`); null when off. Throws NudgeError
 * (exit 2) with one sentence naming the option or the file's key.
 */
export function resolveStall(
  given: StallGiven,
  env: ConfigEnv,
  section: 'submit' | 'run' | 'watch',
  o: {intervalMs: number; continues: boolean},
): StallPolicy | null {
  const found = configTable(env, section);
  const from = (key: string, flag: string, value: unknown) =>
    value !== undefined
      ? {value, where: flag}
      : found?.table[key] !== undefined
        ? {value: found.table[key], where: `${found.file}: ${section}.${key}`}
        : undefined;
  const stall = from('stall', '--stall', given.stall);
  const onStall = from('on-stall', '--on-stall', given.onStall);
  const text = from('continue-text', '--continue-text', given.continueText);
  const off =
    stall === undefined || stall.value === 'off' || stall.value === '0' || stall.value === 0;
  if (off) {
    if (given.onStall !== undefined || given.continueText !== undefined)
      throw new NudgeError(
        'bad-usage',
        `${given.onStall !== undefined ? '--on-stall' : '--continue-text'} needs --stall DURATION (how long without a change is a stall).`,
      );
    return null;
  }
  const stallMs = parseDuration(stall.value, stall.where);
  const least = Math.max(MIN_STALL_MS, 2 * o.intervalMs);
  if (stallMs < least)
    throw new NudgeError(
      'bad-duration',
      `${stall.where} must be at least ${formatDuration(least)} (two looks at the pane), got ${JSON.stringify(stall.value)}.`,
    );
  return {
    stallMs,
    onStall: parseOnStall(String(onStall?.value ?? 'notify'), onStall?.where ?? '--on-stall', o),
    continueText: parseContinueText(String(text?.value ?? DEFAULT_CONTINUE_TEXT), text?.where),
  };
}

/** Check `--on-stall`; throws NudgeError (exit 2). A watcher takes no `continue` (its
 * assessor decides what is typed at idle: `--max-injections` bounds it). */
export function parseOnStall(value: string, where: string, o: {continues: boolean}): OnStall {
  if (value === 'notify' || value === 'cancel') return {kind: value};
  const m = /^continue(?::(\d+))?$/.exec(value);
  if (m && !o.continues)
    throw new NudgeError(
      'bad-usage',
      `${where}: a watcher's assessor decides what is typed at an idle prompt; use notify or cancel, and bound its lines with --max-injections.`,
    );
  if (m) return {kind: 'continue', max: parseInteger(m[1] ?? DEFAULT_CONTINUES, where, 1, 100)};
  throw new NudgeError(
    'bad-usage',
    `${where} must be notify, continue, continue:N or cancel, got ${JSON.stringify(value)}.`,
  );
}

/** Check the continue line: one line of text; throws NudgeError (exit 2). */
export function parseContinueText(value: string, where = '--continue-text'): string {
  if (value.trim() === '' || /[\n\r\0]/.test(value) || value.length > 500)
    throw new NudgeError(
      'bad-usage',
      `${where} must be one line of text (at most 500 characters), got ${JSON.stringify(value.slice(0, 60))}.`,
    );
  return value;
}

/** Check a stall policy read back from a request (the worker trusts nothing unchecked). */
export function isStallPolicy(value: unknown): value is StallPolicy {
  if (typeof value !== 'object' || value === null) return false;
  const v = value as Record<string, unknown>;
  const on = v.onStall as Record<string, unknown> | undefined;
  return (
    typeof v.stallMs === 'number' &&
    Number.isSafeInteger(v.stallMs) &&
    v.stallMs > 0 &&
    typeof v.continueText === 'string' &&
    v.continueText.trim() !== '' &&
    !/[\n\r\0]/.test(v.continueText) &&
    typeof on === 'object' &&
    on !== null &&
    (on.kind === 'notify' ||
      on.kind === 'cancel' ||
      (on.kind === 'continue' && Number.isSafeInteger(on.max) && (on.max as number) >= 1))
  );
}
