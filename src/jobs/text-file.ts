import {readFile} from 'node:fs/promises';
import {resolve} from 'node:path';
import {NudgeError} from '../base/errors.js';
import {firstInvalidUtf8} from '../base/utf8.js';
import type {SubmitOptions} from './options.js';
import {MAX_TEXT_BYTES} from './request.js';

/**
 * `--text-file FILE` (`-`: standard input): the text as its bytes say, never decoded with
 * replacement characters; bytes that are not UTF-8 are refused with the offset of the first.
 */
export async function textOfFile(
  o: Pick<SubmitOptions, 'text' | 'textFile'>,
  ctx: {cwd: string; readStdinBytes: (maxBytes: number) => Promise<Uint8Array>},
): Promise<string> {
  const file = o.textFile ?? '';
  if (o.text.trim() !== '')
    throw new NudgeError('bad-usage', 'Give the text after -- or with --text-file, not both.');
  let bytes: Uint8Array;
  if (file === '-') bytes = await ctx.readStdinBytes(MAX_TEXT_BYTES);
  else {
    try {
      bytes = await readFile(resolve(ctx.cwd, file));
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code ?? 'error';
      throw new NudgeError('bad-usage', `--text-file ${file} cannot be read (${code}).`);
    }
  }
  const bad = firstInvalidUtf8(bytes);
  if (bad !== undefined)
    throw new NudgeError(
      'bad-usage',
      `--text-file ${file === '-' ? '- (standard input)' : file} is not UTF-8: byte ${bad} (0x${(bytes[bad] ?? 0).toString(16).padStart(2, '0')}) starts no valid character; convert it (iconv -t UTF-8) and submit again.`,
    );
  return new TextDecoder('utf-8').decode(bytes);
}
