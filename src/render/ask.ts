import {formatDuration} from '../base/durations.js';
import {EXIT_CODES} from '../base/errors.js';
import type {AskResult} from '../verbs/ask.js';
import {exitCodeOfJob, type Output} from './render.js';

/** `nudge ask`'s answer as JSON: the job, the turn's ending, and the reply with its record,
 * timing and tokens (or why there is none). */
export function askJson(r: AskResult): Record<string, unknown> {
  const {reply, outcome} = r;
  return {
    job: r.job,
    pane: r.pane,
    agent: r.agent,
    ...(r.sentBefore === undefined ? {} : {sentBefore: r.sentBefore}),
    ...outcome,
    ...(reply
      ? {
          reply: reply.text,
          record: reply.record,
          turn: {
            prompt_at: reply.promptAtMs && new Date(reply.promptAtMs).toISOString(),
            reply_at: reply.replyAtMs && new Date(reply.replyAtMs).toISOString(),
            duration_ms: reply.durationMs,
          },
          ...(reply.tokens ? {tokens: reply.tokens} : {}),
        }
      : {}),
    ...(r.why ? {why: r.why} : {}),
  };
}

/**
 * The reply alone on stdout (a script reads it; terminal controls are left out, as from
 * every line nudge prints — `--json` has it byte for byte); a turn that did not end done, or
 * ended without a reply nudge could read, is one sentence on stderr and its exit code: 3
 * blocked, 124 timeout, 1 otherwise.
 */
export function renderAsk(r: AskResult, json: boolean, out: Output): number {
  const code =
    r.reply || r.outcome.state !== 'done' ? exitCodeOfJob(r.outcome) : EXIT_CODES.failure;
  if (r.sentBefore !== undefined)
    out.stderr(
      `nudge ask: ${r.sentBefore} was asked before as job ${r.job}; its answer, nothing typed again.`,
    );
  if (json) {
    out.stdout(JSON.stringify(askJson(r)));
    return code;
  }
  if (r.reply) {
    out.stdout(r.reply.text);
    return code;
  }
  const o = r.outcome;
  const waited = o.waitedMs !== undefined ? ` after ${formatDuration(o.waitedMs)}` : '';
  const why =
    o.state === 'done'
      ? `its turn ended, but ${r.why ?? 'no reply was found'}`
      : (o.blocked?.question ?? o.reason ?? o.verdict ?? '');
  const said = why ? `: ${why}` : '';
  out.stderr(
    `nudge ask: job ${r.job} in ${r.pane} ${o.state}${waited}${said}${/[.?!]$/.test(said) ? '' : '.'}`,
  );
  return code;
}
