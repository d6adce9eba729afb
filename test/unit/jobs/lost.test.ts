import {readFileSync} from 'node:fs';
import {join} from 'node:path';
import {expect, test} from 'vitest';
import {realClock} from '../../../src/base/clock.js';
import {ensureStateDir} from '../../../src/base/paths.js';
import {tellLost} from '../../../src/jobs/lost.js';
import {JobStore} from '../../../src/jobs/store.js';
import type {Tmux} from '../../../src/tmux/tmux.js';
import {jobRequest} from '../../helpers/job-request.js';
import {useTempDir} from '../../helpers/temp-dir.js';

test("a lost job's sinks are told once, by the first command that finds it so", async () => {
  const home = useTempDir('nudge-lost-');
  await ensureStateDir(home, {});
  const told = join(useTempDir('nudge-told-'), 'told.jsonl');
  const request = jobRequest({
    jobId: '0mwt00000-abcd',
    exact: {notifySinks: [`cmd:/usr/bin/tee -a ${told}`]},
  });
  const handle = await new JobStore(home).create(request, 'detached');
  const record = await handle.readState();
  const deps = {
    env: {},
    clock: realClock,
    // No tmux sink here: its client is made, never called.
    tmux: () => ({}) as Tmux,
  };
  await tellLost(handle, record, deps);
  await tellLost(handle, record, deps);
  const lines = readFileSync(told, 'utf8').trim().split('\n');
  expect(lines).toHaveLength(1);
  expect(JSON.parse(lines[0] ?? '{}')).toMatchObject({event: 'lost', state: 'lost'});
  expect((await handle.readEvents()).filter((e) => e.event === 'notify-sent')).toHaveLength(1);
});
