// The pane fence (src/tmux/fence.ts): a holder's key goes in one tmux call behind a check of
// its mark on the pane, so once another job has marked the pane, tmux itself refuses the
// key. This closes what the worker's own check (assertHeld) cannot: a worker stopped between
// that check and its tmux call, which on waking would type into the job that took over.
import {describe, expect, it, onTestFinished} from 'vitest';
import {FenceLost, fenceOption} from '../../src/tmux/fence.js';
import {openTransport} from '../../src/tmux/transport.js';
import {submitJob, TRANSPORTS, terminalEvents, waitForLocksFree} from '../helpers/faults.js';
import {waitForJobEnd} from '../helpers/job-files.js';
import {recorderWorld, startRecorder} from '../helpers/recorder-pane.js';
import {submitArgv} from '../helpers/run-nudge.js';
import {startTmuxServer, type TmuxTestServer} from '../helpers/tmux-server.js';

/** The nudge fence marks on `pane`. */
async function marks(server: TmuxTestServer, pane: string): Promise<string[]> {
  const shown = await server.tmux('show-options', '-p', '-t', pane);
  return shown
    .split('\n')
    .map((l) => l.split(' ')[0] ?? '')
    .filter((n) => n.startsWith('@nudge-fence-'));
}

describe.each(TRANSPORTS)('the pane fence (%s transport)', (transport) => {
  it("refuses the keys and pastes of a holder whose mark was taken; the new holder's arrive, exactly", async () => {
    const server = await startTmuxServer();
    const rec = await startRecorder(server);
    const t = await openTransport({kind: 'socket-path', path: server.socket}, rec.pane, {
      prefer: transport,
    });
    onTestFinished(() => t.close());
    expect(t.kind).toBe(transport);

    const a = await t.tmux.takeFence(rec.pane, 'job-a');
    const asA = t.tmux.fenced(() => a);
    await asA.typeLiteral(rec.pane, 'aa');
    const b = await t.tmux.takeFence(rec.pane, 'job-b');
    expect(await marks(server, rec.pane)).toEqual([fenceOption('job-b')]);
    const asB = t.tmux.fenced(() => b);
    await expect(asA.typeLiteral(rec.pane, 'a')).rejects.toBeInstanceOf(FenceLost);
    await expect(asA.pressKeys(rec.pane, ['Enter'])).rejects.toBeInstanceOf(FenceLost);
    await expect(asA.paste(rec.pane, 'a;b')).rejects.toBeInstanceOf(FenceLost);
    await asB.typeLiteral(rec.pane, 'B;');
    await asB.pressKeys(rec.pane, ['Enter']);
    // Reads go as they are, unchecked (and a stale holder's too: reading types nothing).
    expect((await asA.describePane(rec.pane))?.paneId).toBe(rec.pane);
    expect((await rec.waitForLength(5)).toString('latin1')).toBe('aaB;\r');

    // A's release finds its mark gone (no error); B's removes B's: the pane is left unmarked.
    await t.tmux.dropFence(a);
    expect(await marks(server, rec.pane)).toEqual([fenceOption('job-b')]);
    await t.tmux.dropFence(b);
    expect(await marks(server, rec.pane)).toEqual([]);
    expect((await rec.bytes()).toString('latin1')).toBe('aaB;\r');
  });

  it('through the real worker: the job whose mark is taken mid-typing stops at once and ends failed; nothing of it lands after the taker', async () => {
    const {server, rec, home} = await recorderWorld();
    const text = 'a'.repeat(200);
    const id = await submitJob(
      home,
      submitArgv(
        server.socket,
        rec.pane,
        {clear: false, notice: false, delay: 0, typeDelay: '50ms'},
        text,
      ),
      {NUDGE_TRANSPORT: transport},
    );
    await rec.waitForLength(5);
    // What another job's takeFence does, then its first key.
    expect(await marks(server, rec.pane)).toEqual([fenceOption(id)]);
    await server.tmux(
      'set-option',
      '-p',
      '-u',
      '-t',
      rec.pane,
      fenceOption(id),
      ';',
      'set-option',
      '-p',
      '-t',
      rec.pane,
      fenceOption('taker'),
      '1',
      ';',
      'send-keys',
      '-t',
      rec.pane,
      '-l',
      'X',
    );

    const final = await waitForJobEnd(home, id, 30_000);
    expect(final.state, JSON.stringify(final)).toBe('failed');
    expect(final.reason).toMatch(/lock was lost/);
    expect(await terminalEvents(home, id)).toHaveLength(1);
    await waitForLocksFree(home);
    const got = (await rec.bytes()).toString('latin1');
    expect(got, 'a prefix of the text, then the taker’s X, and nothing after').toMatch(/^a+X$/);
    expect(got.length).toBeLessThan(text.length);
    // The job's release removed only its own mark (already gone): the taker's stays.
    expect(await marks(server, rec.pane)).toEqual([fenceOption('taker')]);
  });
});
