import type {Listeners} from './listeners.js';

/**
 * What a control client turns on and off for itself, pane by pane (tmux ≥ 3.2): a pane's
 * output paused or continued (`refresh-client -A '%N:pause|continue'`), and format
 * subscriptions (`refresh-client -B 'NAME:%N:FORMAT'`) that tmux checks once a second and
 * reports only when their value changes (`%subscription-changed`). Part of
 * control-runner.ts: the lines it sends go through the runner's own send (refresh-client is
 * refused to callers, since `-C` would resize the user's windows).
 *
 * Pause, never off. Turning a pane's output off (`:off`) while output for the client is
 * queued lets tmux drain the pane's buffer past the client's offset (tmux#5054): tried here
 * on 3.3a, it crashed the server three runs out of three (2 clients × 3,000 toggles on busy
 * panes). Pause is the path tmux itself takes under pause-after: it discards what it queued
 * for the pane and holds nothing back; the same stress passed on 3.3a, 3.5a and 3.8
 * (test/faults/pane-pause.test.ts).
 */
export class PaneSwitches {
  /** Panes we paused: tmux's own %pause for one of them (pause-after) is not resumed. */
  readonly #muted = new Set<string>();

  constructor(
    /** Send one line (never empty, no newline) and wait for its reply. */
    private readonly send: (line: string, label: string) => Promise<unknown>,
    /** Where subscription changes are told (name, pane, value, when read). */
    readonly changes: Listeners<SubscriptionChange>,
  ) {}

  /** Whether we paused `paneId` (and have not continued it since). */
  isMuted(paneId: string): boolean {
    return this.#muted.has(paneId);
  }

  /** Pause (tmux drops the pane's output for us from now on) or continue `paneId`. A failure
   * (the pane gone, the client closing) is not an error here. */
  setOutput(paneId: string, state: 'pause' | 'continue'): void {
    if (!PANE_ID.test(paneId)) return;
    if (state === 'pause') this.#muted.add(paneId);
    else this.#muted.delete(paneId);
    this.send(`refresh-client -A '${paneId}:${state}'`, 'refresh-client').catch(() => {});
  }

  /** tmux paused `paneId` by itself (we fell behind: pause-after). Resume it unless it is one
   * we muted; true when it was output we missed (the pane printed more than we read). */
  tmuxPaused(paneId: string): boolean {
    if (this.#muted.has(paneId)) return false;
    this.setOutput(paneId, 'continue');
    return true;
  }

  /** Subscribe to `format` of `paneId` under `name` (replacing a subscription of that name);
   * tmux reports the first value at its next check, then each change. */
  subscribe(name: string, paneId: string, format: string): void {
    if (!SUBSCRIPTION_NAME.test(name) || !PANE_ID.test(paneId) || !SAFE_FORMAT.test(format)) {
      throw new Error(`not a subscription nudge makes: ${JSON.stringify([name, paneId, format])}`);
    }
    this.send(`refresh-client -B '${name}:${paneId}:${format}'`, 'refresh-client').catch(() => {});
  }

  /** The second `paneId`'s window last had output (`#{window_activity}`), read after every
   * switch sent before it; undefined when tmux does not say. */
  async windowActivity(paneId: string): Promise<number | undefined> {
    if (!PANE_ID.test(paneId)) return undefined;
    try {
      const reply = await this.send(
        `display-message -p -t '${paneId}' '#{window_activity}'`,
        'display-message',
      );
      const second = Number.parseInt(String(reply).trim(), 10);
      return Number.isFinite(second) ? second : undefined;
    } catch {
      return undefined;
    }
  }

  /** End the subscription `name`. */
  unsubscribe(name: string): void {
    if (!SUBSCRIPTION_NAME.test(name)) return;
    this.send(`refresh-client -B '${name}'`, 'refresh-client').catch(() => {});
  }
}

/** A pane subscription's change, as the runner reads it. */
export interface SubscriptionChange {
  name: string;
  paneId: string;
  value: string;
  /** When it was read (the runner's clock). */
  atMs: number;
}

const PANE_ID = /^%\d+$/;
const SUBSCRIPTION_NAME = /^[a-z][a-z0-9-]*$/;
/** Formats are nudge's own, with tmux's search for a pattern in them (src/tmux/search.ts,
 * every `#` of the pattern doubled); still, only printable ASCII, nothing that could leave the
 * quotes, and no `#` that starts anything but a format or an escape (never `#(`, a command). */
const SAFE_FORMAT = /^(?:[\x20-\x22\x24-\x26\x28-\x7e]|#[{},#])+$/;
