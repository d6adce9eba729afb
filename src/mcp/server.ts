import {join} from 'node:path';
import type {Readable, Writable} from 'node:stream';
import {McpServer} from '@modelcontextprotocol/sdk/server/mcp.js';
import {StdioServerTransport} from '@modelcontextprotocol/sdk/server/stdio.js';
import {z} from 'zod';
import {describeError, NudgeError} from '../base/errors.js';
import {createJobLogger, type Logger} from '../base/log.js';
import {HOST_OPTION} from '../base/option-table.js';
import {ensureStateDir, resolveStateDir} from '../base/paths.js';
import {nudgeVersion} from '../base/version.js';
import type {CommandContext} from '../commands/context.js';
import {EXPECT_OPTIONS} from '../commands/options/expect.js';
import {RECOVER_OPTIONS} from '../commands/options/recover.js';
import {RUN_OPTIONS} from '../commands/options/run.js';
import {SUBMIT_OPTIONS} from '../commands/options/submit.js';
import {WAIT_OPTIONS} from '../commands/options/wait.js';
import {WATCH_REPORT_OPTIONS, WATCH_START_OPTIONS} from '../commands/options/watch.js';
import {dispatch} from '../front/dispatch.js';
import {registerQueueTools, type ToolResult} from './queue-tools.js';
import {optionsOf, shapeOf} from './schema.js';

/** The assessor `watch_me` gives a new watcher (from `nudge mcp`'s flags or environment). */
export interface McpAssessorDefaults {
  assessCmd?: string | undefined;
  assessUrl?: string | undefined;
  assessModel?: string | undefined;
  assessKeyEnv?: string | undefined;
  /** Offer the tools that run commands (`nudge mcp --allow-exec`): `run`, and look_ma's
   * bash_wait. Without it they are not listed, and a call names the flag. */
  allowExec?: boolean | undefined;
  /** Let `expect` close the pane it watched (`nudge mcp --allow-close`): the tool is then
   * annotated destructive; without it, it only looks and close_pane is refused. */
  allowClose?: boolean | undefined;
}

/**
 * What each tool does, as MCP's annotations say it (a client's "always allow" reads them):
 * read-only tools only look; the rest act on panes, and submit and run can make a program run
 * a command (text typed into a shell, or an agent's shell mode).
 */
const ACTS = {readOnlyHint: false, destructiveHint: true, openWorldHint: true} as const;
const LOOKS = {readOnlyHint: true, destructiveHint: false, openWorldHint: false} as const;
const KEEPS = {readOnlyHint: false, destructiveHint: false, openWorldHint: false} as const;

/**
 * The nudge tools as an MCP server. Each tool calls the same command function as the CLI and
 * returns its typed result; a NudgeError (bad input, no such pane) becomes a tool error with
 * its sentence. `defaults` supply the assessor of watchers made by `watch_me`.
 */
export function createMcpServer(
  ctx: CommandContext,
  defaults: McpAssessorDefaults,
  log: Logger,
): McpServer {
  const server = new McpServer(
    {name: 'nudge', version: nudgeVersion()},
    {
      instructions:
        'nudge hands work to tmux panes without blocking and wakes you when it is done. The pane defaults to your own, where nudge can prove which it runs in (its process tree; a $TMUX_PANE inherited from a server that several sessions share is refused).',
    },
  );
  /** Run one tool call: its own abort signal (the client's cancellation, or the server's
   * end), errors as tool errors, every call logged. */
  const call =
    <A>(tool: string, body: (args: A, c: CommandContext) => Promise<ToolResult>) =>
    async (args: A, extra: {signal: AbortSignal}): Promise<ToolResult> => {
      const started = ctx.clock.now();
      const c: CommandContext = {...ctx, signal: AbortSignal.any([ctx.signal, extra.signal])};
      try {
        const result = await body(args, c);
        log.info(
          {event: 'tool', tool, ms: ctx.clock.now() - started, isError: result.isError ?? false},
          tool,
        );
        return result;
      } catch (error) {
        const message =
          error instanceof NudgeError
            ? error.message
            : extra.signal.aborted
              ? 'Cancelled by the client.'
              : `nudge failed: ${describeError(error)}`;
        log.info({event: 'tool', tool, ms: ctx.clock.now() - started, error: message}, tool);
        return {content: [{type: 'text', text: message}], isError: true};
      }
    };
  const json = (value: object): ToolResult => ({
    content: [{type: 'text', text: JSON.stringify(value)}],
    structuredContent: value as Record<string, unknown>,
  });
  const said = (text: string, value: object): ToolResult => ({
    content: [{type: 'text', text}],
    structuredContent: value as Record<string, unknown>,
  });

  server.registerTool(
    'submit',
    {
      title: 'Hand text to a pane',
      annotations: ACTS,
      description:
        'Type text into a tmux pane (yours by default), watch until the work is done, then type a notice into the notify pane. Returns the job id at once; the notice wakes you later.',
      inputSchema: {
        text: z
          .string()
          .describe('what to type (a command for a shell; "!cmd" runs it in your shell mode)'),
        ...shapeOf(SUBMIT_OPTIONS),
        no_notice: z.boolean().optional().describe('type no notice'),
      },
    },
    call('submit', async (a, c) => {
      const options = optionsOf(a, SUBMIT_OPTIONS);
      return json(
        await dispatch(
          'submit',
          {...options, text: String(a.text), notice: a.no_notice ? false : options.notice},
          c,
        ),
      );
    }),
  );

  const runTool = server.registerTool(
    'run',
    {
      title: 'Run a command or an agent in its own pane',
      annotations: ACTS,
      description:
        'Offered only when nudge mcp was started with --allow-exec (it runs a command). Open a new tmux window (or a split of yours), optionally in a new git worktree, run a shell command there — or start an agent CLI and give it a prompt — and watch it with an idle and a total timeout. Returns the job id at once; a one-line notice with the report path wakes you when it ends (nudge status JOB shows the report).',
      inputSchema: {
        command: z
          .string()
          .describe('the shell command line to run, or with agent the prompt to give it'),
        ...shapeOf(RUN_OPTIONS),
        worktree: z
          .union([z.boolean(), z.string()])
          .optional()
          .describe('true: a new worktree on branch nudge/<job>; a string: that branch'),
        no_notice: z.boolean().optional().describe('tell no pane'),
      },
    },
    call('run', async (a, c) =>
      json(
        await dispatch(
          'run',
          {
            ...optionsOf(a, RUN_OPTIONS),
            words: [String(a.command)],
            worktree: a.worktree as boolean | string | undefined,
            notice: a.no_notice ? false : undefined,
          },
          c,
        ),
      ),
    ),
  );

  // A tool that runs a command is there only when the person started the server so.
  if (defaults.allowExec !== true) runTool.disable();

  server.registerTool(
    'recover',
    {
      title: 'Bring back what a lost tmux server had',
      annotations: ACTS,
      description:
        "After a reboot or a tmux server that went away: each run's agent in a new session and pane, started again into its conversation; the jobs queued for such a pane submitted to its new pane; schedules marked again. What cannot come back is listed with why. dry_run (the default unless nudge mcp was started with --allow-exec, since it starts the agents again) only shows the plan.",
      inputSchema: shapeOf(RECOVER_OPTIONS),
    },
    call('recover', async (a, c) => {
      const options = optionsOf(a, RECOVER_OPTIONS);
      // Starting the agents again runs commands: only with --allow-exec; else the plan.
      const dryRun = defaults.allowExec !== true || options.dryRun === true;
      return json(await dispatch('recover', {...options, dryRun}, c));
    }),
  );

  server.registerTool(
    'expect',
    {
      title: 'Wait for a pattern in a pane',
      annotations: defaults.allowClose === true ? ACTS : LOOKS,
      description:
        'Block until a regular expression matches output written to the pane after the call, or the timeout; an agent that waits for a person (a permission, a question, a usage limit) ends it as blocked. Answers {status: matched|timeout|blocked, pattern, match, line, duration_ms, output?, blocked?}.',
      inputSchema: {
        pane_id: z.string().describe('%N or session:window.pane'),
        pattern: z.string().describe('a regular expression (RE2: linear time)'),
        ...shapeOf(EXPECT_OPTIONS),
      },
    },
    call('expect', async (a, c) => {
      if ((a as {action?: unknown}).action === 'close_pane' && defaults.allowClose !== true)
        throw new NudgeError(
          'bad-usage',
          'close_pane closes a pane: nudge mcp offers it only when started with --allow-close.',
        );
      const r = await dispatch(
        'expect',
        {...optionsOf(a, EXPECT_OPTIONS), pane: String(a.pane_id), pattern: String(a.pattern)},
        c,
      );
      // The pane closed while waiting: a tool error with the sentence (and the answer).
      if (r.warning)
        return {...json(r.answer), content: [{type: 'text', text: r.warning}], isError: true};
      return json(r.answer);
    }),
  );

  server.registerTool(
    'wait',
    {
      title: 'Wait until a pane is idle',
      annotations: LOOKS,
      description:
        'Block until the pane is idle (stable screen; a running command keeps a shell busy, a program waiting for input is idle) or the timeout. An agent waiting for a person answers blocked, with the kind of dialog, its question and the pane. Answers the verdict and why.',
      inputSchema: {
        pane: z.string().optional().describe('%N; default: your pane'),
        ...shapeOf(WAIT_OPTIONS),
      },
    },
    call('wait', async (a, c) =>
      json(
        await dispatch(
          'wait',
          {...optionsOf(a, WAIT_OPTIONS), pane: a.pane as string | undefined},
          c,
        ),
      ),
    ),
  );

  server.registerTool(
    'status',
    {
      title: "A job's state",
      annotations: LOOKS,
      description: "A job's state, outcome and events.",
      inputSchema: {job: z.string().describe('a job id, or HOST:ID'), ...shapeOf(HOST_OPTION)},
    },
    call('status', async (a: {job: string; host?: string}, c) =>
      json(await dispatch('status', {job: a.job, host: a.host}, c)),
    ),
  );
  server.registerTool(
    'jobs',
    {
      title: 'The jobs',
      annotations: LOOKS,
      description:
        'Every job, newest last: here and on the hosts of config.toml (each remote job with its host), or on one host.',
      inputSchema: shapeOf(HOST_OPTION),
    },
    call('jobs', async (a: {host?: string}, c) => {
      const {jobs, unreachable} = await dispatch('jobs', {host: a.host}, c);
      return json(unreachable.length > 0 ? {jobs, unreachable} : {jobs});
    }),
  );
  server.registerTool(
    'cancel',
    {
      title: 'Cancel a job',
      annotations: {...KEEPS, destructiveHint: true, idempotentHint: true},
      description:
        'Stop a queued or running job and free its pane; the command it typed into a shell is interrupted unless keep_running.',
      inputSchema: {
        job: z.string().describe('a job id, or HOST:ID'),
        keep_running: z.boolean().optional().describe('leave the command the job typed running'),
        ...shapeOf(HOST_OPTION),
      },
    },
    call('cancel', async (a: {job: string; host?: string; keep_running?: boolean}, c) =>
      json(await dispatch('cancel', {job: a.job, host: a.host, keepRunning: a.keep_running}, c)),
    ),
  );

  registerQueueTools(server, {call, json});

  server.registerTool(
    'doctor',
    {
      title: 'Check the setup',
      annotations: LOOKS,
      description:
        'What nudge needs, each ok, warn or fail with one sentence of fix: tmux, the server, this pane, control mode, node, the state directory, and each agent CLI with nudge installed for it.',
      inputSchema: shapeOf(HOST_OPTION),
    },
    call('doctor', async (a: {host?: string}, c) =>
      json(await dispatch('doctor', {host: a.host}, c)),
    ),
  );

  server.registerTool(
    'watch_me',
    {
      title: 'Start a watcher on a plan',
      annotations: ACTS,
      description:
        'Start (or update) a watcher for your pane: each time you report with look_ma it waits, lets the pane go idle, asks an assessor whether the plan is done, and either pauses or types the next single instruction into your pane. Answers "watching" (new) or "updated".',
      inputSchema: {name: z.string(), ...shapeOf(WATCH_START_OPTIONS)},
    },
    call('watch_me', async (a, c) => {
      const r = await dispatch(
        'watch-start',
        {
          ...optionsOf(a, WATCH_START_OPTIONS),
          name: String(a.name),
          assessCmd: defaults.assessCmd,
          assessUrl: defaults.assessUrl,
          assessModel: defaults.assessModel,
          assessKeyEnv: defaults.assessKeyEnv,
        },
        c,
      );
      return said(r.result, r);
    }),
  );
  server.registerTool(
    'look_ma',
    {
      title: 'Report progress to the watcher',
      annotations: ACTS,
      description:
        'Report what you did. Answers "recorded+waiting" at once; then the watcher waits (bash_wait, a command, is taken only when nudge mcp was started with --allow-exec; else a sleep), lets your pane go idle, and asks its assessor: the next instruction arrives in your pane as a new prompt, or the watcher pauses.',
      inputSchema: {
        status_report: z.string(),
        name: z.string().optional().describe("default: your pane's watcher"),
        ...shapeOf(WATCH_REPORT_OPTIONS),
      },
    },
    call('look_ma', async (a, c) => {
      if ((a as Record<string, unknown>).bash_wait !== undefined && defaults.allowExec !== true)
        throw new NudgeError(
          'bad-usage',
          'bash_wait runs a command, and this nudge mcp was not started with --allow-exec; report without it (the watcher sleeps), or ask the person to add --allow-exec.',
        );
      const r = await dispatch(
        'watch-report',
        {
          ...optionsOf(a, WATCH_REPORT_OPTIONS),
          name: a.name as string | undefined,
          status: String(a.status_report),
        },
        c,
      );
      return said(r.result, r);
    }),
  );
  server.registerTool(
    'pause',
    {
      title: 'Pause a watcher',
      annotations: {...KEEPS, idempotentHint: true},
      description:
        'Pause the watcher (nothing more is typed) and answer the next step its assessor suggests.',
      inputSchema: {name: z.string(), ...shapeOf(HOST_OPTION)},
    },
    call('pause', async (a, c) => json(await dispatch('watch-pause', a, c))),
  );
  server.registerTool(
    'clear',
    {
      title: 'Remove a watcher',
      annotations: {...KEEPS, destructiveHint: true, idempotentHint: true},
      description: 'Stop its running cycle and remove it.',
      inputSchema: {name: z.string(), ...shapeOf(HOST_OPTION)},
    },
    call('clear', async (a, c) => json(await dispatch('watch-clear', a, c))),
  );
  return server;
}

/**
 * `nudge mcp`: serve the tools on stdin/stdout until the client closes stdin. stdout carries
 * only the protocol; the server's log is `mcp.log` in the state directory.
 */
export async function serveMcp(
  ctx: CommandContext,
  stdio: {stdin: NodeJS.ReadableStream | undefined; stdout: NodeJS.WritableStream | undefined},
  defaults: McpAssessorDefaults,
): Promise<void> {
  const stateDir = resolveStateDir(ctx.env);
  await ensureStateDir(stateDir, ctx.env);
  const log = createJobLogger(join(stateDir, 'mcp.log'), {mcp: true});
  const server = createMcpServer(ctx, defaults, log);
  const transport = new StdioServerTransport(
    stdio.stdin as Readable | undefined,
    stdio.stdout as Writable | undefined,
  );
  const closed = new Promise<void>((resolve) => {
    transport.onclose = () => resolve();
    stdio.stdin?.once('end', () => resolve());
    ctx.signal.addEventListener('abort', () => resolve(), {once: true});
  });
  await server.connect(transport);
  log.info({event: 'mcp-started', pane: ctx.env.TMUX_PANE ?? null}, 'nudge mcp started');
  await closed;
  await server.close().catch(() => {});
  log.info({event: 'mcp-exit'}, 'nudge mcp exiting');
}
