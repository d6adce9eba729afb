import type {Via} from '../agents/doors.js';
import type {ProfileName} from '../agents/profile.js';
import {NudgeError} from '../base/errors.js';
import {checkUntilFits} from '../detect/conditions.js';
import type {UntilSpec} from '../detect/until.js';
import {paneLockFor} from '../locks/pane-lock.js';
import type {Foreground} from '../process/foreground.js';
import type {ServerSpec} from '../tmux/server.js';
import type {PaneInfo, Tmux} from '../tmux/tmux.js';
import {visibleText} from '../tmux/view.js';
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
 * The checks of a submit on its pane `info` (resolved and within reach), in order: the "done"
 * condition fits the pane's program, the notice pane is one of the same server within reach,
 * and a busy policy that decides now is met. The notice pane's id, where it is another pane.
 */
export async function checkSubmitTarget(
  tmux: Tmux,
  spec: ServerSpec,
  info: PaneInfo,
  asks: SubmitAsks,
  deps: Caller & {foreground: Foreground; stateDir: string},
): Promise<string | undefined> {
  await checkUntil(tmux, info, asks);
  let notifyPane: string | undefined;
  let noticeAt = info;
  if (asks.notifyPane !== undefined) {
    const notify = await resolvePane(tmux, spec, asks.notifyPane, deps, '--notify-pane');
    await checkReach(tmux, notify.info, deps, '--notify-pane');
    if (notify.info.serverPid !== info.serverPid) {
      throw new NudgeError('bad-pane', '--notify-pane must be on the same tmux server as --pane.');
    }
    if (notify.info.paneId !== info.paneId) {
      notifyPane = notify.info.paneId;
      noticeAt = notify.info;
    }
  }
  if (asks.via === 'native') {
    // The notice goes through a door or not at all: a program with none is refused now, not
    // after the work is done.
    const refused = await doorsOf(
      await lookAt(tmux, info, deps),
      noticeAt,
      noticeAt === info ? asks.profile : 'auto',
    );
    if (refused)
      throw new NudgeError(
        'no-door',
        `${refused}; --via native sends the notice through a door only, so nothing was queued.`,
      );
  }
  if (asks.busyNow) await checkBusy(asks.busyNow, tmux, info, asks, deps);
  return notifyPane;
}

/** What looking at a pane's program needs (loaded only by the checks that look). */
async function lookAt(
  tmux: Tmux,
  info: PaneInfo,
  deps: {foreground: Foreground; stateDir: string},
) {
  const {paneMemory} = await import('./memory.js');
  const server = {socketPath: info.socketPath, serverPid: info.serverPid};
  return {tmux, foreground: deps.foreground, paneMemory: paneMemory(deps.stateDir, server)};
}

async function doorsOf(...args: Parameters<typeof import('./busy.js').doorsOf>) {
  return (await import('./busy.js')).doorsOf(...args);
}

/** The "done" condition fits the pane's program (a prompt can be recognised at all), and a
 * named profile exists. */
async function checkUntil(tmux: Tmux, info: PaneInfo, asks: SubmitAsks): Promise<void> {
  // The profiles are data read on first use: only these branches of submit need them.
  if (asks.until.kind === 'prompt') {
    // Which program is it? The worker decides again when it types.
    const screen = visibleText(await tmux.view(info.paneId, 0));
    const {chooseProfile} = await import('../agents/registry.js');
    const {profile} = chooseProfile(asks.profile, info.currentCommand, screen);
    checkUntilFits(asks.until, info, profile);
    return;
  }
  if (asks.profile !== 'auto') {
    const {profileNamed, unknownProfile} = await import('../agents/registry.js');
    if (!profileNamed(asks.profile)) throw unknownProfile(asks.profile, '--profile');
  }
  checkUntilFits(asks.until, info);
}

/** `--if-busy refuse` (a busy pane is refused, nothing queued) and `--if-busy now` (the
 * agent's door must take it). */
async function checkBusy(
  busyNow: 'refuse' | 'now',
  tmux: Tmux,
  info: PaneInfo,
  asks: SubmitAsks,
  deps: {foreground: Foreground; stateDir: string},
): Promise<void> {
  // Loaded only for these policies: the profiles and the pane's look.
  const {busyWith} = await import('./busy.js');
  const look = await lookAt(tmux, info, deps);
  if (busyNow === 'now') {
    if (asks.via === 'keys')
      throw new NudgeError('bad-usage', '--if-busy now goes through a door; --via keys types.');
    const refused = await doorsOf(look, info, asks.profile);
    if (refused) throw new NudgeError('no-door', `${refused}; nothing was queued (--if-busy now).`);
    return;
  }
  const queued = await paneLockFor(deps.stateDir, paneRefOf(info)).liveEntries();
  const busy = await busyWith(look, info, asks.profile, queued);
  if (busy)
    throw new NudgeError(
      'pane-busy',
      `Pane ${info.paneId} is busy — ${busy}; nothing was queued (--if-busy refuse).`,
    );
}
