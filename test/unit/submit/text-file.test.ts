import {writeFileSync} from 'node:fs';
import {join} from 'node:path';
import {expect, test} from 'vitest';
import {textOfFile} from '../../../src/submit/text-file.js';
import {useTempDir} from '../../helpers/temp-dir.js';

const TEXT = 'fix the "parser";\n$HOME `x` é€😀 漢字\ttab';

function ctx(stdin: Uint8Array = new Uint8Array()) {
  return {cwd: useTempDir('nudge-text-'), readStdinBytes: async () => stdin};
}

test('a file, relative to the working folder, and standard input: the text byte for byte', async () => {
  const c = ctx(Buffer.from(TEXT));
  writeFileSync(join(c.cwd, 'prompt.txt'), TEXT);
  expect(await textOfFile({text: '', textFile: 'prompt.txt'}, c)).toBe(TEXT);
  expect(await textOfFile({text: '', textFile: '-'}, c)).toBe(TEXT);
});

test('bytes that are not UTF-8 are refused with the offset of the first, never replaced', async () => {
  const c = ctx(Buffer.from([0x61, 0xff]));
  await expect(textOfFile({text: '', textFile: '-'}, c)).rejects.toThrow(
    '--text-file - (standard input) is not UTF-8: byte 1 (0xff) starts no valid character',
  );
});

test('text given twice, or a file that cannot be read: one sentence each', async () => {
  const c = ctx();
  await expect(textOfFile({text: 'words', textFile: 'x'}, c)).rejects.toThrow(
    'Give the text after -- or with --text-file, not both.',
  );
  await expect(textOfFile({text: '', textFile: 'missing.txt'}, c)).rejects.toThrow(
    '--text-file missing.txt cannot be read (ENOENT).',
  );
});
