/**
 * The control-client pool with transports the test counts: jobs of one session share one
 * client, which ends when the last of them closes; another session gets its own; an ended
 * client is never handed out again; a spawn transport is not kept.
 */
import {describe, expect, test} from 'vitest';
import {createControlPool, type Shareable} from '../../../src/tmux/control-pool.js';

function opener(kind: Shareable['kind'] = 'control') {
  const opened: {closed: number; control: {isClosed: boolean}}[] = [];
  const open = async (): Promise<Shareable> => {
    const t = {closed: 0, control: {isClosed: false}};
    opened.push(t);
    return {
      kind,
      control: kind === 'control' ? t.control : undefined,
      close: async () => {
        t.closed++;
        t.control.isClosed = true;
      },
    };
  };
  return {opened, open};
}

describe('createControlPool', () => {
  test('one client per session, ended by the last close only', async () => {
    const pool = createControlPool();
    const {opened, open} = opener();
    const [a, b] = await Promise.all([pool.share('s1', open), pool.share('s1', open)]);
    const c = await pool.share('s2', open);
    expect(opened).toHaveLength(2);
    await a.close();
    await a.close();
    expect(opened[0]?.closed).toBe(0);
    await b.close();
    expect(opened[0]?.closed).toBe(1);
    await c.close();
    expect(pool.size).toBe(0);
  });

  test('an ended client is not handed out again', async () => {
    const pool = createControlPool();
    const {opened, open} = opener();
    const a = await pool.share('s1', open);
    if (opened[0]) opened[0].control.isClosed = true; // the session was killed
    const b = await pool.share('s1', open);
    expect(opened).toHaveLength(2);
    await a.close();
    expect(opened[1]?.closed).toBe(0);
    await b.close();
    expect(opened[1]?.closed).toBe(1);
  });

  test('a spawn transport is not kept', async () => {
    const pool = createControlPool();
    const {opened, open} = opener('spawn');
    await pool.share('s1', open);
    await pool.share('s1', open);
    expect(opened).toHaveLength(2);
    expect(pool.size).toBe(0);
  });
});
