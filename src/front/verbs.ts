/**
 * The commands that run where their pane or job is (src/front/dispatch.ts decides where),
 * and the types of their options and results.
 */
/** The commands that run where their pane or job is. Each entry loads its command only when
 * called (the CLI's fast path loads none but submit). */
export const VERBS = {
  submit: async () => (await import('../verbs/submit.js')).submit,
  ask: async () => (await import('../verbs/ask.js')).ask,
  wait: async () => (await import('../verbs/wait.js')).waitForIdle,
  expect: async () => (await import('../verbs/expect.js')).expectPattern,
  jobs: async () => (await import('../verbs/jobs.js')).listJobs,
  'jobs-prune': async () => (await import('../verbs/prune.js')).pruneJobs,
  status: async () => (await import('../verbs/jobs.js')).showStatus,
  cancel: async () => (await import('../jobs/cancel.js')).cancelJob,
  resend: async () => (await import('../verbs/resend.js')).resend,
  logs: async () => (await import('../verbs/logs.js')).showLogs,
  run: async () => (await import('../verbs/run.js')).runInPane,
  'watch-start': async () => (await import('../verbs/watch.js')).startWatcher,
  'watch-report': async () => (await import('../verbs/watch.js')).reportWatcher,
  'watch-pause': async () => (await import('../verbs/watch.js')).pauseWatcher,
  'watch-clear': async () => (await import('../verbs/watch.js')).clearWatcher,
  'watch-show': async () => (await import('../verbs/watch.js')).showWatcher,
  'watch-list': async () => (await import('../verbs/watch.js')).listWatchers,
  doctor: async () => (await import('../verbs/doctor.js')).runDoctor,
  recover: async () => (await import('../verbs/recover.js')).recover,
  'status-line': async () => (await import('../verbs/panes.js')).statusLine,
  next: async () => (await import('../verbs/panes.js')).nextPane,
  top: async () => (await import('../verbs/top.js')).topView,
  jump: async () => (await import('../verbs/top.js')).jumpTo,
  queue: async () => (await import('../verbs/queue.js')).listQueue,
  'queue-move': async () => (await import('../verbs/queue.js')).moveInQueue,
  'queue-drop': async () => (await import('../verbs/queue.js')).dropFromQueue,
  'queue-edit': async () => (await import('../verbs/queue.js')).editInQueue,
  'queue-text': async () => (await import('../verbs/queue.js')).queuedText,
} as const;

export type Verb = keyof typeof VERBS;

/** The commands that name a job (`ID` or `HOST:ID`): run where the job is, and only on a job
 * within the caller's reach (src/jobs/job-reach.ts). */
export const JOB_VERBS: ReadonlySet<Verb> = new Set([
  'status',
  'cancel',
  'resend',
  'logs',
  'queue-move',
  'queue-drop',
  'queue-edit',
  'queue-text',
]);
export type CommandFn<K extends Verb> = Awaited<ReturnType<(typeof VERBS)[K]>>;
export type HostOptions<K extends Verb> = Parameters<CommandFn<K>>[0];
export type HostResult<K extends Verb> = Awaited<ReturnType<CommandFn<K>>>;

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
