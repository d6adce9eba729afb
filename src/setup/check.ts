/** One line of `nudge doctor`: what was checked, how it stands, and the fix. */
export type CheckStatus = 'ok' | 'warn' | 'fail';

export interface Check {
  name: string;
  status: CheckStatus;
  /** What was found, one sentence. */
  detail: string;
  /** What to do about it (warn and fail), one sentence. */
  fix?: string;
}

export const ok = (name: string, detail: string): Check => ({name, status: 'ok', detail});
export const warn = (name: string, detail: string, fix: string): Check => ({
  name,
  status: 'warn',
  detail,
  fix,
});
export const fail = (name: string, detail: string, fix: string): Check => ({
  name,
  status: 'fail',
  detail,
  fix,
});
