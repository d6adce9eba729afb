import type {Clock} from '../base/clock.js';
import type {Foreground} from '../process/foreground.js';
import type {ProcessTree} from '../process/tree.js';
import type {SelfCommand} from '../setup/place.js';
import type {ServerSpec} from '../tmux/server.js';
import type {Tmux} from '../tmux/tmux.js';

/** What a command gets from its front end (CLI, MCP, tests) instead of touching `process`:
 * every member is required. Commands print nothing; they return a typed result that the
 * front end renders (the CLI as text or JSON, the MCP server as a tool result). */
export interface CommandContext {
  /** The environment to read (TMUX, TMUX_PANE, NUDGE_HOME, ...). */
  env: Record<string, string | undefined>;
  /** The working directory (relative paths, `@FILE` plans, where a `--bash-wait` runs). */
  cwd: string;
  /** This process's pid (the job owner for --wait). */
  pid: number;
  /** The user's id (tmux's default socket folder, launchd's gui/UID domain). */
  uid: number;
  /** Fires on Ctrl-C / SIGTERM for foreground work. */
  signal: AbortSignal;
  /** Read standard input to its end (hooks get their JSON there); '' when there is none. */
  readStdin: () => Promise<string>;
  /** Read standard input to its end as bytes (`submit --text-file -`), at most `maxBytes` and
   * one more (so a longer input is known to be too long); empty when there is none. */
  readStdinBytes: (maxBytes: number) => Promise<Uint8Array>;
  clock: Clock;
  /** How commands reach a tmux server (one tmux process per call). */
  tmux: (spec: ServerSpec) => Tmux;
  /** Which process descends from which (/proc or ps): proves the pane a call comes from. */
  tree: ProcessTree;
  /** What runs in the foreground of a pane's terminal (Linux /proc). */
  foreground: Foreground;
  /** The worker script a detached job runs in (dist/workers/job-worker.js). */
  workerEntry: string;
  /** The worker script a watcher's cycle runs in (dist/workers/watch-worker.js). */
  watchWorkerEntry: string;
  /** The worker script a `nudge run` job runs in (dist/workers/run-worker.js). */
  runWorkerEntry: string;
  /** The worker script that relays a notice to a pane of another host
   * (dist/workers/relay-worker.js). */
  relayWorkerEntry: string;
  /** How to run this nudge again from anywhere (absolute node and CLI script): what
   * `install` and `schedule` write into other programs' files. */
  self: SelfCommand;
  /** The package's data folder (data/: the verified-versions table). */
  dataDir: string;
}
