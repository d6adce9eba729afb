import {mkdirSync} from 'node:fs';
import {createServer} from 'node:net';
import {join} from 'node:path';
import {describe, expect, onTestFinished, test} from 'vitest';
import {piSocketOf, postToPi} from '../../../src/doors/pi-door.js';
import {parentsTree} from '../../helpers/fake-tree.js';
import {useTempDir} from '../../helpers/temp-dir.js';

/** A stand-in for the extension: answers each notice line with `answer`, and keeps them. */
async function extension(stateDir: string, pid: number, answer: object | undefined) {
  mkdirSync(join(stateDir, 'doors'), {recursive: true});
  const path = join(stateDir, 'doors', `pi-${pid}.sock`);
  const got: unknown[] = [];
  const server = createServer((c) => {
    c.setEncoding('utf8');
    c.on('data', (line: string) => {
      got.push(JSON.parse(line));
      if (answer) c.end(`${JSON.stringify(answer)}\n`);
      else c.end();
    });
  });
  await new Promise<void>((r) => server.listen(path, r));
  onTestFinished(() => new Promise<void>((r) => server.close(() => r())));
  return {path, got};
}

const tree = parentsTree({300: 100});

describe("Pi's door", () => {
  test('a state folder too long for a socket: no door, and why says so (not "not installed")', async () => {
    const deep = join(useTempDir('pi-door-'), 'x'.repeat(90));
    const why = await piSocketOf(tree, deep, 100);
    expect(why).toEqual({
      why: expect.stringMatching(
        /^Pi's door cannot be made: the socket path .* bytes, over the 10[37] a socket's path may have here; set NUDGE_HOME to a shorter path$/,
      ),
    });
  });

  test('the socket of a Pi in the pane, never of another pane’s', async () => {
    const dir = useTempDir('pi-door-');
    const mine = await extension(dir, 300, {ok: true, delivery: 'submitted'});
    await extension(dir, 500, {ok: true, delivery: 'submitted'});
    expect(await piSocketOf(tree, dir, 100)).toEqual({socket: mine.path});
    expect(await piSocketOf(tree, dir, 999)).toHaveProperty('why');
  });

  test('a notice handed over whole, and the answer read', async () => {
    const dir = useTempDir('pi-door-');
    const ext = await extension(dir, 300, {ok: true, delivery: 'queued'});
    const text = 'Build finished: exit 3. Resume. «ünïcode» 🎉';
    expect(await postToPi(ext.path, text, 5_000)).toEqual({ok: true, delivery: 'queued'});
    expect(ext.got).toEqual([{type: 'notice', text}]);
  });

  test('an extension that says no, or closes without a word: not delivered, and why', async () => {
    const dir = useTempDir('pi-door-');
    const no = await extension(dir, 300, {ok: false, error: 'the session has not started'});
    expect(await postToPi(no.path, 'x', 5_000)).toEqual({
      ok: false,
      why: 'the extension answered: the session has not started',
    });
    const mute = await extension(dir, 301, undefined);
    expect(await postToPi(mute.path, 'x', 5_000)).toEqual({
      ok: false,
      why: 'the extension closed without an answer',
    });
    expect(await postToPi(join(dir, 'none.sock'), 'x', 5_000)).toMatchObject({ok: false});
  });
});
