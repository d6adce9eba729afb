import type {SubscriptionChange} from './control-switches.js';
import {
  type FollowKind,
  type FollowNeed,
  followFormat,
  followKind,
  lullState,
  matchShownIn,
} from './follow-format.js';
import {
  ARRIVAL_MARGIN_MS,
  BUSY_GAP_MS,
  COARSE_AFTER_MS,
  COARSE_MIN_RATE,
  type HearingPort,
  type Mode,
  newState,
  type PaneState,
  SILENCE_LOOK_MAX_MS,
  settledKey,
  subscriptionName,
  TICK_MS,
  TICK_SLACK_MS,
} from './hearing-state.js';
import {KeyedListeners} from './listeners.js';

/**
 * What one control client hears of each pane of its session, so that waiting costs what the
 * work does, not what the pane prints (issue 44).
 *
 * A control client is told of every `%output` of every pane in its session, and each one wakes
 * the tmux client and this process (~0.3 ms of CPU each on the 2-core VMs here): a spinner is
 * ten a second, an agent's stream of tokens more. So each pane is in one of four modes
 * (heard, followed, trailing, muted: `Mode`, in hearing-state.ts).
 *
 * What a quiet pane's last change can be known to, from a followed pane's checks: a change is
 * reported by the first check after it, through `#{window_activity}`, which has whole seconds.
 * A second output within the same wall-clock second as the one the last check saw changes
 * nothing the format shows, unless the cursor or the history moved. That can only happen when
 * that check came within the output's second; then the pane may have changed until the end of
 * that second, and the quiet is counted from there.
 *
 * Muting and following use pause, never off (control-switches.ts says why).
 */
export class PaneHearing {
  readonly #panes = new Map<string, PaneState>();
  /** Who hears of a pane's changes (its id) and of its settling (settledKey). */
  readonly #listeners = new KeyedListeners<string>();
  /** This tmux said it has no clock in its formats: no pane is followed for its lull. */
  #noClock = false;

  constructor(private readonly port: HearingPort) {}

  /** Hear `paneId` (a job's pane, a wait's) until the returned call; holds nest. `need`: what a
   * wait needs told while the pane is followed (none: the hold only keeps it heard). */
  hold(paneId: string, need?: FollowNeed): () => void {
    let p = this.#panes.get(paneId);
    if (!p) {
      p = newState('heard');
      this.#panes.set(paneId, p);
    }
    p.holds++;
    const token = Symbol('hold');
    if (need) {
      p.needs.set(token, need);
      this.#refollow(paneId, p);
    }
    if (p.mode === 'muted') {
      // What it printed while muted is unknown: as if it printed now.
      this.port.switches.setOutput(paneId, 'continue');
      p.mode = 'heard';
      const now = this.port.now();
      this.#changed(paneId, p, p.changedAfter, now);
    }
    let released = false;
    const pane = p;
    return () => {
      if (released) return;
      released = true;
      const hadNeed = pane.needs.delete(token);
      this.#release(paneId, pane);
      if (hadNeed) this.#refollow(paneId, pane);
    };
  }

  /** The latest time `paneId` may have last changed (ms), if it has since it was first heard. */
  changedAt(paneId: string): number | undefined {
    return this.#panes.get(paneId)?.changedAt;
  }

  /** Whether `paneId`'s last change surely came after `at`. */
  changedAfter(paneId: string, at: number): boolean {
    const after = this.#panes.get(paneId)?.changedAfter;
    return after !== undefined && after > at;
  }

  /** Whether what is known of `paneId`'s last change is exact to now (it is heard, or not
   * held); false while it is followed or trailing, when a change after the last check may
   * not be known yet. */
  isSettled(paneId: string): boolean {
    const mode = this.#panes.get(paneId)?.mode;
    return mode !== 'followed' && mode !== 'trailing';
  }

  /** Whether `paneId`'s changes come as its checks' reports, once a second (followed), not
   * as its output. */
  isFollowed(paneId: string): boolean {
    return this.#panes.get(paneId)?.mode === 'followed';
  }

  /** How `paneId` is followed now (follow-format.ts), while it is. */
  followedAs(paneId: string): FollowKind | undefined {
    const p = this.#panes.get(paneId);
    return p?.format && (p.mode === 'followed' || p.mode === 'trailing')
      ? followKind(p.format)
      : undefined;
  }

  /** Call `listener` once `paneId` is settled (heard again after following), or at once if it
   * is; returns the unsubscribe. A followed pane looks for its silence only while someone
   * waits for this (a timer a second while it is still reported). */
  onSettled(paneId: string, listener: () => void): () => void {
    const p = this.#panes.get(paneId);
    if (!p || this.isSettled(paneId)) {
      listener();
      return () => {};
    }
    const off = this.onChange(settledKey(paneId), listener);
    if (p.mode === 'followed' && p.timer === undefined) this.#silent(paneId, p);
    return off;
  }

  /** Call `listener` whenever `paneId`'s change time moves on; returns the unsubscribe. */
  onChange(paneId: string, listener: () => void): () => void {
    return this.#listeners.add(paneId, listener);
  }

  /** The pane printed at `at` (a `%output`, or tmux's own pause: more than we read). */
  output(paneId: string, at: number): void {
    const p = this.#panes.get(paneId);
    if (!p || p.holds === 0) {
      this.#mute(paneId, p);
      return;
    }
    this.#changed(paneId, p, at, at);
    // Output in flight when the pause was sent: noted, no more.
    if (p.mode === 'followed') return;
    const run = p.run;
    if (!run || at - run.last > BUSY_GAP_MS) {
      p.run = {start: at, last: at, events: 1};
      return;
    }
    run.last = at;
    run.events++;
    const lasted = run.last - run.start;
    if (lasted >= COARSE_AFTER_MS && run.events >= (COARSE_MIN_RATE * lasted) / 1_000) {
      this.#follow(paneId, p, at);
    }
  }

  /** A subscription's check reported a change (or its first value). */
  subscription(change: SubscriptionChange): void {
    const {paneId, atMs} = change;
    const p = this.#panes.get(paneId);
    if (!p || change.name !== subscriptionName(paneId)) return;
    if (p.mode === 'followed') {
      const lull = p.format?.lull ? lullState(change.value) : 'busy';
      if (lull === 'no-clock') this.#noClock = true;
      if (typeof lull === 'number') {
        this.#lull(paneId, p, lull);
        return;
      }
      // Changed after the check before, by this one: counted as made now.
      this.#changed(paneId, p, p.checkedAt - ARRIVAL_MARGIN_MS, atMs);
      p.checkedAt = atMs;
      const format = p.format;
      const second = format?.sparse ? Number.NaN : Number.parseInt(change.value, 10);
      p.tick = Number.isFinite(second) ? {at: atMs, second} : undefined;
      if (format && format.searches > 0) p.matchShown = matchShownIn(change.value, format);
      if (format && (format.searches > 0 || lull === 'no-clock')) this.#refollow(paneId, p);
      // The silence timer (while someone waits for the pane to settle) is not moved here: it
      // looks at the last check when it fires (#silent), so a pane reported every second
      // costs one timer a second, not two (a timer moved earlier still wakes the process at
      // its first time).
    } else if (p.mode === 'trailing') {
      // A change after the silent check: heard since output came back, or made before it.
      this.#changed(paneId, p, p.changedAfter, Math.max(p.changedAt ?? 0, p.trailingSince));
      this.#endTrailing(paneId, p);
    }
  }

  /** Stop every timer (the client ended); whoever waits for a pane to settle is told. */
  close(): void {
    for (const [paneId, p] of this.#panes) {
      clearTimeout(p.timer);
      if (!this.isSettled(paneId)) this.#tell(settledKey(paneId));
    }
  }

  /** The mode of `paneId` (for tests and the bench). */
  modeOf(paneId: string): Mode | undefined {
    return this.#panes.get(paneId)?.mode;
  }

  #release(paneId: string, p: PaneState): void {
    p.holds--;
    if (p.holds > 0) return;
    clearTimeout(p.timer);
    p.timer = undefined;
    if (p.mode === 'followed' || p.mode === 'trailing') {
      this.port.switches.unsubscribe(subscriptionName(paneId));
      p.format = undefined;
      // Followed: paused already. Trailing: muted at its next output, as any unheld pane.
      p.mode = p.mode === 'followed' ? 'muted' : 'heard';
      this.#tell(settledKey(paneId));
    }
    p.run = undefined;
  }

  #mute(paneId: string, p: PaneState | undefined): void {
    if (p?.mode === 'muted') return;
    if (p) p.mode = 'muted';
    else this.#panes.set(paneId, newState('muted'));
    this.port.switches.setOutput(paneId, 'pause');
  }

  #follow(paneId: string, p: PaneState, at: number): void {
    this.port.switches.setOutput(paneId, 'pause');
    p.matchShown = undefined;
    this.#subscribe(paneId, p);
    p.mode = 'followed';
    p.run = undefined;
    p.tick = undefined;
    p.checkedAt = at;
    p.followedSince = at;
    if (this.#listeners.has(settledKey(paneId))) this.#silent(paneId, p);
  }

  /** Subscribe to what the pane's waits need now (replacing the subscription of that name). */
  #subscribe(paneId: string, p: PaneState): void {
    p.format = followFormat(p.needs.values(), p.matchShown, this.#noClock);
    this.port.switches.subscribe(subscriptionName(paneId), paneId, p.format.format);
  }

  /** A followed pane whose waits' needs (or whose search's state) changed: subscribed anew if
   * that changes what it reads. tmux reports the new subscription's first value at its next
   * check, which counts as a change (one look more). */
  #refollow(paneId: string, p: PaneState): void {
    if (p.mode !== 'followed') return;
    if (followFormat(p.needs.values(), p.matchShown, this.#noClock).format === p.format?.format)
      return;
    const wasLull = p.format?.lull;
    this.#subscribe(paneId, p);
    if (wasLull && !p.format?.lull) {
      // Followed by its changes from now: a wait for its settling looks for its silence.
      p.tick = undefined;
      p.checkedAt = this.port.now();
      if (p.timer === undefined && this.#listeners.has(settledKey(paneId))) this.#silent(paneId, p);
    }
  }

  /** The silence timer of a followed pane someone waits for: a check came in time (the pane
   * still changes), so it waits for the one after; or none did, so the pane may be quiet. The
   * first check may be a whole tick away (and reports the first value). Nobody waiting, it
   * stops: the pane stays followed, and costs nothing once it is quiet. */
  #silent(paneId: string, p: PaneState): void {
    p.timer = undefined;
    // A lull-followed pane is reported when it goes quiet (#lull): no silence to look for.
    if (p.format?.lull) return;
    if (p.mode !== 'followed' || !this.#listeners.has(settledKey(paneId))) return;
    const last = p.tick?.at ?? p.checkedAt + TICK_MS;
    const due = last + TICK_MS + TICK_SLACK_MS;
    const now = this.port.now();
    if (due > now) {
      // The longer it has been busy, the further apart it looks for the silence (a twentieth
      // of that, at most SILENCE_LOOK_MAX_MS): a five-minute build is told done a few seconds
      // late rather than costing a wake-up every second.
      const apart = Math.min(SILENCE_LOOK_MAX_MS, (now - p.followedSince) / 20);
      this.#arm(p, () => this.#silent(paneId, p), Math.max(due - now, apart));
    } else this.#quiet(paneId, p);
  }

  /**
   * A lull-followed pane has printed nothing since `second` (tmux's check said so): output on,
   * its last change known to that second. Then, after the continue, tmux is asked for the
   * second again: unchanged, nothing was printed between the check and output coming back,
   * and the pane is heard at once; otherwise (or no answer) it trails, as after a silent check.
   */
  #lull(paneId: string, p: PaneState, second: number): void {
    const now = this.port.now();
    this.port.switches.setOutput(paneId, 'continue');
    p.mode = 'trailing';
    p.trailingSince = now;
    this.#changed(paneId, p, second * 1_000, Math.min((second + 1) * 1_000, now));
    this.#arm(p, () => this.#endTrailing(paneId, p), TICK_MS + TICK_SLACK_MS);
    void this.port.switches.windowActivity(paneId).then((again) => {
      if (again === second && p.mode === 'trailing' && p.trailingSince === now) {
        this.#endTrailing(paneId, p);
      }
    });
  }

  /** A check came with no change (or none came at all): output on, one check more. */
  #quiet(paneId: string, p: PaneState): void {
    const now = this.port.now();
    this.port.switches.setOutput(paneId, 'continue');
    p.mode = 'trailing';
    p.trailingSince = now;
    const tick = p.tick;
    if (!tick) {
      // No check reported since the pause: it may have printed until now.
      this.#changed(paneId, p, p.changedAfter, now);
    } else if (Math.floor((tick.at - ARRIVAL_MARGIN_MS) / 1_000) <= tick.second) {
      // The last check came within the second of the output it saw: more output in that same
      // second would not have shown (see the class comment).
      this.#changed(paneId, p, p.changedAfter, Math.min((tick.second + 1) * 1_000, now));
    }
    this.#arm(p, () => this.#endTrailing(paneId, p), TICK_MS + TICK_SLACK_MS);
  }

  #endTrailing(paneId: string, p: PaneState): void {
    clearTimeout(p.timer);
    p.timer = undefined;
    this.port.switches.unsubscribe(subscriptionName(paneId));
    p.mode = 'heard';
    p.run = undefined;
    p.format = undefined;
    this.#tell(settledKey(paneId));
  }

  #arm(p: PaneState, fn: () => void, ms: number): void {
    clearTimeout(p.timer);
    p.timer = setTimeout(fn, ms);
    p.timer.unref?.();
  }

  /** The pane's last change is now known to have come after `after` and by `at`. */
  #changed(paneId: string, p: PaneState, after: number | undefined, at: number): void {
    if (p.changedAt !== undefined && at <= p.changedAt) return;
    p.changedAt = at;
    p.changedAfter = after;
    this.#tell(paneId);
  }

  #tell(key: string): void {
    this.#listeners.emit(key, undefined);
  }
}
