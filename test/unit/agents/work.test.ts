/**
 * What Claude Code's Stop hook says still runs (src/agents/work.ts), read from the payload it
 * sends (2.1.197 and 2.1.332, test/explore/claude-bg-shell.explore.ts), and how work and
 * services are told in words.
 */
import {expect, test} from 'vitest';
import {
  claudeWork,
  describeServices,
  describeWork,
  heldBy,
  listeningOn,
  servicesByPattern,
} from '../../../src/agents/work.js';

// A Stop payload as Claude Code 2.1.332 sent it while a background shell ran.
const RUNNING = {
  session_id: 'a0f2d785',
  hook_event_name: 'Stop',
  stop_hook_active: false,
  last_assistant_message: 'Started it in the background.',
  background_tasks: [
    {
      id: 'b4fdfq9pe',
      type: 'shell',
      status: 'running',
      description: 'Run it in the background',
      command: 'sleep 12; echo BGDONE',
    },
  ],
  session_crons: [],
};

test('a running background shell is work; the Stop after it ended lists nothing', () => {
  expect(claudeWork(RUNNING)).toEqual([{kind: 'shell', what: 'sleep 12; echo BGDONE'}]);
  expect(claudeWork({...RUNNING, background_tasks: []})).toEqual([]);
});

test('an older payload without the fields says nothing (the screen decides)', () => {
  expect(claudeWork({session_id: 's', stop_hook_active: false})).toBeUndefined();
  expect(claudeWork(undefined)).toBeUndefined();
});

test('only running and pending tasks count; a sub-agent is named by its description', () => {
  const work = claudeWork({
    background_tasks: [
      {type: 'subagent', status: 'pending', description: 'Explore the repo', agent_type: 'x'},
      {type: 'shell', status: 'completed', command: 'make'},
      {type: 'monitor', status: 'running', description: 'Watch the log'},
      'not a task',
    ],
  });
  expect(work).toEqual([
    {kind: 'subagent', what: 'Explore the repo'},
    {kind: 'monitor', what: 'Watch the log'},
  ]);
});

test('a one-shot schedule is work to come; a recurring one serves', () => {
  const work = claudeWork({
    session_crons: [
      {id: 'c1', schedule: '*/5 * * * *', recurring: true, prompt: 'check the build'},
      {id: 'c2', schedule: '30 14 6 12 *', recurring: false, prompt: 'ask again'},
    ],
  });
  expect(work).toEqual([
    {kind: 'schedule', what: '*/5 * * * * check the build', service: 'a recurring schedule'},
    {kind: 'schedule', what: '30 14 6 12 * ask again'},
  ]);
  expect(heldBy(work ?? [])).toEqual([{kind: 'schedule', what: '30 14 6 12 * ask again'}]);
});

test("Qwen Code's Stop: its agent tasks and its `crons`", () => {
  expect(
    claudeWork({
      background_tasks: [
        {id: 't1', status: 'running', agent_type: 'explore', description: 'look around'},
        {id: 't2', status: 'completed', agent_type: 'explore', description: 'done already'},
      ],
      crons: [{id: 'c', schedule: '*/5 * * * *', prompt: 'check', recurring: true}],
    }),
  ).toEqual([
    {kind: 'task', what: 'look around'},
    {kind: 'schedule', what: '*/5 * * * * check', service: 'a recurring schedule'},
  ]);
});

test("the payload's words are plain text, bounded", () => {
  const [item] =
    claudeWork({
      background_tasks: [
        {type: 'shell', status: 'running', command: `x\u001b[2J\u007f${'y'.repeat(500)}`},
      ],
    }) ?? [];
  expect(item?.what).not.toMatch(/[\u0000-\u001f\u007f]/);
  expect(item?.what.length).toBeLessThanOrEqual(200);
});

test('a service command is marked by the profile patterns', () => {
  const marked = servicesByPattern(
    [/\bnpm run dev\b/],
    [
      {kind: 'shell', what: 'npm run dev'},
      {kind: 'shell', what: 'npm test'},
    ],
  );
  expect(marked).toEqual([
    {kind: 'shell', what: 'npm run dev', service: 'a service command'},
    {kind: 'shell', what: 'npm test'},
  ]);
  expect(heldBy(marked)).toEqual([{kind: 'shell', what: 'npm test'}]);
});

test('work and services in words', () => {
  expect(describeWork([{kind: 'shell', what: 'sleep 20; echo done'}])).toBe(
    '1 background shell (sleep 20; echo done)',
  );
  expect(
    describeWork([
      {kind: 'shell', what: 'sleep 20'},
      {kind: 'shell', what: 'make -j8 all && make install && make check'},
    ]),
  ).toBe('2 background shells: shell (sleep 20), shell (make -j8 all && make install && make ch…)');
  expect(
    describeWork([
      {kind: 'shell', what: 'sleep 20'},
      {kind: 'subagent', what: 'explore'},
    ]),
  ).toBe('2 background tasks: shell (sleep 20), subagent (explore)');
  expect(
    describeServices([
      {kind: 'shell', what: 'npm run dev', service: listeningOn([5173, 5173, 24678])},
      {kind: 'shell', what: 'sleep 1'},
    ]),
  ).toBe('1 background service left running: npm run dev, listening on :5173, :24678');
  expect(describeServices([{kind: 'shell', what: 'sleep 1'}])).toBe('');
});
