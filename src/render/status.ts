import {formatDuration} from '../base/durations.js';
import {EXIT_CODES, type ExitCode} from '../base/errors.js';
import type {OnHost} from '../front/dispatch.js';
import {describeReceipt} from '../jobs/receipts.js';
import {describeStalled, stateWords} from '../jobs/stalled.js';
import type {RelayRecord} from '../relay/record.js';
import type {JobStatus} from '../verbs/jobs.js';
import type {Output} from './render.js';
import {wrapped} from './wrap.js';

/** `nudge status`: one job, each fact on a line of its own within the width, then its events. */

/** How a job's notice went (sent, by which door, held, relayed), as `status` shows it. */
export function statusNotice(
  s: JobStatus & {relay?: RelayRecord},
  line: (text: string) => void,
): void {
  const submit = s.kind === 'submit' ? s : undefined;
  if (s.notified !== undefined) {
    const how = [submit?.noticeDelivery, submit?.noticeVia && `via ${submit.noticeVia}`]
      .filter(Boolean)
      .join(', ');
    line(`notice  ${s.notified ? `sent${how ? ` (${how})` : ''}` : 'not sent'}`);
  }
  for (const door of submit?.noticeDoors ?? []) line(`door    ${door}`);
  if (submit?.noticeHeld !== undefined) line(`held    ${submit.noticeHeld}`);
  if (submit?.noticeDue) line(`relay   the notice is for ${submit.noticeDue.to}`);
  if (s.relay) {
    const r = s.relay;
    const how = r.delivery ? ` (typed by job ${r.delivery})` : r.error ? `: ${r.error}` : '';
    line(`relayed ${r.state}${how}`);
  }
}

/** A job's events, each at its time since the job was made, wrapped within the width. */
export function statusEvents(s: JobStatus, out: Output): void {
  out.stdout('events');
  const start = Date.parse(s.createdAt);
  for (const e of s.events) {
    const {t, event, ...rest} = e;
    delete rest.state;
    // Spaced ({ "a": 1, "b": 2 }) so a long one wraps between its fields.
    const extra = Object.keys(rest).length
      ? ` ${JSON.stringify(rest, null, 1).replace(/\n\s*/g, ' ')}`
      : '';
    const at = `  +${formatDuration(Date.parse(t) - start).padEnd(7)} `;
    for (const l of wrapped(`${event}${extra}`, out.width, at.length, at)) out.stdout(l);
  }
}

export function renderStatus(
  s: OnHost<JobStatus> & {relay?: RelayRecord},
  json: boolean,
  out: Output,
): ExitCode {
  if (json) {
    out.stdout(JSON.stringify(s));
    return EXIT_CODES.ok;
  }
  // Each line within the width, what follows its label wrapped under the label's column.
  const line = (text: string) => {
    for (const l of wrapped(text, out.width, 8)) out.stdout(l);
  };
  const lostNote =
    s.state === 'lost' && s.recordedState !== 'lost'
      ? ` (its process ${s.pid ?? '?'} is gone; it never finished)`
      : '';
  line(`job     ${s.id}`);
  if (s.host) line(`host    ${s.host}`);
  const [kind, next] = (s.unrecorded ?? '').split(' ');
  const unrecorded = s.unrecorded
    ? ` (${kind === 'ending' ? `ended ${next}` : `${next} next`}, not yet recorded: the state folder is full)`
    : '';
  const left =
    s.kind === 'submit' && s.state === 'typing' && s.typingLeftMs !== undefined
      ? `, about ${formatDuration(s.typingLeftMs)} left`
      : '';
  line(`state   ${stateWords(s)}${left}${lostNote}${unrecorded}`);
  if (s.kind === 'submit' && s.receipt) line(`receipt ${describeReceipt(s.receipt)}`);
  if (s.kind === 'submit' && s.resentAs) line(`resent  as job ${s.resentAs} (nudge resend)`);
  if (s.kind === 'submit' && s.resentFrom) line(`resends job ${s.resentFrom}`);
  if (s.reason) line(`reason  ${s.reason}`);
  if (s.recoveredAs) line(`recovered as job ${s.recoveredAs} (nudge recover)`);
  if (s.stalled)
    line(`stall   ${describeStalled(s.stalled, Date.now())}, since ${s.stalled.since}`);
  if ('waitingForYou' in s && s.waitingForYou) line(`waits   for you: ${s.waitingForYou}`);
  if (s.working) line(`waits   ${s.working}`);
  if (s.kind === 'submit' && s.settledBy) line(`settled by the agent's ${s.settledBy}`);
  if (s.blocked) {
    const b = s.blocked;
    line(`waits   for a person in ${b.pane}: ${b.kind} — ${b.question}`);
    if (b.resets) line(`resets  ${b.resets}${b.resetsAt ? ` (${b.resetsAt})` : ''}`);
  }
  line(
    `pane    ${s.pane}${s.paneTarget !== s.pane ? ` (${s.paneTarget})` : ''} on ${s.socketPath}`,
  );
  line(`${s.kind === 'run' ? 'run ' : 'text'}    ${s.preview}`);
  const submit = s.kind === 'submit' ? s : undefined;
  if (s.kind === 'run' && s.report) line(`report  ${s.report.path}`);
  if (submit?.profile)
    line(`profile ${submit.profile}${submit.profileReason ? ` (${submit.profileReason})` : ''}`);
  if (s.transport) line(`via     ${s.transport}`);
  if (submit?.delivery) line(`delivery ${submit.delivery}`);
  const unconfirmed = [submit?.delivery, submit?.noticeDelivery].some(
    (d) => d === 'unconfirmed' || d === 'not-submitted',
  );
  // What nudge saw in the pane, rule by rule: what to paste into a bug report.
  if (unconfirmed) line(`explain nudge explain -S ${s.socketPath} ${s.pane}`);
  if (s.waitedMs !== undefined) line(`waited  ${formatDuration(s.waitedMs)}`);
  if (s.exitCode !== undefined) line(`exit    ${s.exitCode}`);
  if (submit?.match !== undefined) line(`match   ${submit.match}`);
  if (submit?.verdict !== undefined) line(`verdict ${submit.verdict}`);
  statusNotice(s, line);
  line(`log     ${s.logPath}`);
  statusEvents(s, out);
  return EXIT_CODES.ok;
}
