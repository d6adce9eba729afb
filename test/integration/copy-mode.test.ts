// A person touches the pane while nudge types (issue 29): they scroll up, and tmux puts the
// pane in copy mode, where every key sent would go to copy mode (`q` leaves it, the rest of the
// text reaches the program cut short). Through the real CLI and worker on real tmux: the keys
// are refused while the pane is in the mode (src/tmux/mode-guard.ts); once it ends, a shell's
// line — nudge's own prefix — is cleared and the text typed whole, so bash never runs a cut
// command; a program nudge cannot clear gets nothing more and no Enter, and the job says how
// much arrived.
import {readdirSync} from 'node:fs';
import {join} from 'node:path';
import {describe, expect, test} from 'vitest';
import {jobEventNames, readJobEvents, waitForJobEnd} from '../helpers/job-files.js';
import {serverWorld} from '../helpers/nudge-home.js';
import {startRecorder} from '../helpers/recorder-pane.js';
import {submitArgs, submitJob} from '../helpers/run-nudge.js';
import {useTempDir} from '../helpers/temp-dir.js';
import type {TmuxTestServer} from '../helpers/tmux-server.js';
import {waitFor} from '../helpers/wait-for.js';

/** Put `pane` in copy mode, hold it there `ms`, then leave it, as a person scrolling would. */
async function scrollAWhile(server: TmuxTestServer, pane: string, ms: number): Promise<void> {
  await server.tmux('copy-mode', '-t', pane);
  await new Promise((r) => setTimeout(r, ms));
  await server.tmux('send-keys', '-t', pane, '-X', 'cancel');
}

describe.each(['control', 'spawn'] as const)(
  'copy mode entered while a job types (%s)',
  (transport) => {
    test('into bash, a command longer than the pane is wide: bash runs it whole, once; never a cut one', async () => {
      const {server, home} = await serverWorld();
      const dir = useTempDir('nudge-copy-mode-');
      const pane = await server.newPane(['bash', '--norc', '--noprofile'], {width: 60, height: 20});
      await server.waitForScreen(pane, /\$/);
      const name = `whole-${'a'.repeat(200)}`;
      const command = `touch ${join(dir, name)}`;
      const id = await submitJob(
        submitArgs(server.socket, pane, {typeDelay: '20ms', notice: false, until: 'exit'}, command),
        {NUDGE_HOME: home, NUDGE_TRANSPORT: transport},
      );
      // The first characters are on the line: the person scrolls up for a second.
      await server.waitForScreen(pane, /touch \/\S{10}/, 30_000);
      await scrollAWhile(server, pane, 1_000);
      const end = await waitForJobEnd(home, id, 90_000);
      const events = await readJobEvents(home, id);
      const shown = `${JSON.stringify(events)}\n${await server.capture(pane)}`;
      expect(end.state, shown).toBe('done');
      expect(readdirSync(dir), shown).toEqual([name]);
      expect(
        events.some((e) => e.event === 'mode-entered'),
        shown,
      ).toBe(true);
      expect(events.find((e) => e.event === 'retyping')).toMatchObject({why: 'mode-entered'});
    }, 120_000);

    test('into a program nudge cannot clear: what arrived stays, no Enter, and the job says how much', async () => {
      const {server, home} = await serverWorld();
      const rec = await startRecorder(server);
      const text = `${'b'.repeat(400)}-end`;
      const id = await submitJob(
        submitArgs(server.socket, rec.pane, {typeDelay: '20ms', notice: false}, text),
        {NUDGE_HOME: home, NUDGE_TRANSPORT: transport},
      );
      await rec.waitForLength(10, 30_000);
      await scrollAWhile(server, rec.pane, 1_000);
      const end = await waitForJobEnd(home, id, 90_000);
      const got = (await rec.bytes()).toString('utf8');
      expect(end.state).toBe('failed');
      expect(String(end.reason)).toMatch(
        new RegExp(
          `^The pane ${rec.pane} entered copy mode while typing; ${got.length} of ${text.length} characters arrived, and nudge has no profile for its program, so it cannot clear them; Enter was not pressed\\.$`,
        ),
      );
      // Only a beginning of the text, never a key of copy mode's, never Enter.
      expect(text.startsWith(got), got).toBe(true);
      expect(got.length).toBeLessThan(text.length);

      // The next job never builds on that half line: it waits for the person (here, up to its
      // --draft-wait, then fails having typed nothing).
      const next = await submitJob(
        submitArgs(
          server.socket,
          rec.pane,
          {typeDelay: '0', notice: false, draftWait: '2s'},
          'next',
        ),
        {NUDGE_HOME: home, NUDGE_TRANSPORT: transport},
      );
      const after = await waitForJobEnd(home, next, 60_000);
      expect(await jobEventNames(home, next)).toContain('waiting-for-half-line');
      expect(after.state).toBe('failed');
      expect((await rec.bytes()).toString('utf8')).toBe(got);
    }, 120_000);

    test('the notice too: into a recorder put in copy mode mid-notice, no partial notice is submitted', async () => {
      const {server, home} = await serverWorld();
      const rec = await startRecorder(server);
      const shell = await server.newPane(['bash', '--norc', '--noprofile']);
      const notice = `Done: ${'n'.repeat(400)} resume.`;
      const id = await submitJob(
        submitArgs(
          server.socket,
          shell,
          {typeDelay: '20ms', until: 'exit', notifyPane: rec.pane, notice},
          'true',
        ),
        {NUDGE_HOME: home, NUDGE_TRANSPORT: transport},
      );
      await rec.waitForLength(10, 60_000);
      await scrollAWhile(server, rec.pane, 1_000);
      const end = await waitForJobEnd(home, id, 90_000);
      const got = (await rec.bytes()).toString('utf8');
      expect(notice.startsWith(got), got).toBe(true);
      expect(got).not.toContain('\r');
      expect(end.notified, JSON.stringify(end)).toBe(false);
      await waitFor('the notice failure in the events', async () =>
        (await readJobEvents(home, id)).find((e) =>
          JSON.stringify(e).includes('entered copy mode while typing'),
        ),
      );
    }, 120_000);
  },
);
