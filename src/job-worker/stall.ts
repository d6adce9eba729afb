import {findDialog} from '../agents/dialogs.js';
import {isAgent, type Profile} from '../agents/profile.js';
import {isBusy, readComposerState} from '../agents/screens.js';
import {type Clock, wallOf} from '../base/clock.js';
import {idleNow} from '../detect/idle.js';
import {
  describeStall,
  type Stall,
  type StallAnswer,
  type StallHook,
  type StallPolicy,
  StallWatch,
} from '../detect/stall.js';
import {compileRegex} from '../detect/until.js';
import {deliverOptionsOf, type JobRequest} from '../jobs/request.js';
import type {StallEvents, StalledMark} from '../jobs/stalled.js';
import type {Tell} from '../notify/tell.js';
import type {Delivery} from '../pane/failures.js';
import type {PaneIo} from '../pane/keys.js';
import {sendOwnLine} from '../pane/own-line-out.js';
import type {Foreground, InputState} from '../process/foreground.js';
import type {PaneView} from '../tmux/view.js';
import type {JobDeps} from './job-deps.js';

/** What the watchdog of one wait needs: every member required. */
export interface StallDeps {
  clock: Clock;
  note: <K extends keyof StallEvents>(name: K, data: StallEvents[K]) => Promise<void>;
  /** Keep the stall in the record (and on the pane's @nudge-state); undefined: it is over. */
  mark: (stalled: StalledMark | undefined) => Promise<void>;
  tell: Tell;
  /** What the pane's foreground does now (a shell's pane: is it back at its prompt?). */
  input: () => Promise<InputState | undefined>;
  /** Type the continue line and press Enter (under the pane's lock): how it arrived. */
  type: (line: string) => Promise<Delivery>;
}

/** Whether the continue line may be typed now: the program at its idle, empty prompt. */
async function idlePromptIn(profile: Profile, view: PaneView, deps: StallDeps): Promise<boolean> {
  const agent = isAgent(profile) ? profile : undefined;
  const input = agent ? undefined : await deps.input();
  const now = idleNow({view, agent, shellPane: !agent, input, freshMark: false});
  if (!('idle' in now)) return false;
  return !agent || readComposerState(agent, view)?.text === '';
}

/** A person told of a stall (`state`: what the job is in), and why nothing more was done. */
function tellStall(deps: StallDeps, state: string, stall: Stall, why: string | undefined) {
  return deps.tell({
    event: 'stalled',
    state,
    kind: stall.kind,
    reason: `Stalled: ${describeStall(stall)}${why ? ` (${why})` : ''}.`,
  });
}

/** The watchdog of one wait on `pane`, and what it does about a stall (`policy`). */
export function stallHook(
  deps: StallDeps,
  o: {
    policy: StallPolicy;
    pane: string;
    profile: Profile;
    /** `--ignore` masks (sources). */
    ignore: readonly string[];
    /** The state a person is told the job is in (`waiting`, `running`). */
    state: string;
  },
): StallHook {
  const {policy, pane, profile} = o;
  const watch = new StallWatch(
    policy.stallMs,
    [...profile.busy, ...(profile.noise ?? [])],
    o.ignore.map((i) => compileRegex(i, '--ignore')),
    deps.clock.now(),
    isAgent(profile) ? (view) => transcriptRows(profile, view) : undefined,
  );
  let continued = 0;
  const dialogIn = (view: PaneView) =>
    isAgent(profile) && findDialog(profile, view, deps.clock.wall()) !== undefined;
  const atIdlePrompt = (view: PaneView) => !dialogIn(view) && idlePromptIn(profile, view, deps);
  const tell = (stall: Stall, why: string | undefined) => tellStall(deps, o.state, stall, why);
  return {
    watch,
    dialogIn,
    busyIn: (view) => (isAgent(profile) ? isBusy(profile, view) : undefined),
    async began(stall, view): Promise<StallAnswer> {
      const base = {pane, kind: stall.kind, quietMs: stall.quietMs, count: stall.count};
      await deps.mark({
        kind: stall.kind,
        since: new Date(wallOf(deps.clock, stall.sinceMs)).toISOString(),
        count: stall.count,
      });
      const on = policy.onStall;
      if (on.kind === 'cancel') {
        await deps.note('stalled', {...base, action: 'cancel'});
        await tell(stall, '--on-stall cancel ends the wait');
        return 'end';
      }
      if (on.kind === 'continue') {
        const why =
          continued >= on.max
            ? `--on-stall continue:${on.max} typed its ${on.max} line(s) already`
            : (await atIdlePrompt(view))
              ? undefined
              : 'not at an idle prompt, so nothing was typed';
        if (why === undefined) {
          continued++;
          await deps.note('stalled', {...base, action: 'continue'});
          const delivery = await deps.type(policy.continueText);
          await deps.note('continued', {
            pane,
            text: policy.continueText,
            n: continued,
            max: on.max,
            delivery,
          });
          return 'go-on';
        }
        await deps.note('stalled', {...base, action: 'notify', why});
        await tell(stall, why);
        return 'go-on';
      }
      await deps.note('stalled', {...base, action: 'notify'});
      await tell(stall, undefined);
      return 'go-on';
    },
    async over(_stall, lastedMs) {
      await deps.note('stall-over', {pane, lastedMs});
      await deps.mark(undefined);
    },
  };
}

/** Where a job or a run records its stalls: its events, and its record's mark. */
export interface StallRecorder {
  event<K extends keyof StallEvents>(name: K, data: StallEvents[K]): Promise<void>;
  mark(patch: {stalled: StalledMark | undefined}): Promise<void>;
}

/** The watchdog of a job's or a run's wait: its stalls in its record and events, told to its
 * sinks, its continue line typed by `type`. */
export function recordedStallHook(
  deps: {
    recorder: StallRecorder;
    clock: Clock;
    tell: Tell;
    foreground: Pick<Foreground, 'inputState'>;
  },
  o: {
    policy: StallPolicy;
    pane: string;
    panePid: number;
    profile: Profile;
    ignore: readonly string[];
    state: string;
    type: (line: string) => Promise<Delivery>;
  },
): StallHook {
  const {recorder} = deps;
  return stallHook(
    {
      clock: deps.clock,
      note: (name, data) => recorder.event(name, data),
      mark: (stalled) => recorder.mark({stalled}),
      tell: deps.tell,
      input: () => deps.foreground.inputState(o.panePid),
      type: o.type,
    },
    o,
  );
}

/** An agent's work shows above its composer: the composer and the footer under it are the
 * program's own (a hint appearing there is not work). The visible screen when no composer
 * shows. */
function transcriptRows(profile: Profile, view: PaneView): readonly string[] {
  const top = Math.max(0, view.rows.length - view.height);
  const rows = view.rows.slice(top);
  const composer = readComposerState(profile, view);
  return composer ? rows.slice(0, Math.max(0, composer.index - top)) : rows;
}

/** A job's watchdog over its wait (`--stall`), if asked for: its continue line typed into the
 * job's pane through `io`, under the lock the job holds, stopped by `signal()`. */
export function jobStallHook(
  deps: JobDeps,
  io: PaneIo,
  request: JobRequest,
  at: {profile: Profile; panePid: number},
  signal: () => AbortSignal,
): StallHook | undefined {
  const {stall: policy, ignore} = request.options;
  if (!policy) return undefined;
  const {pane} = request;
  const {profile, panePid} = at;
  const type = async (line: string) => {
    const options = deliverOptionsOf(request, {enter: true, ownText: line});
    return (await sendOwnLine(io, pane, line, profile, options, signal())).delivery;
  };
  return recordedStallHook(deps, {pane, panePid, profile, ignore, state: 'waiting', type, policy});
}
