import {uniqueSuffix} from '../base/fs.js';
import {dropFence, type Fence, fencingRunner, takeFence} from './fence.js';
import {joinFormat, splitFields} from './format.js';
import {guardedInput} from './mode-guard.js';
import {PANE_FORMAT, type PaneInfo, parsePaneInfo} from './pane-info.js';
import type {PaneStateRow} from './pane-options.js';
import * as options from './pane-options.js';
import {TmuxCommandError, type TmuxRunner} from './runner.js';
import {literalArgument} from './typing.js';
import {type PaneView, parsePaneView, VIEW_FORMAT} from './view.js';

export type {PaneInfo} from './pane-info.js';

/** The tmux operations nudge needs, over some transport. */
export interface Tmux {
  /** Resolve `target` (`%N`, `session:window.pane`, ...) to a pane; undefined if none. */
  describePane(target: string): Promise<PaneInfo | undefined>;
  /** The pane's visible screen plus up to `historyRows` rows of scrollback above it, with
   * the counters needed to number rows absolutely, taken in one tmux call. Throws
   * TmuxCommandError('no-target') when the pane is gone. */
  view(paneId: string, historyRows: number): Promise<PaneView>;
  /** The line the cursor is on, wrapped rows joined (`capture-pane -J`): the whole of a
   * command longer than the pane is wide. `rowsAbove`: how far up it may start. */
  cursorLogicalLine(paneId: string, rowsAbove: number): Promise<string>;
  /** Type `chars` literally, one key event per character, in one tmux call. */
  typeLiteral(paneId: string, chars: string): Promise<void>;
  /** Paste `text` as one bracketed paste (if the program asked for bracketed pastes), LF
   * kept as LF: a picker cannot open mid-word and newlines do not submit. */
  paste(paneId: string, text: string): Promise<void>;
  /** Press keys by tmux key name (`Enter`, `Escape`, `C-u`). */
  pressKeys(paneId: string, keys: readonly string[]): Promise<void>;
  /** Mark the pane, in the tmux server, as held by `token` (src/tmux/fence.ts); with its
   * lock held. */
  takeFence(paneId: string, token: string): Promise<Fence>;
  /** Remove the mark `takeFence` set (no error when it is gone). */
  dropFence(fence: Fence): Promise<void>;
  /** These operations, with every key and paste sent only while `current()`'s mark is still
   * on its pane (tmux refuses it otherwise: FenceLost); as they are while it is undefined. */
  fenced(current: () => Fence | undefined): Tmux;
  /** Leave copy mode or any other mode; a no-op when the pane is in none. */
  leaveMode(paneId: string): Promise<void>;
  /** Close the pane (`expect --action close_pane`). */
  killPane(paneId: string): Promise<void>;
  /** Open a new pane running the default shell in `cwd`, without making it the active one:
   * a window at the end of `session`, or a split of the window of pane `of` (`h`: side by
   * side, `v`: one above the other). Resolves to its pane id. */
  openPane(where: PanePlace, cwd: string): Promise<string>;
  /** The session used most recently (`#{session_activity}`), if the server has any. */
  recentSession(): Promise<string | undefined>;
  /** Set the pane's user option `option` (`@name`) to `value`; undefined unsets it. */
  markPane(paneId: string, option: string, value: string | undefined): Promise<void>;
  /** Set (or unset) one of nudge's server options; the value is shown as a tmux format. */
  markServer(option: string, value: string | undefined): Promise<void>;
  /** The value of the pane's user option `option`, undefined when it is not set. */
  paneMark(paneId: string, option: string): Promise<string | undefined>;
  /** Every pane of the server whose user option `option` is set, with its value. */
  panesMarked(option: string): Promise<Array<{paneId: string; value: string}>>;
  /** Every pane of the server with nudge's state options (@nudge-state, …). */
  paneStates(): Promise<PaneStateRow[]>;
  /** Bring a client (by name; else the current one) to the pane: its session, window and
   * pane made current. */
  jumpToPane(paneId: string, client: string | undefined): Promise<void>;
  /** The pane of the client named `client`; a message on its status line (display-time). */
  clientPane(client: string): Promise<string | undefined>;
  tellClient(client: string, text: string): Promise<void>;
  /** Tell the people at this server `text`: the pane's user option `@nudge` (a status bar
   * can show it) and a message on every attached client. Resolves to the clients' terminals
   * (their tty paths). */
  announce(paneId: string, text: string): Promise<string[]>;
}

/** Where `openPane` puts a new pane. */
export type PanePlace =
  /** A session of its own (the server started with it when none runs: nudge recover). */
  | {kind: 'session'; name: string}
  | {kind: 'window'; session: string}
  | {kind: 'split'; of: string; direction: 'h' | 'v'};

/** Split chained output: everything before the last line, and the last line. */
function splitLastLine(stdout: string): [string, string] {
  const trimmed = stdout.endsWith('\n') ? stdout.slice(0, -1) : stdout;
  const i = trimmed.lastIndexOf('\n');
  return i < 0 ? ['', trimmed] : [trimmed.slice(0, i), trimmed.slice(i + 1)];
}

/** The largest argument we hand tmux in one call: the client packs argv into one 16 KiB
 * message, so stay far below it (test/integration/typing-fidelity.test.ts types 100,000). */
const MAX_LITERAL_BYTES = 8_000;

/** Split `text` into chunks of at most MAX_LITERAL_BYTES UTF-8 bytes, on character bounds. */
export function chunkForArgv(text: string, maxBytes = MAX_LITERAL_BYTES): string[] {
  const chunks: string[] = [];
  let current = '';
  let bytes = 0;
  for (const ch of text) {
    const size = Buffer.byteLength(ch, 'utf8');
    if (bytes + size > maxBytes && current) {
      chunks.push(current);
      current = '';
      bytes = 0;
    }
    current += ch;
    bytes += size;
  }
  if (current) chunks.push(current);
  return chunks;
}

/** Build the Tmux operations over a runner. Every call names its pane explicitly with `-t`:
 * a tmux command without -t from inside a pane targets the window's *active* pane. */
export function createTmux(runner: TmuxRunner): Tmux {
  return {
    ...reading(runner),
    ...typing(runner),
    takeFence: (paneId, token) => takeFence(runner, paneId, token),
    dropFence: (fence) => dropFence(runner, fence),
    fenced: (current) => createTmux(fencingRunner(runner, current)),

    ...panes(runner),
  };
}

/** What a look at a pane and its marks takes. */
function reading(runner: TmuxRunner) {
  return {
    async describePane(target) {
      // display-message never fails on a bad target (it falls back to another pane), so a
      // capture of one line goes first: it fails properly, and tmux drops the rest of the
      // chain when one command fails.
      let stdout: string;
      try {
        stdout = await runner.run([
          'capture-pane',
          '-p',
          '-t',
          target,
          '-S',
          '0',
          '-E',
          '0',
          ';',
          'display-message',
          '-p',
          '-t',
          target,
          PANE_FORMAT,
        ]);
      } catch (error) {
        if (error instanceof TmuxCommandError && error.kind === 'no-target') return undefined;
        throw error;
      }
      return parsePaneInfo(splitLastLine(stdout)[1]);
    },

    async view(paneId, historyRows) {
      // display first, then the capture, in one chained call: tmux runs a command list
      // without reading pane output in between, so the counters match the captured rows.
      const stdout = await runner.run([
        'display-message',
        '-p',
        '-t',
        paneId,
        VIEW_FORMAT,
        ';',
        'capture-pane',
        '-p',
        '-t',
        paneId,
        '-S',
        String(-Math.max(0, Math.floor(historyRows))),
      ]);
      return parsePaneView(stdout);
    },

    cursorLogicalLine: (paneId, rowsAbove) => options.cursorLogicalLine(runner, paneId, rowsAbove),
    markPane: (paneId, option, value) => options.markPane(runner, paneId, option, value),
    markServer: (option, value) => options.markServer(runner, option, value),
    paneMark: (paneId, option) => options.paneMark(runner, paneId, option),
    panesMarked: (option) => options.panesMarked(runner, option),
    paneStates: () => options.paneStates(runner),
    jumpToPane: (paneId, client) => options.jumpToPane(runner, paneId, client),
    clientPane: (client) => options.clientPane(runner, client),
    tellClient: (client, text) => options.tellClient(runner, client, text),
  } satisfies Partial<Tmux>;
}

/** Keys into a pane, each behind the mode guard (guardedInput). */
function typing(runner: TmuxRunner) {
  return {
    async typeLiteral(paneId, chars) {
      // -l: no key-name lookup; --: a leading "-" is text. tmux still injects one key event
      // per character (cmd-send-keys.c), so this is typing, not a paste.
      // Behind the mode guard: no key goes to a pane a person put in copy mode meanwhile.
      for (const chunk of chunkForArgv(chars)) {
        await guardedInput(runner, paneId, [
          'send-keys',
          '-t',
          paneId,
          '-l',
          '--',
          literalArgument(chunk),
        ]);
      }
    },

    async paste(paneId, text) {
      // A named buffer of our own, deleted by the paste (-d): the user's buffers stay as
      // they were. -p: bracketed paste; -r: keep LF (no LF→CR, which would submit lines).
      const buffer = `nudge-${uniqueSuffix()}`;
      await guardedInput(runner, paneId, [
        'set-buffer',
        '-b',
        buffer,
        '--',
        literalArgument(text),
        ';',
        'paste-buffer',
        '-p',
        '-r',
        '-d',
        '-b',
        buffer,
        '-t',
        paneId,
      ]);
    },

    async pressKeys(paneId, keys) {
      if (keys.length === 0) return;
      await guardedInput(runner, paneId, ['send-keys', '-t', paneId, ...keys]);
    },

    async leaveMode(paneId) {
      // -q: exit 0 even when the pane is in no mode (tmux >= 3.2).
      await runner.run(['copy-mode', '-q', '-t', paneId]);
    },
  } satisfies Partial<Tmux>;
}

/** Panes opened, closed and announced in. */
function panes(runner: TmuxRunner) {
  return {
    killPane: async (paneId) => void (await runner.run(['kill-pane', '-t', paneId])),

    async announce(paneId, text) {
      await runner.run(['set-option', '-p', '-t', paneId, '@nudge', text]);
      const clients = await runner.run([
        'list-clients',
        '-F',
        joinFormat(['#{client_name}', '#{client_tty}']),
      ]);
      const ttys: string[] = [];
      for (const line of clients.split('\n').filter(Boolean)) {
        const [name, tty] = splitFields(line, 2) ?? [];
        if (!name) continue;
        // The message is a format: a literal # is ##.
        await runner.run([
          'display-message',
          '-c',
          name,
          '-d',
          '10000',
          text.replaceAll('#', '##'),
        ]);
        if (tty) ttys.push(tty);
      }
      return ttys;
    },

    async openPane(where, cwd) {
      // -d: the person's active window and pane stay as they are; -P -F: print the new id.
      const place =
        where.kind === 'session'
          ? ['new-session', '-d', '-s', where.name, '-x', '200', '-y', '50']
          : where.kind === 'window'
            ? ['new-window', '-d', '-t', `${where.session}:`]
            : ['split-window', '-d', `-${where.direction}`, '-t', where.of];
      const stdout = await runner.run([...place, '-c', cwd, '-P', '-F', '#{pane_id}']);
      const id = stdout.trim();
      if (!/^%\d+$/.test(id)) throw new Error(`tmux printed ${JSON.stringify(id)} for a new pane`);
      return id;
    },

    async recentSession() {
      const stdout = await runner.run([
        'list-sessions',
        '-F',
        joinFormat(['session_activity', 'session_id']),
      ]);
      let best: {at: number; id: string} | undefined;
      for (const line of stdout.split('\n')) {
        const [at, id] = splitFields(line, 2) ?? [];
        if (!id) continue;
        const n = Number(at);
        if (!best || n > best.at) best = {at: n, id};
      }
      return best?.id;
    },
  } satisfies Partial<Tmux>;
}
