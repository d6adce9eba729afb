import {NudgeError} from '../base/errors.js';

/**
 * A notice's template (--notice): the placeholders it may use and its check.
 */

/** Placeholders a `--notice` template may use. */
export const NOTICE_PLACEHOLDERS = [
  'status',
  'elapsed',
  'job',
  'until',
  'exit',
  'match',
  'delivery',
  'reason',
  'reply',
] as const;

export type NoticeValues = Record<(typeof NOTICE_PLACEHOLDERS)[number], string>;

/** The longest notice template accepted (characters). */
export const MAX_NOTICE_LENGTH = 2000;

// Any {word}, in any case: {STATUS} is refused as unknown rather than typed literally.
export const PLACEHOLDER = /\{([A-Za-z_][A-Za-z0-9_]*)\}/g;

/** Reject templates with unknown placeholders, newlines, NULs or absurd length (exit 2). */
export function validateNoticeTemplate(template: string): void {
  if (template.trim() === '') {
    throw new NudgeError('bad-notice', '--notice is empty; give a template or use --no-notice.');
  }
  if (template.length > MAX_NOTICE_LENGTH) {
    throw new NudgeError(
      'bad-notice',
      `--notice is longer than ${MAX_NOTICE_LENGTH} characters; shorten it.`,
    );
  }
  if (/[\0\r\n]/.test(template)) {
    throw new NudgeError('bad-notice', '--notice must be one line (no newline or NUL characters).');
  }
  for (const m of template.matchAll(PLACEHOLDER)) {
    if (!(NOTICE_PLACEHOLDERS as readonly string[]).includes(m[1] ?? '')) {
      throw new NudgeError(
        'bad-notice',
        `--notice uses unknown placeholder {${m[1]}}; known ones are ${NOTICE_PLACEHOLDERS.map((p) => `{${p}}`).join(' ')}.`,
      );
    }
  }
}
