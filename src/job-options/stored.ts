import type * as Zod from 'zod';
import {VIAS, type Via} from '../agents/doors.js';
import type {ProfileName} from '../agents/profile.js';
import {parseDuration, parseInteger} from '../base/durations.js';
import {NudgeError} from '../base/errors.js';
import {camelOf, type OptionTable} from '../base/option-table.js';
import {linearPattern} from '../base/pattern.js';
import {isObject} from '../base/shape.js';
import {compileRegex, type UntilSpec} from '../detect/until.js';
import {resolveSinks} from '../notify/config.js';
import {
  configuredVia,
  givenIfBusy,
  IF_BUSY,
  parseResumeText,
  parseVia,
  resolveIfBusy,
} from './policies.js';
import {MAX_NOTICE_LENGTH, validateNoticeTemplate} from './template.js';

/**
 * The parts the rows of a job's option table (table.ts) are made of: the type request.json
 * stores a field as (zod: its type and its check in one, for the worker trusts nothing it did
 * not check) and how the value given to the flag, or its default, becomes it. A stored type
 * is written as a function of zod, made when a request is checked (src/job-options/schema.ts):
 * `nudge submit`, which only reads the values given, never loads zod (~20 ms of its start).
 */

/** zod's builder, as the schemas are made with it. */
export type Z = typeof Zod.z;

/** A duration in milliseconds, as stored. */
const duration = (z: Z) => z.int().min(0).describe('a duration');
const count = (z: Z) => z.int().min(1).describe('a positive whole number');
const flag = (z: Z) => z.boolean().describe('a boolean');

/** What a row's reader sees besides its own value: the flag's name for messages, the
 * environment config.toml is read from, and the few flags that decide another's meaning. */
export interface Reading {
  flag: string;
  env: Readonly<Record<string, string | undefined>>;
  given: {
    readonly notice?: string | boolean | undefined;
    readonly ifBusy?: string | undefined;
    readonly whenIdle?: boolean | undefined;
    readonly via?: Via | undefined;
  };
}

/** A row's part in a job: the fields it stores and how its value becomes them. */
export interface Stores<S extends Zod.ZodRawShape = Zod.ZodRawShape> {
  stored: (z: Z) => S;
  read: (value: never, at: Reading) => Zod.infer<Zod.ZodObject<S>>;
}

/** A row storing `stored`, read by `read` (the given value, else the row's default). */
export function stores<const S extends Zod.ZodRawShape, V>(
  stored: (z: Z) => S,
  read: (value: V, at: Reading) => Zod.infer<Zod.ZodObject<S>>,
): Stores<S> {
  return {stored, read: read as Stores<S>['read']};
}

/** A row storing one field: its stored type, and how the value given becomes it. */
export function oneField<const F extends string, T extends Zod.ZodType, V>(
  field: F,
  type: (z: Z) => T,
  read: (value: V, at: Reading) => Zod.output<T>,
) {
  return stores(
    (z) => ({[field]: type(z)}) as Record<F, T>,
    (v: V, at) => ({[field]: read(v, at)}) as Zod.infer<Zod.ZodObject<Record<F, T>>>,
  );
}

/** A duration stored in milliseconds, at least `min` (`--interval` 10ms; `--timeout` 1ms). */
export function msField<const F extends string>(field: F, min = 0) {
  return oneField(field, duration, (v: string | number, at) => {
    const ms = parseDuration(v, at.flag);
    if (ms < min)
      throw new NudgeError(
        'bad-duration',
        min === 1
          ? `${at.flag} must be more than 0, got ${JSON.stringify(v)}.`
          : `${at.flag} must be at least ${min}ms, got ${JSON.stringify(v)}.`,
      );
    return ms;
  });
}

/** A whole number from 1 to `max`, given as digits. */
export function countField<const F extends string>(field: F, max: number) {
  return oneField(field, count, (v: string | number, at) => parseInteger(v, at.flag, 1, max));
}

/** A boolean, as given. */
export function flagField<const F extends string>(field: F) {
  return oneField(field, flag, (v: boolean) => v);
}

/** Whether `pattern` is a regex the watchers can compile (RE2, no flags, as compileRegex). */
export function compiles(pattern: string): boolean {
  try {
    linearPattern(pattern);
    return true;
  } catch {
    return false;
  }
}

/** What is wrong with a stored "done" condition, if anything (as a sentence's end). */
export function untilWrong(until: unknown): string | undefined {
  if (!isObject(until) || !['stable', 'exit', 'regex', 'prompt'].includes(String(until.kind)))
    return ' until is not a condition';
  for (const key of ['pattern', 'profile'] as const) {
    const v = until[key];
    if (v !== undefined && typeof v !== 'string') return ` until.${key} is not a string`;
    if (key === 'pattern' && typeof v === 'string' && !compiles(v))
      return ' until.pattern is not a valid regex';
  }
  if (until.kind === 'regex' && typeof until.pattern !== 'string')
    return ' until is regex without a pattern';
  return undefined;
}

/** A stored "done" condition. */
export const UNTIL = (z: Z) =>
  z.custom<UntilSpec>((v) => untilWrong(v) === undefined).describe('a condition');

/** `--ignore`: regexes (their sources) masked before screens are compared. */
export const IGNORE = stores(
  (z) => ({ignore: z.array(z.string().refine(compiles)).describe('a list of valid regexes')}),
  (v: readonly string[] | undefined) => {
    const ignore = [...(v ?? [])];
    for (const i of ignore) compileRegex(i, '--ignore');
    return {ignore};
  },
);

/** `--notice`: whether a notice is typed at the end (`--no-notice`: none) and its template
 * (null: the default wording). */
export const NOTICE = stores(
  (z) => ({
    notify: flag(z),
    noticeTemplate: z
      .string()
      .max(MAX_NOTICE_LENGTH)
      .regex(/^[^\0\r\n]*$/)
      .nullable()
      .describe('a one-line template or null'),
  }),
  (v: string | false | undefined) => {
    if (typeof v === 'string') validateNoticeTemplate(v);
    return {notify: v !== false, noticeTemplate: typeof v === 'string' ? v : null};
  },
);

/** `--via`: how the notice goes — the agent's doors, then typing (`auto`), typing only
 * (`keys`), a door only (`native`); else config.toml's `[submit] via`. Requests made before
 * it existed are `auto`. */
export const VIA = stores(
  (z) => ({via: z.enum(VIAS).optional().describe('auto, keys or native')}),
  (v: string | undefined, at) => ({
    via:
      v !== undefined
        ? parseVia(v)
        : at.given.notice !== false
          ? (configuredVia(at.env) ?? 'auto')
          : 'auto',
  }),
);

/** `--if-busy` (`--when-idle` is `wait`), else config.toml's `[submit] if-busy`, else
 * `queue`: stored as given; `ifBusyMeans` decides what it means. */
export const IF_BUSY_FIELD = stores(
  (z) => ({ifBusy: z.enum(IF_BUSY).describe('queue, wait, refuse, now or type-ahead')}),
  (_v: string | undefined, at) => ({ifBusy: resolveIfBusy(givenIfBusy(at.given), at.env)}),
);

/** `--notify`: where a person is told of the job's changes (`desktop`, `ntfy:URL`, …), else
 * the config file's sinks. */
export const SINKS = stores(
  (z) => ({notifySinks: z.array(z.string()).describe('a list of sinks')}),
  (v: readonly string[] | undefined, at) => ({notifySinks: resolveSinks(v, at.env)}),
);

/** `--resume-text`: what is typed once a usage limit has reset. */
export const RESUME_TEXT = stores(
  (z) => ({
    resumeText: z
      .string()
      .refine((t) => t.trim() !== '')
      .describe('a line of text'),
  }),
  (v: string) => ({resumeText: parseResumeText(v)}),
);

/** Check `--profile`'s form; throws NudgeError (exit 2). Whether a profile has that name is
 * known once the profiles are read (src/agents/registry.ts, chooseProfile): `nudge submit`
 * reads them only when it needs them. */
export function parseProfile(value: string): ProfileName | 'auto' {
  if (value === 'auto' || PROFILE_NAME.test(value)) return value;
  throw new NudgeError(
    'bad-profile',
    `--profile must be auto or a profile's name ("nudge agents list" lists them); got ${JSON.stringify(value)}.`,
  );
}

/** The form of a profile's name (src/agents/schema.ts checks the same). */
const PROFILE_NAME = /^[a-z][a-z0-9-]*$/;

type Intersection<U> = (U extends unknown ? (x: U) => void : never) extends (x: infer I) => void
  ? I
  : never;

/** The fields a table's rows store, each storing row's shape joined. */
export type RowFields<T extends OptionTable> = Intersection<
  {[K in keyof T]: T[K] extends {job: Stores<infer S>} ? S : never}[keyof T]
>;

/** The values a stored shape holds. */
type ValuesOf<S> = {[K in keyof S]: S[K] extends Zod.ZodType ? Zod.output<S[K]> : never};

/** The rows of `table` that store something, with their flags. */
function storingRows(table: OptionTable) {
  return Object.entries(table).flatMap(([name, spec]) =>
    spec.job ? [{name, fallback: spec.default, job: spec.job as Stores}] : [],
  );
}

/** The stored shape of what `table`'s rows store: each row's fields and their checks, made
 * with `z`. */
export function storedShape<T extends OptionTable>(table: T, z: Z): RowFields<T> {
  return Object.assign({}, ...storingRows(table).map((r) => r.job.stored(z)));
}

/** What `table`'s rows store, read from the options `given` (each under its camelCase name),
 * a row's default where it is not given. Throws NudgeError (exit 2) naming the flag. */
export function readRows<T extends OptionTable>(
  table: T,
  given: Reading['given'],
  env: Reading['env'],
): ValuesOf<RowFields<T>> {
  const out: Record<string, unknown> = {};
  for (const {name, fallback, job} of storingRows(table)) {
    const value = (given as Record<string, unknown>)[camelOf(name)] ?? fallback;
    Object.assign(out, job.read(value as never, {flag: `--${name}`, env, given}));
  }
  return out as never;
}
