import {mkdtemp, readFile, rm, writeFile} from 'node:fs/promises';
import {tmpdir} from 'node:os';
import {join} from 'node:path';
import {startProcess} from './spawn.js';

/**
 * Open the person's editor (`$VISUAL`, else `$EDITOR`, else `vi`) on `text` in a private
 * temporary file and return what they saved, or why not. The variable is split on spaces into
 * a program and its arguments (`code --wait`): no shell reads it.
 */
export async function editInEditor(
  text: string,
  env: Record<string, string | undefined>,
): Promise<{ok: true; text: string} | {ok: false; why: string}> {
  const words = (env.VISUAL || env.EDITOR || 'vi').trim().split(/\s+/);
  const [program, ...args] = words as [string, ...string[]];
  const dir = await mkdtemp(join(tmpdir(), 'nudge-edit-'));
  const file = join(dir, 'text.txt');
  try {
    await writeFile(file, text, {mode: 0o600});
    const status = await new Promise<number | string>((resolve) => {
      const child = startProcess(program, [...args, file], {stdio: 'inherit'});
      child.on('error', (error) => resolve((error as NodeJS.ErrnoException).code ?? 'failed'));
      child.on('exit', (code, signal) => resolve(code ?? signal ?? 'failed'));
    });
    if (status !== 0)
      return {
        ok: false,
        why:
          status === 'ENOENT'
            ? `the editor ${program} was not found (set $EDITOR)`
            : `the editor ${program} ended with ${status}`,
      };
    return {ok: true, text: await readFile(file, 'utf8')};
  } finally {
    await rm(dir, {recursive: true, force: true});
  }
}
