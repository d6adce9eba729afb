import type {HookMarkSource} from '../../src/agents/hook-marks.js';
import type {PaneMemory} from '../../src/pane/memory.js';
import type {Foreground, InputState} from '../../src/process/foreground.js';
import {type Fence, fenceOption} from '../../src/tmux/fence.js';
import type {PaneStateRow} from '../../src/tmux/pane-options.js';
import {TmuxCommandError} from '../../src/tmux/runner.js';
import type {PaneInfo, Tmux} from '../../src/tmux/tmux.js';
import type {PaneView} from '../../src/tmux/view.js';
import {FakeClock} from './fake-clock.js';
import {screenOf} from './pane-views.js';

/** What tmux says of a pane in memory: `%1` of a live bash on server 42, with `info` over it. */
export function fakePaneInfo(info: Partial<PaneInfo> = {}): PaneInfo {
  return {
    paneId: '%1',
    dead: false,
    inMode: false,
    mode: '',
    inputOff: false,
    synchronized: false,
    panePid: 100,
    currentCommand: 'bash',
    alternateOn: false,
    sessionId: '$0',
    serverPid: 42,
    socketPath: '/tmp/fake.sock',
    cursorX: 0,
    cursorY: 0,
    startCommand: '',
    ...info,
  } as PaneInfo;
}

/**
 * A pane that exists only in memory, playing a one-line editor: typed text goes into the
 * input line (shown after `prompt`), C-u empties it, Enter submits it. After the first
 * Enter, screens come from `screens` (one per look, the last one repeats), as if the program
 * printed them. Records every call.
 */
export class FakeTmux implements Tmux {
  /** Every call, in order: ['type', text] | ['paste', text] | ['keys', ...keys] | ['leave-mode'] | ['view']. */
  readonly calls: string[][] = [];
  info: PaneInfo;
  prompt = '$ ';
  /** What is in the input line. */
  input = '';
  /** Screens shown after the first Enter, one per look. */
  screens: string[] = ['$ '];
  /** When set, views fail as if the pane were gone after this many looks after Enter. */
  goneAfterCaptures: number | undefined;
  private submitted = false;
  private looksAfterEnter = 0;

  constructor(info: Partial<PaneInfo> = {}) {
    this.info = fakePaneInfo(info);
  }

  /** Everything sent (text, pastes, Enter as \r, other keys as <Key>), in order. */
  typed(): string {
    return this.calls
      .map((c) => {
        if (c[0] === 'type' || c[0] === 'paste') return c[1];
        if (c[0] === 'keys')
          return c
            .slice(1)
            .map((k) => (k === 'Enter' ? '\r' : `<${k}>`))
            .join('');
        return '';
      })
      .join('');
  }

  async describePane(target: string): Promise<PaneInfo | undefined> {
    return target === this.info.paneId ? {...this.info} : undefined;
  }

  async view(): Promise<PaneView> {
    this.calls.push(['view']);
    let text: string;
    if (!this.submitted) {
      text = `${this.prompt}${this.input}`;
    } else {
      this.looksAfterEnter++;
      if (this.goneAfterCaptures !== undefined && this.looksAfterEnter > this.goneAfterCaptures) {
        throw new TmuxCommandError(
          'no-target',
          "can't find pane: %1",
          "tmux capture-pane failed: can't find pane: %1",
        );
      }
      text = this.screens[Math.min(this.looksAfterEnter - 1, this.screens.length - 1)] ?? '';
      // Typing after the first Enter (the notice) shows at the end of the screen.
      text += this.input;
    }
    return screenOf(text, {currentCommand: this.info.currentCommand});
  }

  async paste(_pane: string, text: string): Promise<void> {
    this.calls.push(['paste', text]);
    this.input += text;
  }
  async typeLiteral(_pane: string, chars: string): Promise<void> {
    this.calls.push(['type', chars]);
    this.input += chars;
  }
  /** The fences taken and dropped, in order (`+%1 @nudge-fence-j`, `-%1 @nudge-fence-j`): kept
   * apart from `calls`, which is what reached the pane. */
  readonly fences: string[] = [];

  async takeFence(pane: string, token: string): Promise<Fence> {
    const fence = {pane, option: fenceOption(token)};
    this.fences.push(`+${pane} ${fence.option}`);
    return fence;
  }

  async dropFence(fence: Fence): Promise<void> {
    this.fences.push(`-${fence.pane} ${fence.option}`);
  }

  /** One pane in memory, one holder at a time: fencing changes nothing here. */
  fenced(): Tmux {
    return this;
  }

  async pressKeys(_pane: string, keys: readonly string[]): Promise<void> {
    this.calls.push(['keys', ...keys]);
    for (const k of keys) {
      if (k === 'C-u') this.input = '';
      if (k === 'Enter') {
        this.submitted = true;
        this.input = '';
      }
    }
  }
  async killPane(): Promise<void> {
    this.calls.push(['kill-pane']);
  }
  async openPane(): Promise<string> {
    throw new Error('FakeTmux cannot open panes');
  }
  async recentSession(): Promise<string | undefined> {
    throw new Error('FakeTmux has no sessions');
  }
  /** The one-line editor's line (it never wraps). */
  async cursorLogicalLine(): Promise<string> {
    return `${this.prompt}${this.input}`;
  }
  readonly marks = new Map<string, string>();
  async markPane(pane: string, option: string, value: string | undefined): Promise<void> {
    this.calls.push(['mark', pane, option, value ?? '']);
    if (value === undefined) this.marks.delete(`${pane} ${option}`);
    else this.marks.set(`${pane} ${option}`, value);
  }
  async markServer(option: string, value: string | undefined): Promise<void> {
    this.calls.push(['mark-server', option, value ?? '']);
  }
  async paneMark(pane: string, option: string): Promise<string | undefined> {
    return this.marks.get(`${pane} ${option}`);
  }
  async panesMarked(option: string): Promise<Array<{paneId: string; value: string}>> {
    return [...this.marks]
      .filter(([k]) => k.endsWith(` ${option}`))
      .map(([k, value]) => ({paneId: k.split(' ')[0] ?? '', value}));
  }
  async paneStates(): Promise<PaneStateRow[]> {
    throw new Error('paneStates: not in this fake (the status commands are tested on real tmux)');
  }
  async jumpToPane(paneId: string, client: string | undefined): Promise<void> {
    this.calls.push(['jump', paneId, client ?? '']);
  }
  async clientPane(_client: string): Promise<string | undefined> {
    return undefined;
  }
  async tellClient(client: string, text: string): Promise<void> {
    this.calls.push(['tell', client, text]);
  }
  async announce(_pane: string, text: string): Promise<string[]> {
    this.calls.push(['announce', text]);
    return [];
  }
  async leaveMode(): Promise<void> {
    this.calls.push(['leave-mode']);
    this.info = {...this.info, inMode: false, mode: ''};
  }
}

/** No agent hook ever reports (no turn-end or needs marks, no file events). */
export const NO_HOOK_MARKS: HookMarkSource = {
  read: async () => undefined,
  readNeeds: async () => undefined,
  readRefused: async () => undefined,
  version: () => 0,
  changed: async () => {},
};

/** A pane's foreground as the system would tell it: what it is doing (`input`, read at each
 * look), and its command line (`argv`, undefined where it cannot be read). */
export function fakeForeground(
  input: () => InputState,
  argv: () => readonly string[] | undefined = () => undefined,
): Foreground {
  return {
    commandLine: async () => argv(),
    group: async () => 7,
    inputState: async () => input(),
  };
}

/** A pane whose foreground nudge cannot read (no command line, no group, input unknown). */
export const UNREAD_FOREGROUND: Foreground = {
  commandLine: async () => undefined,
  group: async () => undefined,
  inputState: async () => ({kind: 'unknown' as const, why: 'a fake pane'}),
};

/** A pane memory that remembers nothing. */
export const NO_PANE_MEMORY: PaneMemory = {recall: async () => undefined, remember: async () => {}};

/** Claude Code's command line, as /proc shows it for a pane that runs `node`. */
export const CLAUDE_ARGV = ['node', '/usr/lib/node_modules/@anthropic-ai/claude-code/cli.js'];

/**
 * A pane in memory and the facts nudge reads about it, in virtual time: `info` over a shell's
 * pane, its screen (`screen`, else the one-line editor), what its foreground does (`input`)
 * and, for a pane that runs `node`, Claude Code's command line. No hook ever reports.
 */
export function fakePane(o: {
  input: () => InputState;
  info?: Partial<PaneInfo>;
  screen?: () => PaneView;
}) {
  const tmux = new FakeTmux(o.info);
  if (o.screen) tmux.view = async () => o.screen!();
  const argv = () => (tmux.info.currentCommand === 'node' ? CLAUDE_ARGV : undefined);
  return {
    tmux,
    clock: new FakeClock(),
    hookMarks: NO_HOOK_MARKS,
    foreground: fakeForeground(o.input, argv),
  };
}
