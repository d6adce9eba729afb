import {readdir} from 'node:fs/promises';
import {createConnection} from 'node:net';
import {join} from 'node:path';
import {socketPathProblem} from '../base/paths.js';
import {thisProcess} from '../base/this-process.js';
import {descendsFrom, type ProcessTree} from '../process/tree.js';

/**
 * Pi's door: the extension `nudge install pi` writes (data/hooks/pi-extension.ts) listens in
 * each interactive session on `<state dir>/doors/pi-<pid>.sock` and hands a notice to the
 * agent with `pi.sendUserMessage` — a prompt when idle, a follow-up while it works.
 */

/** The socket of the pane's Pi session: the one whose process is in the pane. */
export async function piSocketOf(
  tree: ProcessTree,
  stateDir: string,
  panePid: number,
): Promise<{socket: string} | {why: string}> {
  const dir = join(stateDir, 'doors');
  const names = await readdir(dir).catch(() => [] as string[]);
  for (const name of names) {
    const pid = Number(/^pi-(\d+)\.sock$/.exec(name)?.[1]);
    if (pid > 0 && (await descendsFrom(tree, pid, panePid))) return {socket: join(dir, name)};
  }
  // The extension makes no socket where its path cannot fit (the longest pid's name).
  const tooLong = socketPathProblem(join(dir, `pi-${'9'.repeat(7)}.sock`), thisProcess.platform);
  if (tooLong) return {why: `Pi's door cannot be made: ${tooLong}`};
  return {
    why: `no nudge extension listens for this pane's Pi in ${dir} (nudge install pi installs it; Pi loads it when it starts)`,
  };
}

/** Hand `text` to the extension and read its answer (within `timeoutMs`). */
export function postToPi(
  socket: string,
  text: string,
  timeoutMs: number,
): Promise<{ok: true; delivery: 'submitted' | 'queued'} | {ok: false; why: string}> {
  return new Promise((resolve) => {
    let got = '';
    const c = createConnection(socket);
    const done = (r: Awaited<ReturnType<typeof postToPi>>) => {
      c.destroy();
      resolve(r);
    };
    c.setTimeout(timeoutMs, () => done({ok: false, why: `no answer within ${timeoutMs} ms`}));
    c.on('error', (e: NodeJS.ErrnoException) =>
      done({ok: false, why: `${socket} refused the notice: ${e.code ?? e.message}`}),
    );
    c.on('connect', () => c.write(`${JSON.stringify({type: 'notice', text})}\n`));
    c.setEncoding('utf8');
    c.on('data', (chunk: string) => {
      got += chunk;
      const end = got.indexOf('\n');
      if (end < 0) return;
      try {
        const a = JSON.parse(got.slice(0, end)) as {
          ok?: unknown;
          delivery?: unknown;
          error?: unknown;
        };
        if (a.ok === true && (a.delivery === 'submitted' || a.delivery === 'queued'))
          return done({ok: true, delivery: a.delivery});
        done({ok: false, why: `the extension answered: ${String(a.error ?? 'no')}`});
      } catch {
        done({ok: false, why: 'the extension answered something else than JSON'});
      }
    });
    c.on('end', () => done({ok: false, why: 'the extension closed without an answer'}));
  });
}
