import {readFile} from 'node:fs/promises';
import {join} from 'node:path';
import {writeFileAtomic} from '../base/fs.js';
import type {JobHandle} from '../jobs/store.js';

/**
 * Where each caller of a shared waiter stood: the few variables that differ between callers
 * who otherwise run alike, carried in each job's inbox entry and kept in its folder for a
 * takeover.
 */

/** What differs between callers who otherwise run alike: where in tmux and in the file system
 * each stood. Every other variable of the worker's environment must be equal for two jobs to
 * share a waiter (each job's own values of these are put back into its environment). */
export const PER_CALLER = ['TMUX_PANE', 'PWD', 'OLDPWD', 'SHLVL', '_'] as const;

/** Where the waiter keeps a job's caller's PER_CALLER values, for a takeover
 * (src/waiter/waiter-takeover.ts). */
const CALLER_FILE = 'caller.json';

/** The PER_CALLER values the waiter kept for a job it took (none: its own environment's). */
export async function callerOf(handle: JobHandle): Promise<Record<string, string>> {
  try {
    return onlyPerCaller(JSON.parse(await readFile(join(handle.dir, CALLER_FILE), 'utf8')));
  } catch {
    return {};
  }
}

/** The PER_CALLER strings of `value` (an entry's or a kept file's), nothing else. */
export function onlyPerCaller(value: unknown): Record<string, string> {
  const vars: Record<string, string> = {};
  if (typeof value !== 'object' || value === null) return vars;
  for (const k of PER_CALLER) {
    const v = (value as Record<string, unknown>)[k];
    if (typeof v === 'string') vars[k] = v;
  }
  return vars;
}

/** The caller's PER_CALLER values, for its entry. */
export function perCaller(env: Record<string, string | undefined>): Record<string, string> {
  const vars: Record<string, string> = {};
  for (const k of PER_CALLER) {
    const v = env[k];
    if (v !== undefined) vars[k] = v;
  }
  return vars;
}

/** Keep a job's caller's PER_CALLER values in its folder, as the waiter takes it. */
export async function keepCaller(handle: JobHandle, vars: Record<string, string>): Promise<void> {
  await writeFileAtomic(join(handle.dir, CALLER_FILE), JSON.stringify(vars), {durable: false});
}
