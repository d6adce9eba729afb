import type {HookMarkSource} from '../agents/hook-marks.js';
import type {Clock} from '../base/clock.js';
import type {Result} from '../base/result.js';
import type {PaneActivity} from '../detect/wait-until.js';
import type {Doors} from '../doors/ladder.js';
import type {JobRecorder} from '../jobs/recorder.js';
import type {JobRequest} from '../jobs/request.js';
import type {PaneLock} from '../locks/pane-lock.js';
import type {Tell} from '../notify/tell.js';
import type {RecognizeDeps} from '../pane/profile.js';
import type {ServedInPane} from '../process/served.js';
import type {Replies} from '../records/reply.js';
import type {StopWork} from './stop-command.js';

/** What a job needs from the outside world: every member is required (fakes implement each). */
export interface JobDeps extends RecognizeDeps {
  clock: Clock;
  /** The lock of a pane of the job's server. */
  lockFor: (pane: string) => Pick<PaneLock, 'acquire' | 'hold'>;
  /** The job's request as the store holds it now, read under the pane's lock (`nudge queue
   * edit` may change its text while the job waits), or why it cannot be. */
  requestNow: () => Promise<Result<JobRequest, string>>;
  recorder: JobRecorder;
  /** The process running the job (recorded in the queue so waiters can tell it is alive). */
  pid: number;
  /** Output events of panes, when the transport provides them (control mode): undefined
   * when the transport has none. */
  activity: PaneActivity | undefined;
  /** "This pane's agent finished a turn" marks (Claude Stop / Codex notify hooks). */
  hookMarks: HookMarkSource;
  /** The processes of a pane (by its first process) that listen on a port: background work
   * that serves (src/process/served.ts). */
  served: (panePid: number) => Promise<ServedInPane>;
  /** Tell the person of a change (the job's `--notify` sinks; none: a no-op). */
  tell: Tell;
  /** The agents' own doors for a notice (src/doors/): tried before typing it. */
  doors: Doors;
  /** How a cancel stops the command the job typed into a shell's pane. */
  stopWork: StopWork;
  /** The final reply of the turn of `prompt` in `pane`'s agent, from its own record (a
   * notice's `{reply}`; src/records/), or why there is none. */
  replies: Replies;
}
