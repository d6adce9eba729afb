import {describe, expect, test} from 'vitest';
import {validateNoticeTemplate} from '../../../src/job-options/template.js';
import {
  DEFAULT_NOTICE,
  NOTICE_REPLY_CHARS,
  renderNotice,
  replyForNotice,
} from '../../../src/jobs/notice.js';

const values = {
  status: 'done',
  elapsed: '4.2s',
  job: 'abc-1234',
  until: 'stable',
  exit: '',
  match: '',
  delivery: 'submitted',
  reason: 'idle: waiting for input (python3)',
  reply: '',
};

describe('notice', () => {
  test('default wording for done and for a timeout', () => {
    expect(renderNotice(undefined, 'done', values)).toBe(DEFAULT_NOTICE);
    expect(renderNotice(undefined, 'timeout', {...values, status: 'timeout'})).toMatch(
      /^\[SYSTEM COMMAND\] Timed out after 4\.2s/,
    );
  });

  test('placeholders are filled in', () => {
    expect(renderNotice('job {job}: {status} in {elapsed}', 'done', values)).toBe(
      'job abc-1234: done in 4.2s',
    );
  });

  test("a line of nudge's own holds no key: C0, C1, DEL and escape sequences go", () => {
    const del = '\x7f'.repeat(20);
    expect(renderNotice(`${del}touch F7FILE`, 'done', values)).toBe('touch F7FILE');
    expect(
      renderNotice('a\x1b[2Jb\u009b31mc\x03d\te {reply}', 'done', {
        ...values,
        reply: `x${del}\ny\u0085z`,
      }),
    ).toBe('abcd e x yz');
  });

  test('a custom template without {status} still says it timed out', () => {
    expect(renderNotice('Resume.', 'timeout', {...values, status: 'timeout'})).toBe(
      'Resume. (timed out after 4.2s)',
    );
    expect(renderNotice('{status}: resume', 'timeout', {...values, status: 'timeout'})).toBe(
      'timeout: resume',
    );
  });
});

test('{reason} says why the wait ended', () => {
  expect(renderNotice('Done ({reason}).', 'done', values)).toBe(
    'Done (idle: waiting for input (python3)).',
  );
});

describe('{reply}', () => {
  const request = (noticeTemplate: string | null) => ({
    pane: '%3',
    text: 'why?',
    createdAt: '2026-12-03T10:00:00.000Z',
    options: {noticeTemplate},
  });
  const claude = {name: 'claude', replies: 'claude-transcript' as const};
  const asked: unknown[] = [];
  const replying = (text: string) => ({
    replies: async (at: unknown) => {
      asked.push(at);
      return {reply: {text}};
    },
  });

  test('read only when the template has {reply}', async () => {
    asked.length = 0;
    expect(await replyForNotice(replying('x'), request(null), claude)).toBeUndefined();
    expect(await replyForNotice(replying('x'), request('{status}'), claude)).toBeUndefined();
    expect(asked).toEqual([]);
  });

  test('the turn of the job: its pane, its text, since the job was made', async () => {
    asked.length = 0;
    await replyForNotice(replying('x'), request('{reply}'), claude);
    expect(asked).toEqual([
      {
        pane: '%3',
        format: 'claude-transcript',
        prompt: 'why?',
        sinceMs: Date.parse('2026-12-03T10:00:00.000Z'),
      },
    ]);
  });

  test('quoted on one line as what nudge relays, never the bare words', async () => {
    const r = await replyForNotice(
      replying('Done.\nrm -rf "x"\u001b[2J'),
      request('{reply}'),
      claude,
    );
    expect(r).toBe('nudge: the agent in %3 replied "Done.\\nrm -rf \\"x\\"\\u001b[2J"');
    expect(r).not.toMatch(/[\n\u001b]/);
    validateNoticeTemplate(r ?? '');
  });

  test('a long reply is cut, and says so', async () => {
    const long = 'é'.repeat(NOTICE_REPLY_CHARS + 5);
    const r = await replyForNotice(replying(long), request('{reply}'), claude);
    expect(r).toBe(`nudge: the agent in %3 replied "${'é'.repeat(NOTICE_REPLY_CHARS)}…" (cut)`);
  });

  test('no record, or none found: why, in parentheses', async () => {
    const none = {replies: async () => ({why: 'no claude-transcript record changed since'})};
    expect(await replyForNotice(none, request('{reply}'), claude)).toBe(
      '(no reply: no claude-transcript record changed since)',
    );
    expect(await replyForNotice(none, request('{reply}'), {name: 'shell'})).toBe(
      '(no reply: shell in %3 keeps no record nudge reads)',
    );
  });
});
