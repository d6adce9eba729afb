// `nudge submit --until …`: each "done" condition against real programs in real panes —
// exit status through the sentinel, regex on new output only, the shell prompt, screen
// stability with --ignore and process liveness — and --notify-pane.
import {join} from 'node:path';
import {describe, expect, it} from 'vitest';
import {
  expectJobEnd,
  jobEvent,
  jobEventLines,
  jobEventNames,
  readJobState,
  waitForJobState,
} from '../helpers/job-files.js';
import {jobIds, serverWorld} from '../helpers/nudge-home.js';
import {startRecorder} from '../helpers/recorder-pane.js';
import {FIXTURES, runNudge, submitArgs, submitJob, usageErrorLine} from '../helpers/run-nudge.js';
import {expectNoticeAfter, jobAtPrompt, shellAtPrompt} from '../helpers/shell-pane.js';

const node = process.execPath;
const fixture = (name: string) => join(FIXTURES, name);
const CLOCK_MASK = 'clock \\d\\d:\\d\\d:\\d\\d';

/** Submit (detached) and return the job id. */
const submit = (home: string, args: string[]) => submitJob(args, {NUDGE_HOME: home});

describe('submit --until exit', () => {
  it("reports a non-zero exit status in the --wait line, status --json and the notice's {exit}", async () => {
    const {server, home} = await shellAtPrompt();

    const r = await runNudge(
      submitArgs(
        server.socket,
        '%0',
        [
          '--wait',
          '--until',
          'exit',
          // A comment line for bash: the notice shows on screen and runs nothing.
          '--notice',
          '# nudge notice: exit={exit} until={until} status={status}',
        ],
        "sleep 0.5; sh -c 'exit 3'",
      ),
      {NUDGE_HOME: home},
    );
    // The command's status is nudge's exit code, and the job failed with it (issue 41).
    expect(r.exitCode, `${r.stdout}\n${r.stderr}`).toBe(3);
    const line =
      /^(\S+) failed after \S+, exit 3, notice sent: The command exited with status 3\.$/.exec(
        r.stdout.trim(),
      );
    expect(line, r.stdout).not.toBeNull();
    const id = line?.[1] ?? '';

    const status = await runNudge(['status', id, '--json'], {NUDGE_HOME: home});
    expect(status.exitCode, status.stderr).toBe(0);
    expect(JSON.parse(status.stdout)).toMatchObject({id, state: 'failed', exitCode: 3});
    const met = await jobEvent(home, id, 'condition-met');
    expect(met, await jobEventLines(home, id)).toMatchObject({exitCode: 3});

    await expectNoticeAfter(
      server,
      '%0',
      /^__NUDGE_\w+_EXIT_3__$/m,
      '# nudge notice: exit=3 until=exit status=done',
    );
  });

  it('reports exit status 0 for a command that succeeds', async () => {
    const {server, home, id} = await jobAtPrompt(
      {until: 'exit', notice: '# zero notice: exit={exit}'},
      'true && echo zero-$((20+3))-ok',
    );
    const final = await expectJobEnd(home, id);
    expect(final, await jobEventLines(home, id)).toMatchObject({
      exitCode: 0,
      notified: true,
    });
    const status = await runNudge(['status', id, '--json'], {NUDGE_HOME: home});
    expect(JSON.parse(status.stdout)).toMatchObject({exitCode: 0});
    await expectNoticeAfter(server, '%0', /^zero-23-ok$/m, '# zero notice: exit=0');
  });

  it("keeps the wrapper out of bash's history (HISTCONTROL=ignoreboth) and draws its status line concealed", async () => {
    const {server, home} = await serverWorld();
    const pane = await server.newPane([
      'env',
      'HISTCONTROL=ignoreboth',
      'PS1=$ ',
      'bash',
      '--norc',
      '--noprofile',
      '-i',
    ]);
    await server.waitForScreen(pane, /^\$/m);
    // What the person ran before: in the history, as the wrapped job must not be.
    await server.tmux('send-keys', '-t', pane, '-l', 'echo by-hand');
    await server.tmux('send-keys', '-t', pane, 'Enter');
    const id = await submit(
      home,
      submitArgs(server.socket, pane, {until: 'exit', noNotice: true}, 'echo by-nudge-$((40+2))'),
    );
    const end = await expectJobEnd(home, id);
    expect(end, await jobEventLines(home, id)).toMatchObject({state: 'done', exitCode: 0});
    await server.tmux('send-keys', '-t', pane, '-l', 'history');
    await server.tmux('send-keys', '-t', pane, 'Enter');
    const screen = await server.waitForScreen(pane, /^\s+\d+\s+history$/m);
    const listed = screen.split('\n').filter((l) => /^\s+\d+\s+\S/.test(l));
    expect(listed.map((l) => l.trim().replace(/^\d+\s+/, ''))).toEqual(['echo by-hand', 'history']);
    // The status line: its characters are kept for nudge to read, drawn concealed (SGR 8).
    expect(screen).toMatch(/^__NUDGE_\w+_EXIT_0__$/m);
    const drawn = await server.tmux('capture-pane', '-p', '-e', '-t', pane);
    expect(drawn).toMatch(/\x1b\[8m__NUDGE_\w+_EXIT_0__/);
  });

  it('is refused (exit 2, nothing typed) on a pane that runs no shell; so is prompt with no profile', async () => {
    const {server, home} = await serverWorld();
    const rec = await startRecorder(server);
    const agent = await server.newPane([node, fixture('toy-agent.mjs'), '500']);
    await server.waitForScreen(agent, /toy-agent ready/);

    for (const [pane, until, message] of [
      [rec.pane, 'exit', /--until exit needs a shell/],
      [agent, 'exit', /--until exit needs a shell/],
      [rec.pane, 'prompt', /no prompt profile knows/],
    ] as const) {
      const r = await runNudge(submitArgs(server.socket, pane, {until}, 'echo hi'), {
        NUDGE_HOME: home,
      });
      const line = usageErrorLine(r, `${pane} --until ${until}`);
      expect(line).toMatch(message);
      if (until === 'exit') expect(line).toContain(pane);
    }
    expect(jobIds(home)).toEqual([]);
    expect((await rec.bytes()).toString()).toBe('');
  });
});

describe('submit --until regex:', () => {
  it('is done on output written after the job started; old screen text and the typed echo do not count', async () => {
    const {server, home} = await shellAtPrompt();
    await server.tmux('send-keys', '-t', '%0', '-l', 'echo RESULT=old');
    await server.tmux('send-keys', '-t', '%0', 'Enter');
    await server.waitForScreen('%0', /^RESULT=old$/m);

    // The typed line's own first match is RESULT=echoed; the output's is RESULT=printed.
    const id = await submit(
      home,
      submitArgs(
        server.socket,
        '%0',
        {until: 'regex:RESULT=\\w+', notice: '# regex notice: {match} via {until}'},
        'sleep 1; true || echo RESULT=echoed; echo RESULT=printed',
      ),
    );
    const final = await expectJobEnd(home, id);
    expect(final, await jobEventLines(home, id)).toMatchObject({
      match: 'RESULT=printed',
      notified: true,
    });
    const met = await jobEvent(home, id, 'condition-met');
    expect(met, await jobEventLines(home, id)).toMatchObject({match: 'RESULT=printed'});
    await expectNoticeAfter(
      server,
      '%0',
      /^RESULT=printed$/m,
      '# regex notice: RESULT=printed via regex:RESULT=\\w+',
    );
  });
});

describe('submit --until prompt', () => {
  it.each([
    {
      // While sleep runs, the cursor sits right after "Continue? $ ", which looks like a prompt.
      what: 'prompt:shell is done when the shell prompt is back, not while a command runs under a prompt-like line',
      until: 'prompt:shell',
      notice: '# prompt notice: {until} {status}',
      command: "printf 'Continue? $ '; sleep 2; echo; echo slept",
      output: /^slept$/m,
      shown: '# prompt notice: prompt:shell done',
    },
    {
      what: 'prompt picks the shell profile for a shell pane',
      until: 'prompt',
      notice: '# auto prompt notice: {until}',
      command: 'sleep 1; echo napped',
      output: /^napped$/m,
      shown: '# auto prompt notice: prompt',
    },
  ])('$what', async ({until, notice, command, output, shown}) => {
    const {server, home, id} = await jobAtPrompt({until, notice}, command);
    await expectJobEnd(home, id);
    await expectNoticeAfter(server, '%0', output, shown);
  });

  it('prompt:REGEX waits for a TUI prompt matching the regex', async () => {
    const {server, home} = await serverWorld();
    const agent = await server.newPane([node, fixture('toy-agent.mjs'), '1500']);
    await server.waitForScreen(agent, /^> ?$/m);
    const id = await submit(
      home,
      submitArgs(
        server.socket,
        agent,
        {until: 'prompt:^>\\s*$', notice: 'regex prompt notice'},
        'build the thing',
      ),
    );
    await expectJobEnd(home, id);
    await expectNoticeAfter(server, agent, /^done\.$/m, 'regex prompt notice');
  });
});

describe('submit --until stable', () => {
  it('a spinner that never stops times out (an --ignore for something else does not hide it); the timeout notice goes out', async () => {
    const {server, home} = await serverWorld();
    const pane = await server.newPane([node, fixture('spinner.mjs')]);
    await server.waitForScreen(pane, /SPINNER START/);

    const r = await runNudge(
      submitArgs(
        server.socket,
        pane,
        {
          wait: true,
          timeout: '1500ms',
          ignore: CLOCK_MASK,
          notice: 'spinner notice {status} {until}',
        },
        'go',
      ),
      {NUDGE_HOME: home},
    );
    expect(r.exitCode, `${r.stdout}\n${r.stderr}`).toBe(124);
    const id = r.stdout.split(' ')[0] ?? '';
    expect(r.stdout).toMatch(/^\S+ timeout after \S+, notice sent$/);
    const events = await jobEventNames(home, id);
    expect(events).toContain('wait-timeout');
    expect(events).not.toContain('condition-met');
    // The notice was typed (the spinner's \r redraws can overwrite its echo on screen, so
    // the job's record says it, not the screen).
    expect(events).toContain('notified');
    expect((await readJobState(home, id)).notified).toBe(true);
  });

  it('a clock that changes while idle never settles without --ignore, and settles with it', async () => {
    const {server, home} = await serverWorld();
    const plain = await server.newPane([node, fixture('clock.mjs'), '100', '1000']);
    const masked = await server.newPane([node, fixture('clock.mjs'), '100', '1000']);
    await server.waitForScreen(plain, /^> ?$/m);
    await server.waitForScreen(masked, /^> ?$/m);

    const notice = ['--notice', '# clock notice {status}'];
    const plainId = await submit(
      home,
      submitArgs(server.socket, plain, [...notice, '--timeout', '3s'], 'task alpha'),
    );
    const maskedId = await submit(
      home,
      submitArgs(
        server.socket,
        masked,
        [...notice, '--timeout', '20s', '--ignore', CLOCK_MASK],
        'task beta',
      ),
    );

    await expectJobEnd(home, maskedId);
    await expectNoticeAfter(server, masked, /^finished beta$/m, '# clock notice done');

    const plainFinal = await expectJobEnd(home, plainId, 'timeout');
    expect(plainFinal.notified).toBe(true);
    // Its work had finished long before: only the clock kept the screen changing.
    await expectNoticeAfter(server, plain, /^finished alpha$/m, '# clock notice timeout');
  });

  it('a quiet command in a shell pane is not done until it has finished (process liveness)', async () => {
    // Silent for 3 s: the screen is identical for far more than 3 checks 200 ms apart (the
    // steady timings).
    const {server, home, id} = await jobAtPrompt(
      {notice: '# quiet notice {status}'},
      'sleep 3; echo finished',
    );
    await expectJobEnd(home, id);
    await expectNoticeAfter(server, '%0', /^finished$/m, '# quiet notice done');
  });
});

describe('submit --notify-pane', () => {
  it('types into pane B, notifies pane A; jobs queued on A are not blocked while B is watched', async () => {
    const {server, home} = await serverWorld();
    const shell = '%0'; // pane B
    await server.waitForScreen(shell, /^\$/m);
    const rec = await startRecorder(server); // pane A

    const first = await submit(
      home,
      submitArgs(
        server.socket,
        shell,
        {
          clear: false,
          notifyPane: rec.pane,
          until: 'exit',
          notice: 'B finished with exit {exit}',
        },
        "sleep 3; sh -c 'exit 4'",
      ),
    );
    await waitForJobState(home, first, ['waiting'], 20_000);

    // While the first job watches B, a job on A runs to its end.
    const second = await submit(
      home,
      submitArgs(
        server.socket,
        rec.pane,
        {interval: '100ms', stableChecks: '2', clear: false, notice: 'second done'},
        'second job',
      ),
    );
    await expectJobEnd(home, second);
    const firstFinal = await expectJobEnd(home, first, 'failed');
    expect(firstFinal, await jobEventLines(home, first)).toMatchObject({
      exitCode: 4,
      notified: true,
    });

    // A got the second job and its notice, then the first job's notice; nothing else.
    const expected = 'second job\rsecond done\rB finished with exit 4\r';
    const got = await rec.waitForLength(expected.length, 5_000).catch(() => rec.bytes());
    expect(got.toString()).toBe(expected);
    // B got the command, not the notice.
    const screenB = await server.capture(shell);
    expect(screenB).toMatch(/^__NUDGE_\w+_EXIT_4__$/m);
    expect(screenB).not.toContain('B finished');
    const notifying = await jobEvent(home, first, 'notifying');
    expect(notifying, await jobEventLines(home, first)).toMatchObject({pane: rec.pane});
    expect((await readJobState(home, second)).state).toBe('done');
  });
});
