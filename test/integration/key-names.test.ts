/**
 * Keys are keys (issue 61): every name a profile's key fields accept (src/agents/schema.ts,
 * TMUX_KEY_NAME) is pressed into a raw recorder by this tmux, and none types a printable
 * character — what reaches the program is control bytes or an escape sequence, never text a
 * shell would run. Names tmux types as text on some version (`C-1` → `1` on 3.5a and 3.8,
 * `C-S-t` → `T` and `S-Tab` → `S-Tab` on 3.3a, `Space`, the keypad's digits) are refused. The matrix runs this on
 * each tmux (scripts/test-matrix.sh).
 */
import {expect, test} from 'vitest';
import {TMUX_KEY_NAME} from '../../src/agents/keys.js';
import {recorderWorld} from '../helpers/recorder-pane.js';

const NAMED = [
  'Enter',
  'Escape',
  'Tab',
  'BTab',
  'BSpace',
  'Up',
  'Down',
  'Left',
  'Right',
  'Home',
  'End',
  'IC',
  'DC',
  'Insert',
  'Delete',
  'PPage',
  'PgUp',
  'PageUp',
  'NPage',
  'PgDn',
  'PageDown',
  'KPEnter',
  ...Array.from({length: 12}, (_, i) => `F${i + 1}`),
];
const MODIFIERS = ['', 'C-', 'M-', 'S-', 'C-M-', 'C-S-', 'M-S-', 'C-M-S-'];
const LETTERS = 'abcdefghijklmnopqrstuvwxyz'.split('');
/** Every name of the forms the schema takes, and some it must not. */
const CANDIDATES = [
  ...MODIFIERS.flatMap((m) => NAMED.map((k) => `${m}${k}`)),
  ...['C-', 'M-', 'C-M-'].flatMap((m) => LETTERS.map((l) => `${m}${l}`)),
];
const TYPES_TEXT = [
  ...['C-1', 'C-S-t', 'Space', 'KP1', 'KPSlash', 'M-1', 'C-S-x', 'S-e', 'C-;'],
  // tmux 3.3a types these as their own letters ("S-Tab").
  ...['S-Tab', 'S-Enter', 'C-M-Enter', 'C-S-BSpace', 'M-S-Escape', 'S-KPEnter'],
  // 3.5a and 3.8 type these as their own letters.
  ...['C-Escape', 'C-BSpace', 'C-KPEnter'],
];

/** What a key's bytes would type as text: the printable characters outside escape sequences
 * (ESC and the next character, a CSI or SS3 sequence to its final byte). */
function typedText(bytes: Buffer): string {
  const s = bytes.toString('latin1');
  let out = '';
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c === 0x1b) {
      const next = s[i + 1];
      if (next === '[' || next === 'O') {
        i += 2;
        while (i < s.length && !/[@-~]/.test(s[i] ?? '')) i++;
      } else if (next !== '\x1b') i++;
      continue;
    }
    if (c >= 0x20 && c !== 0x7f) out += s[i];
  }
  return out;
}

test('every key name a profile may hold types no text on this tmux; the names that would are refused', async () => {
  const accepted = CANDIDATES.filter((k) => TMUX_KEY_NAME.test(k));
  expect(accepted.length).toBeGreaterThan(200);
  for (const k of TYPES_TEXT) expect(TMUX_KEY_NAME.test(k), k).toBe(false);
  const {server, rec} = await recorderWorld();
  // Each key, then a delimiter no key sends (FS GS FS GS), so each key's bytes are its own.
  const DELIM = Buffer.from([0x1c, 0x1d, 0x1c, 0x1d]);
  for (const key of accepted) {
    await server.tmux('send-keys', '-t', rec.pane, key);
    await server.tmux('send-keys', '-t', rec.pane, '-H', '1c', '1d', '1c', '1d');
  }
  const all = await rec.waitForLength(accepted.length * DELIM.length, 60_000);
  const parts: Buffer[] = [];
  let from = 0;
  for (let at = all.indexOf(DELIM); at >= 0; at = all.indexOf(DELIM, from)) {
    parts.push(all.subarray(from, at));
    from = at + DELIM.length;
  }
  expect(parts.length).toBe(accepted.length);
  const typing = accepted
    .map((key, i) => ({key, text: typedText(parts[i] ?? Buffer.alloc(0))}))
    .filter((t) => t.text !== '');
  expect(typing).toEqual([]);
}, 120_000);
