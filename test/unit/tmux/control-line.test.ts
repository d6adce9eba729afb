import {describe, expect, test} from 'vitest';
import {
  canRunOverControl,
  quoteControlArgument,
  splitArgvCommands,
  toControlLine,
} from '../../../src/tmux/control-line.js';
import {modeGuard} from '../../../src/tmux/mode-guard.js';
import {literalArgument} from '../../../src/tmux/typing.js';

/**
 * Read one token the way tmux's parser (cmd-parse.y, yylex_token) reads the subset our
 * encoder writes: '...' literal, \x outside single quotes escapes x, "..." with \ooo octal.
 * Used to check round trips over many strings; the integration tests check real tmux.
 */
function readToken(token: string): string {
  const bytes: number[] = [];
  let state: 'none' | 'single' | 'double' = 'none';
  const text = Buffer.from(token, 'utf8');
  for (let i = 0; i < text.length; i++) {
    const c = text[i]!;
    if (state === 'single') {
      if (c === 0x27) state = 'none';
      else bytes.push(c);
    } else if (c === 0x5c) {
      const next = String.fromCharCode(text[i + 1]!);
      if (/[0-3]/.test(next)) {
        bytes.push(Number.parseInt(text.subarray(i + 1, i + 4).toString('latin1'), 8));
        i += 3;
      } else {
        bytes.push(text[i + 1]!);
        i += 1;
      }
    } else if (c === 0x27 && state === 'none') state = 'single';
    else if (c === 0x22) state = state === 'double' ? 'none' : 'double';
    else if (state === 'none' && (c === 0x20 || c === 0x3b)) throw new Error('token ended');
    else bytes.push(c);
  }
  if (state !== 'none') throw new Error(`unterminated quote in ${token}`);
  return Buffer.from(bytes).toString('utf8');
}

/** Printable ASCII, space to tilde. */
const PRINTABLE_ASCII = Array.from({length: 95}, (_, i) => String.fromCharCode(0x20 + i)).join('');
/** Every control character tmux can receive: 0x01-0x1f and DEL. */
const CONTROLS = `${Array.from({length: 31}, (_, i) => String.fromCharCode(i + 1)).join('')}\x7f`;

describe('splitArgvCommands (tmux argv rules, cmd_parse_from_arguments)', () => {
  test('a ";" element separates commands', () => {
    expect(splitArgvCommands(['capture-pane', '-p', ';', 'display-message', '-p', 'x'])).toEqual([
      ['capture-pane', '-p'],
      ['display-message', '-p', 'x'],
    ]);
  });
  test('an argument ending in ";" ends the command and loses the ";"', () => {
    expect(splitArgvCommands(['send-keys', '-l', 'a;', 'display-message'])).toEqual([
      ['send-keys', '-l', 'a'],
      ['display-message'],
    ]);
  });
  test('"\\;" at the end is one literal ";" (how literalArgument escapes)', () => {
    expect(splitArgvCommands(['send-keys', '-l', '--', '\\;'])).toEqual([
      ['send-keys', '-l', '--', ';'],
    ]);
    expect(splitArgvCommands(['send-keys', '-l', '--', 'a\\\\;'])).toEqual([
      ['send-keys', '-l', '--', 'a\\;'],
    ]);
  });
  test('only the last character counts: ";" or "\\;" elsewhere is text', () => {
    expect(splitArgvCommands(['send-keys', '-l', 'a;b', 'x\\;y'])).toEqual([
      ['send-keys', '-l', 'a;b', 'x\\;y'],
    ]);
  });
  test('empty commands are dropped', () => {
    expect(splitArgvCommands([';', 'kill-pane', ';', ';'])).toEqual([['kill-pane']]);
    expect(splitArgvCommands([';'])).toEqual([]);
    expect(splitArgvCommands([])).toEqual([]);
  });
  test('an empty argument is kept', () => {
    expect(splitArgvCommands(['display-message', '-p', ''])).toEqual([
      ['display-message', '-p', ''],
    ]);
  });
  test('literalArgument(x) always comes back as x', () => {
    const texts = [';', 'a;', ';;', '\\;', 'a\\;', 'a\\\\;', '\\', 'x\\', PRINTABLE_ASCII, 'é€😀'];
    for (const text of texts) {
      const [command] = splitArgvCommands(['send-keys', '-l', '--', literalArgument(text)]);
      expect(command?.at(-1), JSON.stringify(text)).toBe(text);
    }
  });
});

describe('quoteControlArgument', () => {
  test("single-quotes printable text, with '\\'' for a quote", () => {
    expect(quoteControlArgument('%0')).toBe("'%0'");
    expect(quoteControlArgument('')).toBe("''");
    expect(quoteControlArgument("it's")).toBe("'it'\\''s'");
    expect(quoteControlArgument('#{pane_id} $HOME ~ ; {x} \\')).toBe(
      "'#{pane_id} $HOME ~ ; {x} \\'",
    );
    expect(quoteControlArgument('é€😀')).toBe("'é€😀'");
  });
  test('control characters become octal escapes in double quotes', () => {
    expect(quoteControlArgument('a\nb')).toBe(`'a'"\\012"'b'`);
    expect(quoteControlArgument('\r\n')).toBe(`"\\015\\012"`);
    expect(quoteControlArgument('\ttab')).toBe(`"\\011"'tab'`);
    expect(quoteControlArgument('x\x7f')).toBe(`'x'"\\177"`);
  });
  test('the result never holds a control character', () => {
    const quoted = quoteControlArgument(`${CONTROLS}${PRINTABLE_ASCII}${CONTROLS}`);
    expect(quoted).not.toMatch(/[\x00-\x1f\x7f]/);
  });
  test('reads back as the same text, for every character class mixed', () => {
    const alphabet = [...PRINTABLE_ASCII, ...CONTROLS, 'é', '€', '😀', '漢', "'", '"', '\\'];
    let seed = 7;
    const random = () => {
      seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31;
      return seed / 2 ** 31;
    };
    for (let n = 0; n < 500; n++) {
      const length = Math.floor(random() * 12);
      const text = Array.from({length}, () => alphabet[Math.floor(random() * alphabet.length)]);
      const arg = text.join('');
      expect(readToken(quoteControlArgument(arg)), JSON.stringify(arg)).toBe(arg);
    }
  });
});

describe('toControlLine', () => {
  test('one command, every argument quoted, the name bare', () => {
    expect(toControlLine(['send-keys', '-t', '%3', '-l', '--', 'echo hi'])).toEqual({
      ok: true,
      value: {line: "send-keys '-t' '%3' '-l' '--' 'echo hi'", commands: 1},
    });
  });
  test('a chained call becomes one line with bare ";" separators', () => {
    const r = toControlLine([
      'capture-pane',
      '-p',
      '-t',
      '%1',
      ';',
      'display-message',
      '-p',
      '-t',
      '%1',
      '#{cursor_x},#{cursor_y}',
    ]);
    expect(r).toEqual({
      ok: true,
      value: {
        line: "capture-pane '-p' '-t' '%1' ; display-message '-p' '-t' '%1' '#{cursor_x},#{cursor_y}'",
        commands: 2,
      },
    });
  });
  test('typed text escaped for argv comes out as the literal text', () => {
    expect(toControlLine(['send-keys', '-t', '%0', '-l', '--', literalArgument('a;')])).toEqual({
      ok: true,
      value: {line: "send-keys '-t' '%0' '-l' '--' 'a;'", commands: 1},
    });
    expect(toControlLine(['send-keys', '-t', '%0', '-l', '--', literalArgument(';')])).toEqual({
      ok: true,
      value: {line: "send-keys '-t' '%0' '-l' '--' ';'", commands: 1},
    });
  });
  test('a line holds no newline or other control character, and is never empty', () => {
    const r = toControlLine(['send-keys', '-t', '%0', '-l', '--', `x${CONTROLS}y`]);
    expect(r.ok).toBe(true);
    if (r.ok) {
      expect(r.value.line).not.toMatch(/[\x00-\x1f\x7f]/);
      expect(r.value.line.length).toBeGreaterThan(0);
    }
  });
  test('refuses what cannot be sent or matched', () => {
    expect(toControlLine([])).toMatchObject({ok: false});
    expect(toControlLine([';', ';'])).toMatchObject({ok: false});
    expect(toControlLine(['send-keys', '-l', 'a\0b'])).toMatchObject({
      ok: false,
      error: expect.stringMatching(/NUL/),
    });
    expect(toControlLine(['FOO=bar'])).toMatchObject({ok: false});
    for (const name of ['if-shell', 'run-shell', 'source-file', 'wait-for', 'refresh-client']) {
      expect(toControlLine([name, 'x']), name).toMatchObject({ok: false});
      expect(canRunOverControl([name])).toBe(false);
    }
    expect(toControlLine(['display-message', '-p', 'x', ';', 'attach-session'])).toMatchObject({
      ok: false,
    });
    expect(canRunOverControl(['capture-pane', '-p', '-t', '%0'])).toBe(true);
  });

  test("the mode guard's if-shell, and no other, runs over control", () => {
    const guard = modeGuard('%3');
    expect(toControlLine([...guard, 'send-keys', '-t', '%3', '-l', '--', 'x'])).toMatchObject({
      ok: true,
      value: {commands: 4},
    });
    const ifAt = guard.indexOf('if-shell');
    for (const change of [
      [ifAt + 5, 'run-shell "touch /tmp/x"'],
      [ifAt + 5, 'set-option -p -t %4 @nudge-mode-guard 1'],
      [ifAt + 4, '#{pane_dead}'],
      [ifAt + 1, '-b'],
    ] as const) {
      const args = [...guard];
      args[change[0]] = change[1];
      expect(canRunOverControl(args), JSON.stringify(change)).toBe(false);
    }
    expect(canRunOverControl(['if-shell', '-F', '-t', '%3', '#{pane_in_mode}'])).toBe(false);
  });
});
