/**
 * The Pi extension `nudge install pi` writes (data/hooks/pi-extension.ts), fed Pi 0.73.1's
 * order of things: `agent_end` comes while the session still streams (pi-agent-core's
 * Agent.processEvents: idle once every agent_end listener finished), a message queued
 * meanwhile starts another run. The turn's end is marked once the session is idle with nothing
 * pending, never for a run another one followed. Its hook command is a real program that
 * records what it was given (record-call.mjs).
 */
import {expect, onTestFinished, test} from 'vitest';
import {withRecordedHook} from '../../helpers/recorded-hook.js';
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
  const pane = process.env.TMUX_PANE;
  delete process.env.TMUX_PANE; // no door: only the turn's end is under test
  onTestFinished(() => {
    if (pane !== undefined) process.env.TMUX_PANE = pane;
  });
  const {mod, calls} = await withRecordedHook<{default: (pi: unknown) => void}>('pi-extension.ts');
  const handlers = new Map<string, Handler[]>();
  mod.default({
    on: (event: string, h: Handler) => handlers.set(event, [...(handlers.get(event) ?? []), h]),
    sendUserMessage: () => {},
  });
  /** One run: its start and its end, as Pi emits them. */
  const run = (ctx: unknown) => {
    for (const event of ['agent_start', 'agent_end'])
      for (const h of handlers.get(event) ?? []) h({type: event}, ctx);
  };
  return {run, calls};
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
  x.run(ctx);
  await looked(s, 3);
  expect(x.calls()).toEqual([]);
  // Idle, but a message is pending: another run is coming.
  s.idle = true;
  s.pending = true;
  await looked(s, 3);
  expect(x.calls()).toEqual([]);
  s.pending = false;
  await waitFor('the mark', async () => (x.calls().length > 0 ? true : undefined));
  expect(x.calls()).toEqual([{args: ['hook', 'pi-agent-end'], stdin: '{}'}]);
});

test('a run followed by another before it settled is not marked; the last one is, once', async () => {
  const x = await extension();
  const {s, ctx} = session();
  x.run(ctx);
  await looked(s, 2);
  // A queued follow-up starts the next run before the first was idle, and ends it idle.
  s.idle = true;
  x.run(ctx);
  await waitFor('the mark', async () => (x.calls().length > 0 ? true : undefined));
  // One more run, marked last: by the time it is recorded, an earlier stray mark would be too.
  s.idle = false;
  x.run(ctx);
  s.idle = true;
  await waitFor('two marks', async () => (x.calls().length >= 2 ? true : undefined));
  expect(x.calls()).toHaveLength(2);
});
