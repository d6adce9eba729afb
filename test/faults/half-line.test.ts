// Issue 62, item 1: the waiter killed (SIGKILL, as the OOM killer does) while a job types. The
// half line it leaves is marked before the first key, so the takeover's next job never types
// onto it: it waits for the person, then fails having typed nothing; once the person clears
// the line, the next job types alone. Into a program nudge cannot clear (cat, a cooked tty that
// echoes) and into bash (whose clearing keys nobody is left to press).
import {describe, expect, it} from 'vitest';
import {submitJob, waitForEvent, waitForGroupGone, workerPid} from '../helpers/faults.js';
import {expectJobEnd, readJobEvents} from '../helpers/job-files.js';
import {useNudgeHome} from '../helpers/nudge-home.js';
import {submitArgs} from '../helpers/run-nudge.js';
import {startTmuxServer} from '../helpers/tmux-server.js';

const SHELL = ['bash', '--norc', '--noprofile'];
const ENV = {NUDGE_WAITER: '1'};

const CASES = [
  {program: 'cat', argv: ['cat'], text: `x${'x'.repeat(299)}`, next: 'second', after: 'third'},
  {
    program: 'bash',
    argv: SHELL,
    text: `echo ${'x'.repeat(300)}`,
    next: 'echo SEC""OND',
    after: 'echo TH""IRD',
  },
] as const;

describe('a waiter killed mid-typing (kill -9)', () => {
  it.each(CASES)(
    'into $program: the next job waits for the person, never types onto the half line; once cleared, the next one types alone',
    async ({argv, text, next, after}) => {
      const server = await startTmuxServer(SHELL);
      const home = useNudgeHome();
      const pane = await server.newPane([...argv]);
      if (argv[0] === 'bash') await server.waitForScreen(pane, /[$#]\s*$/m);
      const submit = (flags: Record<string, string | boolean>, t: string) =>
        submitJob(home, submitArgs(server.socket, pane, {notice: false, ...flags}, t), ENV);
      const victim = await submit({typeDelay: '100ms'}, text);
      await server.waitForScreen(pane, /x{8}/, 60_000);
      const queued = await submit({draftWait: '3s'}, next);
      await waitForEvent(home, queued, 'waiting-for-lock', 60_000);
      const waiter = await workerPid(home, victim);
      process.kill(waiter, 'SIGKILL');
      await waitForGroupGone(waiter);

      // The next job is taken by a new waiter; it finds the half line and waits for the person.
      const failed = await expectJobEnd(home, queued, 'failed', 120_000);
      expect(failed.pid).not.toBe(waiter);
      expect(String(failed.reason)).toMatch(
        new RegExp(
          `^A job \\(${victim}\\) stopped while typing \\(its worker or waiter ended without a word\\) and left what it typed in pane ${pane}'s input line, and it was still there after 3\\.0s; nothing was typed`,
        ),
      );
      expect((await readJobEvents(home, queued)).map((e) => e.event)).toContain(
        'waiting-for-half-line',
      );
      const screen = await server.capture(pane);
      expect(screen).not.toMatch(/SECOND|second/);
      // Nothing ran: the half line is still the only thing on its row, unsent.
      expect(screen).toMatch(/x{8}\s*$/);

      // The person clears the line; the next job types alone.
      const third = await submit({draftWait: '60s'}, after);
      await waitForEvent(home, third, 'waiting-for-half-line', 60_000);
      await server.tmux('send-keys', '-t', pane, 'C-u');
      await expectJobEnd(home, third, 'done', 60_000);
      await server.waitForScreen(pane, argv[0] === 'cat' ? /^third$/m : /^THIRD$/m);
      const lines = (await server.capture(pane)).split('\n');
      expect(lines.filter((l) => /third|THIRD/.test(l) && /x/.test(l))).toEqual([]);
    },
    240_000,
  );
});
