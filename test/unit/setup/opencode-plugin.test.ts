/**
 * The opencode plugin `nudge install opencode` writes (data/hooks/opencode-plugin.js), fed the
 * events opencode 1.18.33 publishes: a top-level session's idle is the pane's turn end; a
 * sub-agent's (a child session's) is not, and the parent's idle waits for its busy children.
 * Its hook command is a real program that records what it was given (record-call.mjs).
 */
import {expect, test} from 'vitest';
import {withRecordedHook} from '../../helpers/recorded-hook.js';
import {waitFor} from '../../helpers/wait-for.js';

type Plugin = () => Promise<{event: (e: {event: unknown}) => Promise<void>}>;

async function plugin() {
  const {mod, calls} = await withRecordedHook<{NudgeTurnEnd: Plugin}>('opencode-plugin.js');
  const {event} = await mod.NudgeTurnEnd();
  const send = (type: string, properties: unknown) => event({event: {type, properties}});
  return {send, calls};
}

test("a top-level session's idle marks the turn's end; a sub-agent's does not", async () => {
  const p = await plugin();
  await p.send('session.created', {info: {id: 'child'}, sessionID: 'child'});
  await p.send('session.updated', {info: {id: 'child', parentID: 'main'}, sessionID: 'child'});
  await p.send('session.status', {sessionID: 'child', status: {type: 'busy'}});
  // The parent idles while its child still runs: held.
  await p.send('session.idle', {sessionID: 'main'});
  // A top-level session of its own is told at once.
  await p.send('session.idle', {sessionID: 'other'});
  await waitFor('the other session marked', async () => (p.calls().length >= 1 ? true : undefined));
  expect(p.calls()).toEqual([{args: ['hook', 'opencode-idle'], stdin: '{"session_id":"other"}'}]);
  // The child ends: its own idle is no turn end, but it releases the parent's.
  await p.send('session.status', {sessionID: 'child', status: {type: 'idle'}});
  await p.send('session.idle', {sessionID: 'child'});
  // One more top-level idle, told last: by the time it is recorded, every earlier call is.
  await p.send('session.idle', {sessionID: 'third'});
  await waitFor('three calls', async () => (p.calls().length >= 3 ? true : undefined));
  await waitFor('the last call', async () =>
    p.calls().some((c) => c.stdin.includes('third')) ? true : undefined,
  );
  const told = p.calls().map((c) => JSON.parse(c.stdin).session_id as string);
  expect(told.sort()).toEqual(['main', 'other', 'third']);
});
