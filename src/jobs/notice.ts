import type {Profile} from '../agents/profile.js';
import {formatDuration} from '../base/durations.js';
import {ownLineText} from '../base/sanitize.js';
import type {UntilSpec} from '../detect/until.js';
import {describeUntil} from '../detect/until.js';
import {type NoticeValues, PLACEHOLDER} from '../job-options/template.js';
import type {Foreground} from '../process/foreground.js';
import type {Replies} from '../records/reply.js';
import type {PaneInfo} from '../tmux/tmux.js';

/** The notice typed into the waiting pane when the work is done. */
export const DEFAULT_NOTICE = '[SYSTEM COMMAND] Command complete. Resume.';

/** The notice when the wait timed out: it still goes out, and it says so. */
export const DEFAULT_TIMEOUT_NOTICE =
  '[SYSTEM COMMAND] Timed out after {elapsed}; the command may still be running. Resume.';

/** The notice when `--until exit`'s command exited with a status other than 0. */
export const FAILED_NOTICE = '[SYSTEM COMMAND] Command complete (exit status {exit}). Resume.';

/**
 * Fill in the notice for an outcome. With the default template a timeout gets its own
 * wording; a custom template without `{status}` gets " (timed out after …)" appended on
 * timeout, so the notice always says so.
 */
export function renderNotice(
  template: string | undefined,
  outcome: 'done' | 'timeout',
  values: NoticeValues,
): string {
  let chosen = template ?? (outcome === 'timeout' ? DEFAULT_TIMEOUT_NOTICE : DEFAULT_NOTICE);
  if (template !== undefined && outcome === 'timeout' && !template.includes('{status}')) {
    chosen = `${template} (timed out after {elapsed})`;
  }
  const rendered = chosen.replace(PLACEHOLDER, (whole, name: string) =>
    name in values ? values[name as keyof NoticeValues] : whole,
  );
  // A line of nudge's own is never a key (issue 61): escape sequences, C0, C1 and DEL go (20
  // DELs would erase the `# ` of the comment it becomes at a shell prompt), a tab (a shell's
  // completion) or a line break from a placeholder's value becomes a space.
  return ownLineText(rendered);
}

/** The notice of a job whose wait ended so. */
export function noticeFor(
  request: {jobId: string; options: {noticeTemplate: string | null; until: UntilSpec}},
  waited: {
    state: string;
    waitedMs: number;
    exitCode?: number | undefined;
    match?: string | undefined;
    delivery?: string | undefined;
    verdict?: string | undefined;
    reply?: string | undefined;
  },
): string {
  const status = waited.state === 'timeout' ? 'timeout' : 'done';
  // The default notice says so when the command failed (--until exit).
  const failed = waited.exitCode !== undefined && waited.exitCode !== 0;
  const template =
    request.options.noticeTemplate ?? (failed && status === 'done' ? FAILED_NOTICE : undefined);
  return renderNotice(template, status, {
    status,
    elapsed: formatDuration(waited.waitedMs),
    job: request.jobId,
    until: describeUntil(request.options.until),
    exit: waited.exitCode !== undefined ? String(waited.exitCode) : '',
    match: waited.match ?? '',
    delivery: waited.delivery ?? 'unconfirmed',
    reason: waited.verdict ?? waited.state,
    reply: waited.reply ?? '',
  });
}

/** The most of a reply a notice carries (characters; the rest is cut, and the cut said). */
export const NOTICE_REPLY_CHARS = 1000;

/**
 * A notice's `{reply}`, when its template has one: the final reply of the job's turn in its
 * pane's agent, read from the agent's record, capped, and quoted on one line as what nudge
 * relays — `nudge: the agent in %3 replied "…"` — never as the person's own words; or why
 * there is none, in parentheses.
 */
export async function replyForNotice(
  deps: {replies: Replies},
  request: {
    pane: string;
    text: string;
    createdAt: string;
    options: {noticeTemplate: string | null};
  },
  profile: Pick<Profile, 'name' | 'replies'> | undefined,
): Promise<string | undefined> {
  if (!request.options.noticeTemplate?.includes('{reply}')) return undefined;
  if (!profile?.replies)
    return `(no reply: ${profile?.name ?? 'the program'} in ${request.pane} keeps no record nudge reads)`;
  const found = await deps.replies({
    pane: request.pane,
    format: profile.replies,
    prompt: request.text,
    sinceMs: Date.parse(request.createdAt),
  });
  if (!('reply' in found)) return `(no reply: ${found.why})`;
  const chars = [...found.reply.text];
  const cut = chars.length > NOTICE_REPLY_CHARS;
  const text = cut ? `${chars.slice(0, NOTICE_REPLY_CHARS).join('')}…` : found.reply.text;
  return `nudge: the agent in ${request.pane} replied ${JSON.stringify(text)}${cut ? ' (cut)' : ''}`;
}

/**
 * Why the notice is held back, if it is: another program than the one there when the job
 * began (the shell, the agent) holds the pane's terminal now — a question the work ended up
 * asking, which typing the notice would answer. Compared by foreground process group where
 * the system tells it, else by command name.
 */
export async function heldBack(
  foreground: Pick<Foreground, 'group'>,
  began: {command: string; group: number | undefined} | undefined,
  info: PaneInfo,
): Promise<string | undefined> {
  if (!began) return undefined;
  const group = await foreground.group(info.panePid);
  const changed =
    began.group !== undefined && group !== undefined
      ? group !== began.group
      : info.currentCommand !== began.command;
  return changed
    ? `the notice was held back: ${info.currentCommand} holds pane ${info.paneId} now, not ${began.command} as when the job began, and the notice would answer it`
    : undefined;
}

/**
 * The ending of a job whose notice pane is on another host (`HOST:%N`): the notice is not
 * typed here but recorded (the event `notice-due`, and `noticeDue` in the ending) for the
 * relay on the submitting machine, which types it there (src/relay/relay.ts).
 */
export async function dueElsewhere<W extends Parameters<typeof noticeFor>[1]>(
  request: Parameters<typeof noticeFor>[0] & {options: {noticeElsewhere?: string | null}},
  waited: W,
  recorder: {event: (name: 'notice-due', data: {to: string; chars: number}) => Promise<void>},
): Promise<W & {noticeDue?: {to: string; text: string}}> {
  const to = request.options.noticeElsewhere;
  if (!to) return waited;
  const text = noticeFor(request, waited);
  await recorder.event('notice-due', {to, chars: [...text].length});
  return {...waited, noticeDue: {to, text}};
}
