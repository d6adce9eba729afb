import {resolve} from 'node:path';
import {ReadRefused, readCapped, readFailure} from '../base/bounded-read.js';
import {NudgeError} from '../base/errors.js';
import {firstInvalidUtf8} from '../base/utf8.js';
import {MAX_TEXT_BYTES} from '../job-options/limits.js';
import type {SubmitOptions} from '../job-options/table.js';

/**
 * `--text-file FILE` (`-`: standard input): the text as its bytes say, never decoded with
 * replacement characters; bytes that are not UTF-8 are refused with the offset of the first.
 * A file is read only when it is a regular one (a FIFO or `/dev/zero` is refused before a byte
 * is read) and never past the text limit (src/base/bounded-read.ts); standard input stops
 * being read one byte past it.
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
      bytes = await readCapped(resolve(ctx.cwd, file), MAX_TEXT_BYTES);
    } catch (error) {
      if (error instanceof ReadRefused && error.why === 'too-big') throw tooLong(file);
      throw new NudgeError('bad-usage', `--text-file ${file} ${readFailure(error)}.`);
    }
  }
  if (bytes.length > MAX_TEXT_BYTES) throw tooLong(file);
  const bad = firstInvalidUtf8(bytes);
  if (bad !== undefined)
    throw new NudgeError(
      'bad-usage',
      `--text-file ${file === '-' ? '- (standard input)' : file} is not UTF-8: byte ${bad} (0x${(bytes[bad] ?? 0).toString(16).padStart(2, '0')}) starts no valid character; convert it (iconv -t UTF-8) and submit again.`,
    );
  return new TextDecoder('utf-8').decode(bytes);
}

function tooLong(file: string): NudgeError {
  return new NudgeError(
    'text-too-long',
    `--text-file ${file === '-' ? '- (standard input)' : file} holds more than the ${MAX_TEXT_BYTES}-byte text limit; put it in a file and type a command that reads it.`,
  );
}
