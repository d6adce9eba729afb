// nudge queue: the jobs waiting for a pane in the person's hands, through the real CLI and the
// real workers on a real shell pane. A first job holds the pane until the test lets it go
// (a file it waits for), so the changes are made while the others wait — no timing luck.
import {existsSync, readFileSync, writeFileSync} from 'node:fs';
import {join} from 'node:path';
import {describe, expect, it} from 'vitest';
import type {PaneQueue} from '../../src/verbs/queue.js';
import {jobEvent, readJobEvents, waitForJobState} from '../helpers/job-files.js';
import {CLI, runNudge, submitTo} from '../helpers/run-nudge.js';
import {shellAtPrompt} from '../helpers/shell-pane.js';
import {useTempDir} from '../helpers/temp-dir.js';
import {waitFor} from '../helpers/wait-for.js';

const ENDED = ['done', 'failed', 'timeout', 'cancelled', 'blocked'];

/** A shell pane, a first job that holds it until `go()`, and a way to queue more behind it. */
async function heldPane() {
  const {server, home} = await shellAtPrompt();
  const dir = useTempDir('nudge-queue-');
  const log = join(dir, 'typed.log');
  const gate = join(dir, 'go');
  // The queued jobs wait for a still screen: the pane runs the first job's loop when they
  // are submitted (--until exit takes a shell at the prompt).
  const submit = async (text: string, extra: string[] = ['--until', 'stable']) => {
    const r = await submitTo(server.socket, '%0', text, ['--no-notice', ...extra], {
      NUDGE_HOME: home,
    });
    expect(r.exitCode, r.stderr).toBe(0);
    return r.id;
  };
  const nudge = (args: string[]) => runNudge(args, {NUDGE_HOME: home});
  const first = await submit(
    `until [ -e ${gate} ]; do sleep 0.1; done; printf 'first\\n' >> ${log}`,
    ['--until', 'exit'],
  );
  // The first job types and then waits on the gate: it holds the pane.
  await waitForJobState(home, first, ['waiting'], 60_000);
  const line = (name: string) => `printf '${name}\\n' >> ${log}`;
  return {
    server,
    home,
    first,
    submit,
    nudge,
    line,
    go: () => writeFileSync(gate, ''),
    typed: () => {
      try {
        return readFileSync(log, 'utf8');
      } catch {
        return '';
      }
    },
  };
}

describe('nudge queue', () => {
  it('lists, moves, drops and edits waiting jobs; the order set is the order typed', async () => {
    const p = await heldPane();
    const b = await p.submit(p.line('b'));
    const c = await p.submit(p.line('c'));
    const d = await p.submit(p.line('d'), ['--until', 'stable', '--if-busy', 'wait']);

    const listed = await p.nudge(['queue', '-S', p.server.socket, '%0', '--json']);
    expect(listed.exitCode, listed.stderr).toBe(0);
    const [pane] = JSON.parse(listed.stdout) as PaneQueue[];
    expect(pane?.pane).toBe('%0');
    expect(pane?.jobs.map((j) => [j.id, j.atWork, j.policy])).toEqual([
      [p.first, true, 'queue'],
      [b, false, 'queue'],
      [c, false, 'queue'],
      [d, false, 'wait'],
    ]);
    expect(pane?.jobs[1]?.preview).toBe(p.line('b'));

    const moved = await p.nudge(['queue', 'move', d, '--first']);
    expect(moved.exitCode, moved.stderr).toBe(0);
    expect(moved.stdout.trim()).toBe(`Moved job ${d}; pane %0 now: ${p.first}, ${d}, ${b}, ${c}.`);
    const after = await p.nudge(['queue', 'move', b, '--after', c]);
    expect(after.exitCode, after.stderr).toBe(0);

    const dropped = await p.nudge(['queue', 'drop', c]);
    expect(dropped.exitCode, dropped.stderr).toBe(0);
    expect((await waitForJobState(p.home, c, ENDED)).state).toBe('cancelled');

    const edited = await p.nudge(['queue', 'edit', b, '--text', p.line('b-edited')]);
    expect(edited.exitCode, edited.stderr).toBe(0);

    // The one at work cannot be moved, edited or dropped: one sentence, exit 1.
    const refused = await p.nudge(['queue', 'edit', p.first, '--text', 'echo no']);
    expect(refused.exitCode).toBe(1);
    expect(refused.stderr.trim()).toMatch(
      new RegExp(
        `^nudge: Job ${p.first} has taken the pane already \\(waiting\\); nothing was changed`,
      ),
    );

    p.go();
    for (const id of [p.first, d, b])
      expect((await waitForJobState(p.home, id, ENDED, 90_000)).state).toBe('done');
    expect(p.typed()).toBe('first\nd\nb-edited\n');
    const events = (id: string) => readJobEvents(p.home, id).then((e) => e.map((x) => x.event));
    expect(await events(c)).toContain('queue-dropped');
    expect(await events(c)).not.toContain('typed');
    expect(await events(d)).toContain('queue-moved');
    expect(await events(b)).toEqual(expect.arrayContaining(['queue-edited', 'text-edited']));
    // Nothing waits now.
    const empty = await p.nudge(['queue']);
    expect(empty.stdout.trim()).toBe('No jobs waiting.');
  });

  it('bad moves are one sentence each', async () => {
    const p = await heldPane();
    const b = await p.submit(p.line('b'));
    const cases: Array<[string[], number, RegExp]> = [
      [['queue', 'move', b], 2, /^nudge: Say where it goes/],
      [['queue', 'move', b, '--first', '--after', p.first], 2, /^nudge: Say where it goes/],
      [['queue', 'move', b, '--before', b], 1, /cannot move next to itself/],
      [['queue', 'move', b, '--before', p.first], 1, /has taken the pane already; place/],
      [['queue', 'drop', 'zzzzzzzzz-zzzz'], 2, /^nudge: No job "zzzzzzzzz-zzzz"/],
    ];
    for (const [args, code, message] of cases) {
      const r = await p.nudge(args);
      expect(r.exitCode, `${args.join(' ')}: ${r.stderr}`).toBe(code);
      expect(r.stderr.trim().split('\n')).toHaveLength(1);
      expect(r.stderr).toMatch(message);
    }
    p.go();
    expect((await waitForJobState(p.home, b, ENDED, 90_000)).state).toBe('done');
    await waitFor('the log', async () => (p.typed() === 'first\nb\n' ? true : undefined), {
      timeoutMs: 30_000,
    });
  });

  it('queue edit without --text opens $EDITOR on the text in a terminal (here a pane), and types what was saved', async () => {
    const p = await heldPane();
    const b = await p.submit(p.line('b'));
    // The "editor": sed, given as $EDITOR with its arguments, edits the file in place.
    const pane = await p.server.newPane([
      'env',
      `NUDGE_HOME=${p.home}`,
      'EDITOR=sed -i s/b/b-from-editor/',
      'bash',
      '-c',
      `${JSON.stringify(process.execPath)} ${JSON.stringify(CLI)} queue edit ${b}; echo EDIT-ENDED $?; sleep 600`,
    ]);
    await p.server.waitForScreen(pane, /EDIT-ENDED 0/);
    expect(await p.server.capture(pane)).toContain(`Edited job ${b}'s text`);
    p.go();
    expect((await waitForJobState(p.home, b, ENDED, 90_000)).state).toBe('done');
    await waitFor(
      'the edited line',
      async () => (p.typed() === 'first\nb-from-editor\n' ? true : undefined),
      {timeoutMs: 30_000, describe: async () => p.typed()},
    );
  });

  it('queue edit holds the job while $EDITOR is open: it reaches the pane, waits for the edit, and types what was saved', async () => {
    const p = await heldPane();
    const b = await p.submit(p.line('b'));
    const editor = join(p.server.dir, 'slow-editor.sh');
    const go = join(p.server.dir, 'go');
    const opened = join(p.server.dir, 'opened');
    writeFileSync(
      editor,
      `#!/bin/sh\ntouch '${opened}'\nwhile [ ! -e '${go}' ]; do sleep 0.1; done\nsed -i s/b/b-late/ "$1"\n`,
      {mode: 0o755},
    );
    const pane = await p.server.newPane([
      'env',
      `NUDGE_HOME=${p.home}`,
      `EDITOR=${editor}`,
      'bash',
      '-c',
      `${JSON.stringify(process.execPath)} ${JSON.stringify(CLI)} queue edit ${b}; echo EDIT-ENDED $?; sleep 600`,
    ]);
    await waitFor('the editor to open', async () => (existsSync(opened) ? true : undefined));
    // The job ahead ends while the editor is open: b takes the pane and waits for the edit.
    p.go();
    await waitFor(
      'b to wait for the edit',
      async () => await jobEvent(p.home, b, 'waiting-for-edit'),
    );
    writeFileSync(go, '');
    await p.server.waitForScreen(pane, /EDIT-ENDED 0/);
    expect((await waitForJobState(p.home, b, ENDED, 90_000)).state).toBe('done');
    await waitFor(
      'the edited line',
      async () => (p.typed() === 'first\nb-late\n' ? true : undefined),
      {timeoutMs: 30_000, describe: async () => p.typed()},
    );
  });
});
