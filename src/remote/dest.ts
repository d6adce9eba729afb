import {NudgeError} from '../base/errors.js';

/** The name of this machine where a host is named (`local:%3`, the HOST column of jobs). */
export const LOCAL_HOST = 'local';

// What ssh takes as a destination: an alias of ~/.ssh/config, host, user@host, [v6]:port,
// ssh://user@host:port. Never a leading "-" (ssh would read it as an option).
const DEST = /^[A-Za-z0-9_.@[\]:%+/=~-]{1,255}$/;

/** A destination as `ssh` takes it, checked: bad input is one sentence (exit 2). `local` (or
 * nothing) is this machine: undefined. */
export function checkHost(dest: string | undefined, from = '--host'): string | undefined {
  if (dest === undefined || dest === '' || dest === LOCAL_HOST) return undefined;
  if (dest.startsWith('-') || !DEST.test(dest)) {
    throw new NudgeError(
      'bad-host',
      `${from} ${JSON.stringify(dest)} is not a destination ssh takes: give an alias from ~/.ssh/config or user@host (letters, digits and . _ - @ : only, not starting with "-").`,
    );
  }
  return dest;
}

/** The host a command runs on: `--host` (or the MCP tool's `host`), else `$NUDGE_HOST`;
 * undefined for this machine. */
export function hostOf(
  given: string | undefined,
  env: {NUDGE_HOST?: string | undefined},
): string | undefined {
  if (given !== undefined) return checkHost(given);
  return checkHost(env.NUDGE_HOST, 'NUDGE_HOST');
}

/** `HOST:%N` → the host and the pane; anything else is a pane of no named host. */
export function splitHostPane(value: string): {host?: string; pane: string} {
  const m = /^(.+):(%\d+)$/.exec(value);
  if (!m?.[1] || !m[2]) return {pane: value};
  return m[1] === LOCAL_HOST ? {host: LOCAL_HOST, pane: m[2]} : {host: m[1], pane: m[2]};
}

/** `HOST:JOB` (as `nudge jobs` prints a remote job) → the host and the job id. */
export function splitHostJob(value: string): {host?: string; job: string} {
  const m = /^(.+):([0-9a-z]{8,12}-[0-9a-z]{4})$/.exec(value);
  if (!m?.[1] || !m[2]) return {job: value};
  return {host: m[1], job: m[2]};
}
