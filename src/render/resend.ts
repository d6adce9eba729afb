import {EXIT_CODES, type ExitCode} from '../base/errors.js';
import type {OnHost} from '../front/verbs.js';
import type {ResendResult} from '../verbs/resend.js';
import type {Output} from './render.js';

/** `nudge resend`: the new job, where it went, and the id it carries on. */
export function renderResend(r: OnHost<ResendResult>, json: boolean, out: Output): ExitCode {
  if (json) {
    out.stdout(JSON.stringify(r));
    return EXIT_CODES.ok;
  }
  const id = r.id ? `, message id ${r.id}` : '';
  out.stdout(
    `Resent job ${r.job} as job ${r.resentAs} to ${r.pane}${id} (it was ${r.was.replace(/\.$/, '')}).`,
  );
  return EXIT_CODES.ok;
}
