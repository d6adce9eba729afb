/**
 * The Pi extension `nudge install pi` writes (data/hooks/pi-extension.ts), fed Pi 0.73.1's
 * order of things: `agent_end` comes while the session still streams (pi-agent-core's
 * Agent.processEvents: idle once every agent_end listener finished), a message queued
 * meanwhile starts another run. The turn's end is marked once the session is idle with nothing
 * pending, never for a run another one followed. Its hook command is a real program that
 * records what it was given (record-call.mjs).
 */
import {existsSync, readFileSync, writeFileSync} from 'node:fs';
import {join} from 'node:path';
import {pathToFileURL} from 'node:url';
import {expect, onTestFinished, test} from 'vitest';
import {fixture} from '../../helpers/run-nudge.js';
import {useTempDir} from '../../helpers/temp-dir.js';
import {waitFor} from '../../helpers/wait-for.js';

type Handler = (event: unknown, ctx: unknown) => void;

/** The session as the extension sees it: idle or not, messages pending or not; `looks`
 * counts the extension's questions, so a test can wait until it asked a few times. */
function session() {
  const s = {idle: false, pending: false, looks: 0};
  const ctx = {
    isIdle: () => {
      s.looks += 1;
      return s.idle;
    },
    hasPendingMessages: () => s.pending,
  };
  return {s, ctx};
}

async function extension() {
  const dir = useTempDir('nudge-pi-extension-');
  const log = join(dir, 'calls.jsonl');
  process.env.NUDGE_CALLS_LOG = log;
  const pane = process.env.TMUX_PANE;
  delete process.env.TMUX_PANE; // no door: only the turn's end is under test
  onTestFinished(() => {
    delete process.env.NUDGE_CALLS_LOG;
    if (pane !== undefined) process.env.TMUX_PANE = pane;
  });
  const source = readFileSync(
    new URL('../../../data/hooks/pi-extension.ts', import.meta.url),
    'utf8',
  )
    .replaceAll('NUDGE_NODE', JSON.stringify(process.execPath))
    .replaceAll('NUDGE_CLI', JSON.stringify(fixture('record-call.mjs')));
  const file = join(dir, 'extension.ts');
  writeFileSync(file, source);
  const mod = (await import(pathToFileURL(file).href)) as {default: (pi: unknown) => void};
  const handlers = new Map<string, Handler[]>();
  mod.default({
    on: (event: string, h: Handler) => handlers.set(event, [...(handlers.get(event) ?? []), h]),
    sendUserMessage: () => {},
  });
  const emit = (event: string, ctx: unknown) => {
    for (const h of handlers.get(event) ?? []) h({type: event}, ctx);
  };
  const calls = () =>
    existsSync(log) ? readFileSync(log, 'utf8').trim().split('\n').filter(Boolean) : [];
  return {emit, calls};
}

/** Until the extension asked the session `n` more times. */
async function looked(s: {looks: number}, n: number): Promise<void> {
  const from = s.looks;
  await waitFor(`the extension to look ${n} times`, async () =>
    s.looks - from >= n ? true : undefined,
  );
}

test('agent_end while the session still streams: marked once it is idle, not before', async () => {
  const x = await extension();
  const {s, ctx} = session();
  x.emit('agent_start', ctx);
  x.emit('agent_end', ctx);
  await looked(s, 3);
  expect(x.calls()).toEqual([]);
  // Idle, but a message is pending: another run is coming.
  s.idle = true;
  s.pending = true;
  await looked(s, 3);
  expect(x.calls()).toEqual([]);
  s.pending = false;
  await waitFor('the mark', async () => (x.calls().length > 0 ? true : undefined));
  expect(x.calls().map((l) => JSON.parse(l))).toEqual([
    {args: ['hook', 'pi-agent-end'], stdin: '{}'},
  ]);
});

test('a run followed by another before it settled is not marked; the last one is, once', async () => {
  const x = await extension();
  const {s, ctx} = session();
  x.emit('agent_start', ctx);
  x.emit('agent_end', ctx);
  await looked(s, 2);
  // A queued follow-up starts the next run before the first was idle.
  x.emit('agent_start', ctx);
  s.idle = true;
  x.emit('agent_end', ctx);
  await waitFor('the mark', async () => (x.calls().length > 0 ? true : undefined));
  // One more run, marked last: by the time it is recorded, an earlier stray mark would be too.
  s.idle = false;
  x.emit('agent_start', ctx);
  x.emit('agent_end', ctx);
  s.idle = true;
  await waitFor('two marks', async () => (x.calls().length >= 2 ? true : undefined));
  expect(x.calls()).toHaveLength(2);
});
