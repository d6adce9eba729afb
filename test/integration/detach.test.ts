// The front end returns at once; a detached worker does the job and survives its caller.
import {existsSync, readFileSync} from 'node:fs';
import {join} from 'node:path';
import {describe, expect, it} from 'vitest';
import {
  expectJobEnd,
  jobEventNames,
  readJobState,
  TERMINAL,
  waitForJobEnd,
} from '../helpers/job-files.js';
import {jobIds} from '../helpers/nudge-home.js';
import {hex, recorderWorld} from '../helpers/recorder-pane.js';
import {CLI, runNudge, submitArgv} from '../helpers/run-nudge.js';
import {waitFor} from '../helpers/wait-for.js';

const JOB_ID = /^[A-Za-z0-9][A-Za-z0-9._-]*$/;

/** Quote for bash: single quotes, with embedded ones spliced in. */
function shq(s: string): string {
  return `'${s.replaceAll("'", `'\\''`)}'`;
}

function fastJobArgs(socket: string, pane: string, delay: string): string[] {
  const flags = ['--no-clear', '--no-notice', '--delay', delay, '--type-delay', '1ms'];
  return submitArgv(socket, pane, flags);
}

describe('detached worker', () => {
  it('submit returns with the job id while the worker is still working; the job then completes', async () => {
    const {server, rec, home} = await recorderWorld();

    const r = await runNudge(
      [...fastJobArgs(server.socket, rec.pane, '3s'), '--', 'detached; ok'],
      {
        NUDGE_HOME: home,
      },
    );
    // Right after the front end returned (its stdout and stderr closed), the worker is
    // still in its 3 s delay: the job is not over and nothing has been typed.
    const stateAtReturn = await readJobState(home, r.stdout.trim()).catch((e: Error) => ({
      state: `unreadable: ${e.message}`,
      pid: undefined,
    }));
    const bytesAtReturn = await rec.bytes();

    expect(r.exitCode, r.stderr).toBe(0);
    expect(r.stderr).toBe('');
    expect(r.stdout).toMatch(/^\S+\n?$/);
    const id = r.stdout.trim();
    expect(id).toMatch(JOB_ID);
    expect(jobIds(home)).toEqual([id]);
    expect(TERMINAL, `state when submit returned: ${JSON.stringify(stateAtReturn)}`).not.toContain(
      stateAtReturn.state,
    );
    expect(bytesAtReturn.length).toBe(0);
    // The worker is another process than the front end, and alive.
    expect(typeof stateAtReturn.pid).toBe('number');
    expect(() => process.kill(stateAtReturn.pid as number, 0)).not.toThrow();

    await expectJobEnd(home, id);
    const expected = Buffer.from('detached; ok\r');
    expect(hex(await rec.waitForLength(expected.length))).toBe(hex(expected));
    const events = await jobEventNames(home, id);
    expect(events[0]).toBe('queued');
    expect(events).toContain('worker-started');
    expect(events.at(-1)).toBe('done');
  });

  it('submit --json prints one JSON line with the job, state, pane, pid and log', async () => {
    const {server, rec, home} = await recorderWorld();
    const r = await runNudge(
      [...fastJobArgs(server.socket, rec.pane, '0'), '--json', '--', 'json mode'],
      {NUDGE_HOME: home},
    );
    expect(r.exitCode, r.stderr).toBe(0);
    const lines = r.stdout.trim().split('\n');
    expect(lines).toHaveLength(1);
    const out = JSON.parse(lines[0] ?? '');
    expect(out).toMatchObject({state: 'queued', pane: rec.pane});
    expect(out.job).toMatch(JOB_ID);
    expect(typeof out.pid).toBe('number');
    expect(out.log).toBe(join(home, 'jobs', out.job, 'worker.log'));
    expect((await waitForJobEnd(home, out.job)).state).toBe('done');
    expect((await rec.waitForLength(10)).toString()).toBe('json mode\r');
  });

  it("the worker survives its caller's exit and the caller's pane being killed", async () => {
    const {server, rec, home} = await recorderWorld();
    // The caller: a bash in a pane of the test server, as an agent's shell would be.
    const caller = await server.newPane(['bash', '--norc', '--noprofile']);
    await server.waitForScreen(caller, /^\$/m);
    const idFile = join(server.dir, 'job-id');
    const text = 'survived the caller';
    // One foreground job (a subshell): the front end's process group is still the pane's
    // foreground group when the pane dies, as with an agent whose Bash tool is still busy.
    const submit = [
      `NUDGE_HOME=${shq(home)}`,
      shq(process.execPath),
      shq(CLI),
      ...fastJobArgs(server.socket, rec.pane, '3s').map(shq),
      '--',
      shq(text),
    ].join(' ');
    const tmp = shq(`${idFile}.tmp`);
    const command = `( ${submit} > ${tmp} 2>&1 && mv ${tmp} ${shq(idFile)}; sleep 300 )`;
    await server.tmux('send-keys', '-t', caller, '-l', '--', command);
    await server.tmux('send-keys', '-t', caller, 'Enter');

    const id = await waitFor(
      `the caller pane to write the job id to ${idFile}`,
      async () => (existsSync(idFile) ? readFileSync(idFile, 'utf8').trim() : undefined),
      {
        timeoutMs: 20_000,
        describe: async () =>
          `${existsSync(`${idFile}.tmp`) ? readFileSync(`${idFile}.tmp`, 'utf8') : '(no output file)'}\nscreen:\n${await server.capture(caller)}`,
      },
    );
    expect(id).toMatch(JOB_ID);
    // The front end has exited. Now close the caller's pane (SIGHUP to its foreground
    // process group) while the worker is still in its 3 s delay.
    await server.tmux('kill-pane', '-t', caller);
    const afterKill = await readJobState(home, id);
    expect(
      TERMINAL,
      `state when the caller pane was killed: ${JSON.stringify(afterKill)}`,
    ).not.toContain(afterKill.state);
    const panes = await server.tmux('list-panes', '-a', '-F', '#{pane_id}');
    expect(panes.split('\n')).not.toContain(caller);

    await expectJobEnd(home, id);
    const expected = Buffer.from(`${text}\r`);
    expect(hex(await rec.waitForLength(expected.length))).toBe(hex(expected));
  });
});
