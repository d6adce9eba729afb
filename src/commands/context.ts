/** What a command gets from its front end (CLI, MCP, tests) instead of touching `process`. */
export interface CommandContext {
  /** The environment to read (TMUX, TMUX_PANE, NUDGE_HOME, ...). */
  env: Record<string, string | undefined>;
  /** Write one line (or more) to standard output. */
  stdout: (text: string) => void;
  /** Write to standard error. */
  stderr: (text: string) => void;
  /** This process's pid (the job owner for --wait). */
  pid: number;
  /** Fires on Ctrl-C / SIGTERM for foreground work. */
  signal: AbortSignal;
  /** Read standard input to its end (hooks get their JSON there); '' when there is none. */
  readStdin: () => Promise<string>;
}
