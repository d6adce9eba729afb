import type {PaneView} from '../../src/pane-view.js';
import type {Snapshot} from '../../src/screen.js';
import {TmuxCommandError} from '../../src/tmux/runner.js';
import type {PaneInfo, Tmux} from '../../src/tmux/tmux.js';

/** A pane that exists only in memory: records what was typed and plays back screens. */
export class FakeTmux implements Tmux {
  /** Every call, in order: ['type', text] | ['keys', ...keys] | ['leave-mode'] | ['capture']. */
  readonly calls: string[][] = [];
  info: PaneInfo;
  /** Screens returned by successive captures; the last one repeats. */
  screens: string[] = ['$ '];
  /** When set, capture() fails as if the pane were gone after this many captures. */
  goneAfterCaptures: number | undefined;
  private captureCount = 0;

  constructor(info: Partial<PaneInfo> = {}) {
    this.info = {
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
      ...info,
    };
  }

  /** Everything typed (literal text and Enter as \r), as the pane would have received it. */
  typed(): string {
    return this.calls
      .map((c) =>
        c[0] === 'type'
          ? c[1]
          : c[0] === 'keys'
            ? c
                .slice(1)
                .map((k) => (k === 'Enter' ? '\r' : `<${k}>`))
                .join('')
            : '',
      )
      .join('');
  }

  async describePane(target: string): Promise<PaneInfo | undefined> {
    return target === this.info.paneId ? {...this.info} : undefined;
  }
  async capture(): Promise<Snapshot> {
    this.calls.push(['capture']);
    this.captureCount++;
    if (this.goneAfterCaptures !== undefined && this.captureCount > this.goneAfterCaptures) {
      throw new TmuxCommandError(
        'no-target',
        "can't find pane: %1",
        "tmux capture-pane failed: can't find pane: %1",
      );
    }
    const text = this.screens[Math.min(this.captureCount - 1, this.screens.length - 1)] ?? '';
    return {text, cursorX: 0, cursorY: 0};
  }
  async view(): Promise<PaneView> {
    const {text} = await this.capture();
    const rows = text.split('\n');
    return {
      rows,
      firstRow: 0,
      historySize: 0,
      historyLimit: 2000,
      height: rows.length,
      width: 80,
      cursorX: 0,
      cursorY: 0,
      dead: false,
      alternateOn: false,
      currentCommand: this.info.currentCommand,
    };
  }
  async typeLiteral(_pane: string, chars: string): Promise<void> {
    this.calls.push(['type', chars]);
  }
  async pressKeys(_pane: string, keys: readonly string[]): Promise<void> {
    this.calls.push(['keys', ...keys]);
  }
  async killPane(): Promise<void> {
    this.calls.push(['kill-pane']);
  }
  async leaveMode(): Promise<void> {
    this.calls.push(['leave-mode']);
    this.info = {...this.info, inMode: false, mode: ''};
  }
}
