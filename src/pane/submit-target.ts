import type {Via} from '../agents/doors.js';
import type {ProfileName} from '../agents/profile.js';
import {NudgeError} from '../base/errors.js';
import {checkUntilFits} from '../detect/conditions.js';
import type {UntilSpec} from '../detect/until.js';
import {paneLockFor} from '../locks/pane-lock.js';
import type {Foreground} from '../process/foreground.js';
import type {ServerSpec} from '../tmux/server.js';
import type {PaneInfo, Tmux} from '../tmux/tmux.js';
import {type Caller, checkReach, paneRefOf, resolvePane} from './target.js';

/** What a submit asks of its pane (and of its notice pane), checked before anything is
 * recorded: bad input now, not a failed job later. */
export interface SubmitAsks {
  until: UntilSpec;
  profile: ProfileName | 'auto';
  via?: Via | undefined;
  /** `--notify-pane` as given. */
  notifyPane: string | undefined;
  /** A busy policy that looks at the pane now: `refuse` (a busy pane is refused, nothing
   * queued) or `now` (the agent's door must take it); undefined for the others. */
  busyNow: 'refuse' | 'now' | undefined;
}

/**
 * The checks of a submit on its pane `info` (resolved and within reach): the notice pane is one
 * of the same server within reach; then what the checks need of the pane is read once (its
 * screen, its program, the jobs queued on it), and the checks are made of those: the "done"
 * condition fits the pane's program, a door takes the notice under `--via native`, and a busy
 * policy that decides now is met. The notice pane's id, where it is another pane.
 */
export async function checkSubmitTarget(
  tmux: Tmux,
  spec: ServerSpec,
  info: PaneInfo,
  asks: SubmitAsks,
  deps: Caller & {foreground: Foreground; stateDir: string},
): Promise<string | undefined> {
  const notice = await noticePane(tmux, spec, info, asks, deps);
  if (asks.busyNow === 'now' && asks.via === 'keys')
    throw new NudgeError('bad-usage', '--if-busy now goes through a door; --via keys types.');
  const queued =
    asks.busyNow === 'refuse'
      ? await paneLockFor(deps.stateDir, paneRefOf(info)).liveEntries()
      : [];
  // Jobs on the pane already: busy, whatever its screen shows.
  if (queued.length > 0) throw busyError(info, busyWithJobs(queued));
  const looks = asks.until.kind === 'prompt' || asks.via === 'native' || asks.busyNow;
  if (!looks) {
    // No look at the pane: a named profile must exist all the same.
    if (asks.profile !== 'auto') {
      const {profileNamed, unknownProfile} = await import('../agents/registry.js');
      if (!profileNamed(asks.profile)) throw unknownProfile(asks.profile, '--profile');
    }
    checkUntilFits(asks.until, info);
    return notice?.paneId;
  }
  // Loaded only for the checks that look: the profiles and the pane's screen.
  const {readPaneFacts, busyWith, noDoor} = await import('./busy.js');
  const {paneMemory} = await import('./memory.js');
  const server = {socketPath: info.socketPath, serverPid: info.serverPid};
  const look = {tmux, foreground: deps.foreground, paneMemory: paneMemory(deps.stateDir, server)};
  const facts = await readPaneFacts(look, info, asks.profile);
  const noticeProfile =
    notice && asks.via === 'native'
      ? (await readPaneFacts(look, notice, 'auto')).profile
      : facts.profile;
  checkUntilFits(asks.until, info, facts.profile);
  if (asks.via === 'native') {
    // The notice goes through a door or not at all: a program with none is refused now, not
    // after the work is done.
    const refused = noDoor(noticeProfile, (notice ?? info).paneId);
    if (refused)
      throw new NudgeError(
        'no-door',
        `${refused}; --via native sends the notice through a door only, so nothing was queued.`,
      );
  }
  if (asks.busyNow === 'now') {
    const refused = noDoor(facts.profile, info.paneId);
    if (refused) throw new NudgeError('no-door', `${refused}; nothing was queued (--if-busy now).`);
  }
  const busy = asks.busyNow === 'refuse' ? busyWith(facts) : undefined;
  if (busy) throw busyError(info, busy);
  return notice?.paneId;
}

/** The jobs of nudge on a pane, or waiting for its lock (ids, in order), as what it is busy
 * with. */
function busyWithJobs(queued: readonly string[]): string {
  const n = queued.length === 1 ? 'a job' : `${queued.length} jobs`;
  return `nudge has ${n} on it or waiting for it (${queued.join(', ')})`;
}

/** `--if-busy refuse` on a busy pane: nothing queued (exit 75, busy: try later). */
function busyError(info: PaneInfo, busy: string): NudgeError {
  return new NudgeError(
    'pane-busy',
    `Pane ${info.paneId} is busy — ${busy}; nothing was queued (--if-busy refuse).`,
  );
}

/** `--notify-pane`: another pane of the same server within reach (undefined: the pane typed
 * into). */
async function noticePane(
  tmux: Tmux,
  spec: ServerSpec,
  info: PaneInfo,
  asks: SubmitAsks,
  deps: Caller,
): Promise<PaneInfo | undefined> {
  if (asks.notifyPane === undefined) return undefined;
  const notify = await resolvePane(tmux, spec, asks.notifyPane, deps, '--notify-pane');
  await checkReach(tmux, notify.info, deps, '--notify-pane');
  if (notify.info.serverPid !== info.serverPid)
    throw new NudgeError('bad-pane', '--notify-pane must be on the same tmux server as --pane.');
  return notify.info.paneId === info.paneId ? undefined : notify.info;
}
