/**
 * A pane's queue as data: the order (the job at work first, then by rank, where a job's id
 * gives its rank until the person moves it) and where `nudge queue move` puts a job.
 */
import {describe, expect, test} from 'vitest';
import {
  inQueueOrder,
  type QueueEntry,
  type QueuePlace,
  rankOf,
  ranksFor,
} from '../../../src/locks/pane-queue.js';

const at = '2026-11-26T00:00:00.000Z';
const entry = (jobId: string, more: Partial<QueueEntry> = {}): QueueEntry => ({
  jobId,
  createdAt: at,
  ...more,
});
const ids = (entries: QueueEntry[]) => inQueueOrder(entries).map((e) => e.jobId);

/** Apply a move the way `nudge queue move` does and return the new order. */
function moved(entries: QueueEntry[], jobId: string, place: QueuePlace): string[] {
  const r = ranksFor(entries, jobId, place);
  if (!r.ok) throw new Error(r.why);
  return ids(entries.map((e) => (r.ranks.has(e.jobId) ? {...e, rank: r.ranks.get(e.jobId)} : e)));
}

describe('the queue order', () => {
  test('by the creation time in the id, then the id; the job at work first', () => {
    expect(rankOf(entry('00000000a-xxxx'))).toBe(10);
    expect(rankOf(entry('00000000a-xxxx', {rank: 3.5}))).toBe(3.5);
    const q = [entry('00000000c-aaaa'), entry('00000000a-bbbb'), entry('00000000a-aaaa')];
    expect(ids(q)).toEqual(['00000000a-aaaa', '00000000a-bbbb', '00000000c-aaaa']);
    q.push(entry('00000000z-aaaa', {taken: true}));
    expect(ids(q)[0]).toBe('00000000z-aaaa');
  });
});

describe('ranksFor', () => {
  const q = [
    entry('000000001-head', {taken: true}),
    entry('000000002-bbbb'),
    entry('000000003-cccc'),
    entry('000000004-dddd'),
  ];
  test('--first puts it next to type, after the job at work', () => {
    expect(moved(q, '000000004-dddd', {first: true})).toEqual([
      '000000001-head',
      '000000004-dddd',
      '000000002-bbbb',
      '000000003-cccc',
    ]);
  });
  test('--before and --after a waiting job', () => {
    expect(moved(q, '000000002-bbbb', {after: '000000004-dddd'})).toEqual([
      '000000001-head',
      '000000003-cccc',
      '000000004-dddd',
      '000000002-bbbb',
    ]);
    expect(moved(q, '000000004-dddd', {before: '000000003-cccc'})).toEqual([
      '000000001-head',
      '000000002-bbbb',
      '000000004-dddd',
      '000000003-cccc',
    ]);
  });
  test('neighbours of one rank (the same millisecond): all numbered anew, in the new order', () => {
    const same = [entry('00000000a-aaaa'), entry('00000000a-bbbb'), entry('00000000a-cccc')];
    expect(moved(same, '00000000a-cccc', {after: '00000000a-aaaa'})).toEqual([
      '00000000a-aaaa',
      '00000000a-cccc',
      '00000000a-bbbb',
    ]);
  });
  test('many moves between the same two jobs keep the order exact', () => {
    let entries = [entry('000000001-aaaa'), entry('000000002-zzzz')];
    for (let i = 0; i < 80; i++) {
      const id = `00000000${(i % 9) + 1}-m${String(i).padStart(3, '0')}`;
      entries.push(entry(id));
      const r = ranksFor(entries, id, {before: '000000002-zzzz'});
      if (!r.ok) throw new Error(r.why);
      entries = entries.map((e) => (r.ranks.has(e.jobId) ? {...e, rank: r.ranks.get(e.jobId)} : e));
      const order = ids(entries);
      expect(order.at(-2)).toBe(id);
      expect(order.at(-1)).toBe('000000002-zzzz');
    }
  });
  test('refused: the job at work, a dropped one, itself as anchor, an anchor not waiting', () => {
    const refused = (jobId: string, place: QueuePlace) => {
      const r = ranksFor([...q, entry('000000005-drop', {dropped: true})], jobId, place);
      return r.ok ? 'moved' : r.why;
    };
    expect(refused('000000001-head', {first: true})).toBe(
      'Job 000000001-head has taken the pane already; it can no longer move.',
    );
    expect(refused('000000005-drop', {first: true})).toBe(
      'Job 000000005-drop is not in the queue.',
    );
    expect(refused('000000002-bbbb', {before: '000000002-bbbb'})).toBe(
      'Job 000000002-bbbb cannot move next to itself.',
    );
    expect(refused('000000002-bbbb', {before: '000000001-head'})).toBe(
      'Job 000000001-head has taken the pane already; place 000000002-bbbb with --first instead.',
    );
    expect(refused('000000002-bbbb', {after: '000000009-none'})).toBe(
      "Job 000000009-none is not waiting in this pane's queue.",
    );
  });
});
