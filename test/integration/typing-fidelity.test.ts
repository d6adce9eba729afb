// Byte-for-byte typing fidelity: a raw-mode recorder in the pane appends every byte its tty
// receives to a file; what nudge typed must be exactly what was asked, once, in order.
import {mkdirSync, writeFileSync} from 'node:fs';
import {join} from 'node:path';
import {describe, expect, it} from 'vitest';
import {hex, type RecorderPane, recorderWorld} from '../helpers/recorder-pane.js';
import {runNudge, submitArgv} from '../helpers/run-nudge.js';

const CR = Buffer.from([0x0d]);
const ESCAPE_CTRL_U = Buffer.from([0x1b, 0x15]);

/** All 95 printable ASCII characters, space to tilde. */
const PRINTABLE_ASCII = Array.from({length: 95}, (_, i) => String.fromCharCode(0x20 + i)).join('');

/** Compare what the recorder got with `expected`, as hex (readable diff). Waits a little
 * for the bytes to land in the file; a short or long recording fails with both shown. */
async function expectRecorded(rec: RecorderPane, expected: Buffer): Promise<void> {
  const got = await rec.waitForLength(expected.length, 5_000).catch(() => rec.bytes());
  expect(hex(got), `recorded ${JSON.stringify(got.toString('utf8'))}`).toBe(hex(expected));
}

/** Type `text` into a fresh recorder pane with `submit --wait`; resolve to the recorder. */
async function typeIntoRecorder(
  text: string,
  opts: {typeDelay: string; enter?: boolean; clear?: boolean; profileFile?: string},
): Promise<RecorderPane> {
  const {server, rec, home} = await recorderWorld();
  // A profile file of the user's for the recorder (`--profile recorder`), when given.
  const config = join(home, 'config');
  if (opts.profileFile) {
    mkdirSync(join(config, 'nudge', 'agents'), {recursive: true});
    writeFileSync(join(config, 'nudge', 'agents', 'recorder.toml'), opts.profileFile);
  }
  const r = await runNudge(
    submitArgv(
      server.socket,
      rec.pane,
      {
        clear: opts.clear === true,
        profile: opts.profileFile ? 'recorder' : undefined,
        enter: opts.enter === true,
        notice: false,
        delay: 0,
        typeDelay: opts.typeDelay,
        wait: true,
      },
      text,
    ),
    {NUDGE_HOME: home, XDG_CONFIG_HOME: config},
  );
  expect(r.exitCode, `stdout: ${r.stdout}\nstderr: ${r.stderr}`).toBe(0);
  expect(r.stdout).toMatch(/^\S+ done\b/);
  return rec;
}

/** Texts that must arrive verbatim. Each is typed alone into its own recorder. */
const TEXTS: Array<[name: string, text: string]> = [
  ['all 95 printable ASCII characters', PRINTABLE_ASCII],
  ['exactly ";"', ';'],
  ['a text ending in ";"', 'echo one; echo two;'],
  ['exactly "\\;"', '\\;'],
  ['"a\\;" (one backslash before a final ;)', 'a\\;'],
  ['"a\\\\;" (two backslashes before a final ;)', 'a\\\\;'],
  ['a text starting with "-"', '-x --flag -- value'],
  ['exactly "-"', '-'],
  ['exactly "--"', '--'],
  ['exactly "-l"', '-l'],
  ['the key name "Enter"', 'Enter'],
  ['the key name "C-u"', 'C-u'],
  ['the key name "Escape"', 'Escape'],
  ['the key name "F1"', 'F1'],
  ['the key name "Space"', 'Space'],
  ['the key name "BSpace"', 'BSpace'],
  ['the key name "^A"', '^A'],
  ['key names among words', 'press Enter then C-u and Escape'],
  ['a tab', 'a\tb\tc'],
  ['tmux formats, shell expansions and quotes', `#{pane_id} $HOME ~ '" \`whoami\` $(id) \\n %%`],
  ['two-, three- and four-byte UTF-8', 'é€😀'],
  ['CJK', '漢字テスト'],
  ['an emoji ZWJ sequence and a flag', '👩‍👩‍👧‍👦 🇫🇷 e\u0301'],
];

describe.each([
  ['1ms', 'one character per tmux call'],
  ['0', 'the whole line in one tmux call'],
])('--type-delay %s (%s)', (typeDelay) => {
  it.each(TEXTS)('types %s verbatim', async (_name, text) => {
    const rec = await typeIntoRecorder(text, {typeDelay});
    await expectRecorded(rec, Buffer.from(text, 'utf8'));
  });

  it('presses Enter (0x0d) after the text unless --no-enter', async () => {
    const rec = await typeIntoRecorder(PRINTABLE_ASCII, {typeDelay, enter: true});
    await expectRecorded(rec, Buffer.concat([Buffer.from(PRINTABLE_ASCII), CR]));
  });

  it('turns a newline in the text into Enter (0x0d) between the lines', async () => {
    const rec = await typeIntoRecorder('echo one\necho two', {typeDelay});
    await expectRecorded(rec, Buffer.from('echo one\recho two'));
  });
});

describe('newlines and Enter', () => {
  it('types a CRLF as one Enter, and still presses the final Enter', async () => {
    const rec = await typeIntoRecorder('first\r\nsecond;', {typeDelay: '1ms', enter: true});
    await expectRecorded(rec, Buffer.from('first\rsecond;\r'));
  });
});

describe('clearing the input line', () => {
  it('a program nudge does not know is never cleared: the text and Enter, nothing before', async () => {
    const rec = await typeIntoRecorder('ls -la;', {typeDelay: '1ms', enter: true, clear: true});
    await expectRecorded(rec, Buffer.concat([Buffer.from('ls -la;'), CR]));
  });

  it("a profile's clear keys go before the text, each as given (a user file: Escape, then C-u)", async () => {
    const rec = await typeIntoRecorder('ls -la;', {
      typeDelay: '1ms',
      enter: true,
      clear: true,
      profileFile:
        "name = 'recorder'\nkind = 'raw'\nclearKeys = [['Escape'], ['C-u']]\nminEnterDelayMs = 0\nbusy = []\n",
    });
    await expectRecorded(rec, Buffer.concat([ESCAPE_CTRL_U, Buffer.from('ls -la;'), CR]));
  });
});
