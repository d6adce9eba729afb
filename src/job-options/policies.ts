import {VIAS, type Via} from '../agents/doors.js';
import {type ConfigEnv, configTable} from '../base/config.js';
import {NudgeError} from '../base/errors.js';

/**
 * The policies of a job, one function each that decides: what a submit does when its pane is
 * busy (`--if-busy`, else config.toml's `[submit] if-busy`), how its notice goes (`--via`,
 * else `[submit] via`), and what a usage limit does (`--on-limit`, `--resume-text`). A value
 * that is not one of the policy's is one sentence, exit 2.
 */

/** What a submit does when its pane is busy. */
export const IF_BUSY = ['queue', 'wait', 'refuse', 'now', 'type-ahead'] as const;
export type IfBusy = (typeof IF_BUSY)[number];

/** What a job's stored busy policy means for its worker: the one place that decides. */
export function ifBusyMeans(ifBusy: IfBusy): {
  /** Handed to the agent's door at once: no lock, no keys, no wait. */
  door: boolean;
  /** Types only once the pane is idle (per its profile). */
  waitsForIdle: boolean;
  /** Types at once into a program a shell pane runs in its foreground. */
  typesAhead: boolean;
} {
  return {
    door: ifBusy === 'now',
    waitsForIdle: ifBusy === 'wait',
    typesAhead: ifBusy === 'type-ahead',
  };
}

/** What a job or a watcher does at a usage limit: stop there, or wait for its reset. */
export const ON_LIMIT = ['stop', 'wait'] as const;
export type OnLimit = (typeof ON_LIMIT)[number];

/** Check `--on-limit`; throws NudgeError (exit 2). */
export function parseOnLimit(value: string): OnLimit {
  if ((ON_LIMIT as readonly string[]).includes(value)) return value as OnLimit;
  throw new NudgeError(
    'bad-usage',
    `--on-limit must be stop or wait, got ${JSON.stringify(value)}.`,
  );
}

/** Check `--if-busy` (or config.toml's `[submit] if-busy`); throws NudgeError (exit 2). */
export function parseIfBusy(value: string, where = '--if-busy'): IfBusy {
  if ((IF_BUSY as readonly string[]).includes(value)) return value as IfBusy;
  throw new NudgeError(
    'bad-usage',
    `${where} must be queue, wait, refuse, now or type-ahead, got ${JSON.stringify(value)}.`,
  );
}

/** The busy policy the flags give, if they give one: `--if-busy`, else `--when-idle` (which
 * is `--if-busy wait`). */
export function givenIfBusy(o: {
  ifBusy?: string | undefined;
  whenIdle?: boolean | undefined;
}): string | undefined {
  return o.ifBusy ?? (o.whenIdle ? 'wait' : undefined);
}

/** `--if-busy`, else `[submit] if-busy` in the person's config file, else `queue`. */
export function resolveIfBusy(given: string | undefined, env: ConfigEnv): IfBusy {
  if (given !== undefined) return parseIfBusy(given);
  const found = configTable(env, 'submit');
  const value = found?.table['if-busy'];
  if (found === undefined || value === undefined) return 'queue';
  return parseIfBusy(String(value), `${found.file}: submit.if-busy`);
}

/** Check `--via`; throws NudgeError (exit 2). */
export function parseVia(value: string, where = '--via'): Via {
  if ((VIAS as readonly string[]).includes(value)) return value as Via;
  throw new NudgeError(
    'bad-usage',
    `${where} must be auto, keys or native, got ${JSON.stringify(value)}.`,
  );
}

/** `[submit] via` in the person's config file, if set (checked: one sentence, exit 2). */
export function configuredVia(env: ConfigEnv): Via | undefined {
  const found = configTable(env, 'submit');
  const value = found?.table.via;
  if (found === undefined || value === undefined) return undefined;
  return parseVia(String(value), `${found.file}: submit.via`);
}

/** Check `--resume-text`: one line; throws NudgeError (exit 2). */
export function parseResumeText(value: string): string {
  if (value.trim() === '' || /[\n\r\0]/.test(value))
    throw new NudgeError(
      'bad-usage',
      `--resume-text must be one line of text, got ${JSON.stringify(value)}.`,
    );
  return value;
}
