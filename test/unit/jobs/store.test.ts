import {chmodSync, chownSync, mkdirSync, statSync, writeFileSync} from 'node:fs';
import {join} from 'node:path';
import {describe, expect, test} from 'vitest';
import {ensureStateDir, resolveStateDir} from '../../../src/base/paths.js';
import {checkJobRecord} from '../../../src/jobs/record.js';
import type {JobRequest} from '../../../src/jobs/request.js';
import {JobStore} from '../../../src/jobs/store.js';
import {MAX_REQUEST_BYTES} from '../../../src/jobs/stored-request.js';
import {jobRequest} from '../../helpers/job-request.js';
import {useTempDir} from '../../helpers/temp-dir.js';

const request = (jobId: string): JobRequest =>
  jobRequest({
    jobId,
    text: 'secret text',
    server: {socketPath: '/tmp/s', pid: 1},
    given: {
      delay: '0',
      typeDelay: '0',
      enterDelay: '0',
      interval: '100ms',
      timeout: '1s',
      lockTimeout: '1s',
    },
  });

describe('state dir', () => {
  test('resolution order', () => {
    expect(resolveStateDir({NUDGE_HOME: '/a', XDG_STATE_HOME: '/b', HOME: '/h'})).toBe('/a');
    expect(resolveStateDir({XDG_STATE_HOME: '/b', HOME: '/h'})).toBe('/b/tmux-nudge');
    expect(resolveStateDir({HOME: '/h'})).toBe('/h/.local/state/tmux-nudge');
  });

  test('is created private and refuses a path under a file', async () => {
    const dir = useTempDir();
    await ensureStateDir(`${dir}/state`);
    expect(statSync(`${dir}/state`).mode & 0o777).toBe(0o700);
    await expect(ensureStateDir(`${dir}/state/jobs/../../x/y`)).resolves.toBeUndefined();
  });
});

describe('JobStore', () => {
  test('creates private files with a queued record and event', async () => {
    const dir = useTempDir();
    await ensureStateDir(dir);
    const store = new JobStore(dir);
    const handle = await store.create(request('0mwr33g3x-aaaa'), 'detached');
    for (const path of [handle.requestPath, handle.statePath, handle.eventsPath]) {
      expect(statSync(path).mode & 0o777).toBe(0o600);
    }
    expect(statSync(handle.dir).mode & 0o777).toBe(0o700);
    expect((await handle.readState()).state).toBe('queued');
    expect((await handle.readEvents()).map((e) => e.event)).toEqual(['queued', 'receipt']);
    await handle.updateState({state: 'locked', pid: 99});
    expect(await handle.readState()).toMatchObject({
      state: 'locked',
      pid: 99,
      preview: 'secret text',
    });
  });

  test('readRequest: the stored request, read bounded and checked, and its text as edited; else one sentence', async () => {
    const dir = useTempDir();
    await ensureStateDir(dir);
    const handle = await new JobStore(dir).create(request('0mwr33g3x-aaaa'), 'detached');
    expect(await handle.readRequest()).toEqual({ok: true, value: request('0mwr33g3x-aaaa')});
    await handle.writeText('edited while queued');
    const edited = await handle.readRequest();
    expect(edited.ok && edited.value.text).toBe('edited while queued');
    writeFileSync(handle.requestPath, JSON.stringify(request('0mwr33g3x-bbbb')));
    expect(await handle.readRequest()).toEqual({
      ok: false,
      error: 'the request is for job 0mwr33g3x-bbbb, not 0mwr33g3x-aaaa',
    });
    writeFileSync(handle.requestPath, `{"text": "${'x'.repeat(MAX_REQUEST_BYTES)}"}`);
    expect(await handle.readRequest()).toMatchObject({
      ok: false,
      error: expect.stringMatching(/cannot be read: is over \d+ KiB$/),
    });
    // `nudge queue`'s readers (text, busy policy, edit) are bounded the same way.
    await expect(handle.readText()).rejects.toThrow(/is over \d+ KiB$/);
    await expect(handle.ifBusy()).rejects.toThrow(/is over \d+ KiB$/);
    await expect(handle.writeText('edited')).rejects.toThrow(/is over \d+ KiB$/);
  });

  test('records who submitted a job: the pane the caller ran in (issue 42)', async () => {
    const dir = useTempDir();
    await ensureStateDir(dir);
    const store = new JobStore(dir);
    const from = {socketPath: '/tmp/s', pane: '%4'};
    const handle = await store.create(request('0mwr33g3x-cccc'), 'detached', from);
    expect(await handle.readState()).toMatchObject({submittedFrom: from});
    const person = await store.create(request('0mwr33g3x-dddd'), 'detached');
    expect(await person.readState()).not.toHaveProperty('submittedFrom');
  });

  test('opens by id or unique prefix and refuses paths', async () => {
    const dir = useTempDir();
    await ensureStateDir(dir);
    const store = new JobStore(dir);
    await store.create(request('0mwr33g3x-aaaa'), 'detached');
    await store.create(request('0mwr33g3y-bbbb'), 'detached');
    expect((await store.open('0mwr33g3y')).id).toBe('0mwr33g3y-bbbb');
    await expect(store.open('0mwr33g3')).rejects.toThrow(/matches 2 jobs/);
    await expect(store.open('../../../etc')).rejects.toThrow(/is not a job id/);
    await expect(store.open('zzzz')).rejects.toThrow(/No job "zzzz"/);
    expect((await store.list()).map((r) => r.id)).toEqual(['0mwr33g3x-aaaa', '0mwr33g3y-bbbb']);
  });
});

describe('checkJobRecord', () => {
  const record = {
    version: 1,
    id: '0mwr33g3x-k62r',
    state: 'done',
    pane: '%1',
    paneTarget: '%1',
    socketPath: '/tmp/s',
    serverPid: 1,
    mode: 'detached',
    createdAt: '2026-11-25T00:00:00.000Z',
    updatedAt: '2026-11-25T00:00:00.000Z',
    preview: 'x',
  };

  test('a record from before `kind` existed reads as submit; a run stays a run', () => {
    expect(checkJobRecord(record, 'state.json').kind).toBe('submit');
    expect(checkJobRecord({...record, kind: 'run'}, 'state.json').kind).toBe('run');
  });

  test('another version, another state, or not a record: one sentence naming the file', () => {
    expect(() => checkJobRecord({...record, version: 2}, '/x/state.json')).toThrow(
      '/x/state.json is not a job record nudge can read (version 2, this nudge reads 1).',
    );
    expect(() => checkJobRecord({...record, state: 'exploded'}, 's')).toThrow(/state "exploded"/);
    expect(() => checkJobRecord([], 's')).toThrow(/not an object/);
    expect(() => checkJobRecord({...record, kind: 'cron'}, 's')).toThrow(/kind "cron"/);
  });
});

describe('the folders above the state directory (as OpenSSH StrictModes)', () => {
  test('a parent writable by others is refused with the fix; a root-owned sticky one (/tmp) passes', async () => {
    const base = useTempDir('nudge-parents-');
    const open = join(base, 'shared');
    mkdirSync(open);
    chmodSync(open, 0o777);
    await expect(ensureStateDir(join(open, 'state'))).rejects.toThrow(
      `${open}, above the state directory ${join(open, 'state')}, is writable by others (mode 777); run "chmod go-w ${open}" or set NUDGE_HOME to a directory under your home.`,
    );
    chmodSync(open, 0o755);
    await expect(ensureStateDir(join(open, 'state'))).resolves.toBeUndefined();
    // tmpdir() itself is /tmp: world-writable, sticky, root's.
    await expect(ensureStateDir(join(base, 'in-tmp'))).resolves.toBeUndefined();
  });

  test.skipIf(process.getuid?.() !== 0)(
    'a parent of another user is refused (needs root to make one)',
    async () => {
      const base = useTempDir('nudge-parents-');
      const theirs = join(base, 'theirs');
      mkdirSync(theirs, {mode: 0o755});
      chownSync(theirs, 65534, 65534);
      await expect(ensureStateDir(join(theirs, 'state'))).rejects.toThrow(
        /belongs to another user/,
      );
    },
  );
});

describe("a queued job's request (nudge queue)", () => {
  test('its text is read and rewritten, the rest of the request kept; its busy policy is read as given', async () => {
    const home = useTempDir();
    await ensureStateDir(home);
    const store = new JobStore(home);
    const request = jobRequest({text: 'npm test', given: {whenIdle: true}});
    const handle = await store.create(request, 'detached');
    expect(await handle.readText()).toBe('npm test');
    expect(await handle.ifBusy()).toBe('wait');
    await handle.writeText('npm run lint');
    expect(await handle.readText()).toBe('npm run lint');
    const {readFile} = await import('node:fs/promises');
    const stored = JSON.parse(await readFile(handle.requestPath, 'utf8')) as JobRequest;
    expect(stored).toEqual({...request, text: 'npm run lint'});
  });
});
