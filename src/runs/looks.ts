import {isIdle} from '../agents/idle-screen.js';
import type {Profile} from '../agents/profile.js';
import {isBusy} from '../agents/screens.js';
import {describeError} from '../base/errors.js';
import {cursorRow, type PaneView} from '../tmux/view.js';
import type {RunDeps} from './events.js';
import type {RunClock} from './monitor.js';
import type {RunRequest} from './request.js';

/**
 * What a running run looks at besides the screen: its files (git) and, for its progress
 * events, how far it got. A git look that fails is recorded (once per kind), never taken for
 * "nothing changed" in silence.
 */
export class RunLooks {
  #lastFiles = '';
  readonly #failed = new Set<string>();

  constructor(
    private readonly deps: Pick<RunDeps, 'git' | 'recorder' | 'foreground'>,
    private readonly o: RunRequest['options'],
    private readonly profile: Profile,
  ) {}

  /** The work tree's signature ('' outside git); after a failure, the last one seen. */
  async files(): Promise<string> {
    const git = this.o.git;
    if (!git) return '';
    const files = await this.#git('snapshot', () => this.deps.git.snapshot(git.root));
    if (files !== undefined) this.#lastFiles = files;
    return this.#lastFiles;
  }

  /** Changed files when the run began (outside a worktree, to tell the run's own later). */
  async filesAtStart(): Promise<Map<string, number> | undefined> {
    const git = this.o.git;
    if (!git || this.o.worktree) return undefined;
    return this.#git('changed-files', () => this.deps.git.changedFiles(git.root));
  }

  /** The progress event's figures. */
  async progress(
    view: PaneView,
    a: {files: string; clock: RunClock; quietMs: number; startRow: number; panePid: number},
    dialogShown: boolean,
  ) {
    const o = this.o;
    let verdict: string;
    if (o.agent) {
      verdict = dialogShown
        ? 'permission dialog'
        : isBusy(this.profile, view)
          ? 'busy'
          : isIdle(this.profile, view)
            ? 'idle at its prompt'
            : 'working';
    } else {
      const input = await this.deps.foreground.inputState(a.panePid);
      verdict =
        input.kind === 'unknown'
          ? 'unknown'
          : `${input.kind.replace(/-/g, ' ')} (${input.program})`;
    }
    const git = o.git;
    const commits = git
      ? ((await this.#git('commits', () => this.deps.git.commitsSince(git.root, git.base)))
          ?.length ?? null)
      : null;
    return {
      outputLines: Math.max(0, cursorRow(view) - a.startRow),
      lastActivity: new Date(a.clock.lastChangeMs).toISOString(),
      quietMs: a.quietMs,
      files: git ? (a.files === '' ? 0 : a.files.split('\n').length) : null,
      commits,
      verdict,
    };
  }

  async #git<T>(look: string, run: () => Promise<T>): Promise<T | undefined> {
    try {
      return await run();
    } catch (error) {
      if (!this.#failed.has(look)) {
        this.#failed.add(look);
        await this.deps.recorder.event('git-failed', {look, why: describeError(error)});
      }
      return undefined;
    }
  }
}
