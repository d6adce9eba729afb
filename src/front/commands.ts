/**
 * The commands that run where their pane or job is (src/front/dispatch.ts decides where),
 * and the types of their options and results.
 */
/** The commands that run where their pane or job is. Each entry loads its command only when
 * called (the CLI's fast path loads none but submit). */
export const HOST_COMMANDS = {
  submit: async () => (await import('../commands/submit.js')).submit,
  wait: async () => (await import('../commands/wait.js')).waitForIdle,
  expect: async () => (await import('../commands/expect.js')).expectPattern,
  jobs: async () => (await import('../commands/jobs.js')).listJobs,
  status: async () => (await import('../commands/jobs.js')).showStatus,
  cancel: async () => (await import('../jobs/cancel.js')).cancelJob,
  logs: async () => (await import('../commands/logs.js')).showLogs,
  run: async () => (await import('../commands/run.js')).runInPane,
  'watch-start': async () => (await import('../commands/watch.js')).startWatcher,
  'watch-report': async () => (await import('../commands/watch.js')).reportWatcher,
  'watch-pause': async () => (await import('../commands/watch.js')).pauseWatcher,
  'watch-clear': async () => (await import('../commands/watch.js')).clearWatcher,
  'watch-show': async () => (await import('../commands/watch.js')).showWatcher,
  'watch-list': async () => (await import('../commands/watch.js')).listWatchers,
  doctor: async () => (await import('../commands/doctor.js')).runDoctor,
  recover: async () => (await import('../commands/recover.js')).recover,
  'status-line': async () => (await import('../commands/panes.js')).statusLine,
  next: async () => (await import('../commands/panes.js')).nextPane,
  top: async () => (await import('../commands/top.js')).topView,
  jump: async () => (await import('../commands/top.js')).jumpTo,
  queue: async () => (await import('../commands/queue.js')).listQueue,
  'queue-move': async () => (await import('../commands/queue.js')).moveInQueue,
  'queue-drop': async () => (await import('../commands/queue.js')).dropFromQueue,
  'queue-edit': async () => (await import('../commands/queue.js')).editInQueue,
  'queue-text': async () => (await import('../commands/queue.js')).queuedText,
} as const;

export type HostCommand = keyof typeof HOST_COMMANDS;

/** The commands that name a job (`ID` or `HOST:ID`): run where the job is, and only on a job
 * within the caller's reach (src/jobs/job-reach.ts). */
export const JOB_COMMANDS: ReadonlySet<HostCommand> = new Set([
  'status',
  'cancel',
  'logs',
  'queue-move',
  'queue-drop',
  'queue-edit',
  'queue-text',
]);
export type CommandFn<K extends HostCommand> = Awaited<ReturnType<(typeof HOST_COMMANDS)[K]>>;
export type HostOptions<K extends HostCommand> = Parameters<CommandFn<K>>[0];
export type HostResult<K extends HostCommand> = Awaited<ReturnType<CommandFn<K>>>;

/** Where a result came from: the host it ran on (absent: this machine). */
export type OnHost<R> = R & {host?: string};

/** `--host` as a command's option (the CLI's flag, the MCP tool's argument). */
export interface HostChoice {
  host?: string | undefined;
}

/** Where a command runs: `host` (undefined: this machine); `named` when the caller chose it
 * (`--host`, `$NUDGE_HOST`, `HOST:ID`), not left to the command (`jobs` lists every host). */
export interface Where {
  host: string | undefined;
  named: boolean;
}
