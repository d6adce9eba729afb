import yargs, {type Argv} from 'yargs';
import {AGENT_NAMES} from '../agents/profile.js';
import {HOOK_KINDS} from '../agents/registry.js';
import {type ExitCode, NudgeError} from '../base/errors.js';
import {nudgeVersion} from '../base/version.js';
import {cancelJob} from '../commands/cancel.js';
import type {CommandContext} from '../commands/context.js';
import {runDoctor} from '../commands/doctor.js';
import {EXPECT_ACTIONS, expectPattern} from '../commands/expect.js';
import {runHook} from '../commands/hook.js';
import {installAgent} from '../commands/install.js';
import {listJobs, showStatus} from '../commands/jobs.js';
import {showLogs} from '../commands/logs.js';
import {RUN_DEFAULTS, runInPane} from '../commands/run.js';
import {scheduleSubmit} from '../commands/schedule.js';
import {submit} from '../commands/submit.js';
import {WAIT_DEFAULTS, waitForIdle} from '../commands/wait.js';
import {
  clearWatcher,
  listWatchers,
  pauseWatcher,
  reportWatcher,
  showWatcher,
  startWatcher,
} from '../commands/watch.js';
import {WATCH_DEFAULTS} from '../watch/record.js';
import {
  type Output,
  renderCancel,
  renderExpect,
  renderHook,
  renderJobs,
  renderLogs,
  renderRun,
  renderStatus,
  renderSubmit,
  renderWait,
  renderWatchClear,
  renderWatchList,
  renderWatchPause,
  renderWatchReport,
  renderWatchShow,
  renderWatchStart,
} from './render.js';
import {renderDoctor, renderInstall, renderSchedule} from './render-setup.js';
import {parseSubmitFast, SUBMIT_FLAGS, toSubmitOptions} from './submit-flags.js';

/** The server flags every tmux-facing command takes. */
function serverOptions<T>(y: Argv<T>) {
  return y
    .option('socket-name', {
      alias: 'L',
      type: 'string',
      describe: 'tmux server socket name (as tmux -L)',
    })
    .option('socket-path', {
      alias: 'S',
      type: 'string',
      describe: 'tmux server socket path (as tmux -S)',
    });
}

/**
 * The yargs definition of the CLI. Each handler calls one command function with a typed
 * options object and stores its exit code in `result`; errors propagate to the caller, which
 * maps them to exit codes in one place.
 */
export function buildCli(
  argv: string[],
  ctx: CommandContext,
  out: Output,
  result: {exitCode: ExitCode},
  commands: {submit: typeof submit} = {submit},
  stdio: McpStdio = {stdin: undefined, stdout: undefined},
) {
  const run = async <R>(
    command: Promise<R>,
    render: (r: R, out: Output) => ExitCode | Promise<ExitCode>,
  ) => {
    result.exitCode = await render(await command, out);
  };
  return yargs(argv)
    .scriptName('nudge')
    .usage(
      '$0 <command> [options]\n\nHand a job to a tmux pane without blocking; be woken when it is done.',
    )
    .command(
      'submit [text..]',
      'type text into a pane, wait until it is done, type a notice (returns at once)',
      (y) => {
        let b = y.positional('text', {
          type: 'string',
          array: true,
          describe: 'the text to type (put it after --)',
        });
        for (const [name, f] of Object.entries(SUBMIT_FLAGS)) {
          b = b.option(name, {
            type: f.type,
            describe: f.describe,
            ...(f.short ? {alias: f.short} : {}),
            ...(f.default !== undefined ? {default: f.default} : {}),
            ...(f.multiple ? {array: true} : {}),
          });
        }
        return b
          .example(
            "$0 submit --pane %3 -- 'npm test'",
            'type "npm test" into pane %3, then notify it',
          )
          .example(
            "$0 submit --pane %4 --notify-pane %1 --until exit -- 'make'",
            'build in %4, wake %1 with the exit status',
          );
      },
      (a) => {
        const words = [
          ...((a.text as unknown[] | undefined) ?? []),
          ...((a['--'] as unknown[] | undefined) ?? []),
        ];
        const {json, ...options} = toSubmitOptions(a as Record<string, unknown>, words);
        return run(commands.submit(options, ctx), (r, o) => renderSubmit(r, json ?? false, o));
      },
    )
    .command(
      'wait [pane]',
      'block until a pane is idle (exit 0) or the timeout passes (exit 124)',
      (y) =>
        serverOptions(y)
          .positional('pane', {
            type: 'string',
            describe: 'pane: %N or session:window.pane (default $TMUX_PANE)',
          })
          .option('until', {
            type: 'string',
            default: WAIT_DEFAULTS.until,
            describe: 'stable | regex:PATTERN | prompt[:NAME|:REGEX]',
          })
          .option('timeout', {type: 'string', default: WAIT_DEFAULTS.timeout})
          .option('interval', {type: 'string', default: WAIT_DEFAULTS.interval})
          .option('stable-checks', {
            type: 'string',
            default: WAIT_DEFAULTS.stableChecks,
            describe: 'captures in a row equal to the one before: N × --interval of stillness',
          })
          .option('ignore', {
            type: 'string',
            array: true,
            describe: 'regex masked before comparing screens (repeatable)',
          })
          .option('lines', {type: 'string', default: WAIT_DEFAULTS.lines})
          .option('json', {type: 'boolean', default: false})
          .example('$0 wait %3 --timeout 2m', 'wait until pane %3 has settled'),
      (a) =>
        run(
          waitForIdle(
            {
              pane: a.pane,
              until: a.until,
              timeout: a.timeout,
              interval: a.interval,
              stableChecks: a.stableChecks,
              ignore: a.ignore?.map(String),
              lines: a.lines,
              socketName: a.socketName,
              socketPath: a.socketPath,
            },
            ctx,
          ),
          (r, o) => renderWait(r, a.json, o),
        ),
    )
    .command(
      'expect <pane> <regex>',
      'block until REGEX shows in the output (JSON answer)',
      (y) =>
        serverOptions(y)
          .positional('pane', {type: 'string', demandOption: true})
          .positional('regex', {type: 'string', demandOption: true})
          .option('timeout-ms', {type: 'string', default: '60000'})
          .option('poll-interval-ms', {type: 'string', default: '200'})
          .option('lines', {
            type: 'string',
            default: '100',
            describe: 'lines from the end of the output searched',
          })
          .option('action', {type: 'string', default: 'notify', choices: EXPECT_ACTIONS})
          .option('include-existing', {
            type: 'boolean',
            default: false,
            describe: 'also match what is already there',
          })
          .option('fail-pattern', {
            type: 'string',
            array: true,
            describe: 'end with status "failed" if this shows first (repeatable)',
          })
          .example(
            "$0 expect %3 'listening on port \\d+' --fail-pattern 'Error'",
            'wait for a server to start',
          ),
      (a) =>
        run(
          expectPattern(
            {
              pane: a.pane,
              pattern: a.regex,
              timeoutMs: a.timeoutMs,
              pollIntervalMs: a.pollIntervalMs,
              lines: a.lines,
              action: a.action,
              includeExisting: a.includeExisting,
              failPattern: a.failPattern?.map(String),
              socketName: a.socketName,
              socketPath: a.socketPath,
            },
            ctx,
          ),
          renderExpect,
        ),
    )
    .command(
      'jobs',
      'list jobs',
      (y) => y.option('json', {type: 'boolean', default: false}),
      (a) => run(listJobs({}, ctx), (r, o) => renderJobs(r, a.json, o)),
    )
    .command(
      'status <job>',
      "show one job's state and events",
      (y) =>
        y
          .positional('job', {type: 'string', demandOption: true})
          .option('json', {type: 'boolean', default: false}),
      (a) => run(showStatus({job: a.job}, ctx), (r, o) => renderStatus(r, a.json, o)),
    )
    .command(
      'cancel <job>',
      'stop a queued or running job and free its pane',
      (y) =>
        y
          .positional('job', {type: 'string', demandOption: true})
          .option('json', {type: 'boolean', default: false}),
      (a) => run(cancelJob({job: a.job}, ctx), (r, o) => renderCancel(r, a.json, o)),
    )
    .command(
      'logs <job>',
      "print a job's worker log",
      (y) =>
        y
          .positional('job', {type: 'string', demandOption: true})
          .option('follow', {
            alias: 'f',
            type: 'boolean',
            default: false,
            describe: 'keep printing until the job ends',
          })
          .option('pretty', {
            type: 'boolean',
            default: false,
            describe: 'format through pino-pretty',
          }),
      (a) => run(showLogs({job: a.job, follow: a.follow, pretty: a.pretty}, ctx), renderLogs),
    )
    .command(
      'run [words..]',
      'run a command (or an agent with a prompt) in a new pane, watch it, report back (returns at once)',
      (y) =>
        serverOptions(y)
          .positional('words', {
            type: 'string',
            array: true,
            describe: 'the command, or with --agent the prompt (put it after --)',
          })
          .option('agent', {
            type: 'string',
            choices: AGENT_NAMES,
            describe: 'start this agent in the pane and give it the prompt',
          })
          .option('worktree', {
            type: 'string',
            describe: 'run in a new git worktree on a new branch (default name nudge/<job>)',
          })
          .option('cwd', {type: 'string', describe: 'folder to run in (default: here)'})
          .option('window', {type: 'boolean', describe: 'a new window (the default)'})
          .option('split', {
            type: 'string',
            choices: ['h', 'v'],
            describe: "a split of the caller's window: h side by side, v one above the other",
          })
          .option('session', {
            type: 'string',
            describe: "the session for the window (default: the caller's, else the most recent)",
          })
          .option('idle-timeout', {
            type: 'string',
            default: RUN_DEFAULTS.idleTimeout,
            describe: 'stop after this long without output or file changes',
          })
          .option('timeout', {type: 'string', default: RUN_DEFAULTS.timeout})
          .option('interval', {type: 'string', default: RUN_DEFAULTS.interval, hidden: true})
          .option('notify-pane', {
            type: 'string',
            describe: 'pane told of the end and of permission stops (default: the caller)',
          })
          .option('notify', {type: 'boolean', describe: '--no-notify: tell no pane'})
          .option('permissions', {
            type: 'string',
            choices: ['ask', 'deny'],
            default: RUN_DEFAULTS.permissions,
            describe: "an agent's permission dialog: ask a person (tell the caller), or deny",
          })
          .option('close', {type: 'boolean', default: false, describe: 'close the pane at the end'})
          .option('pr', {
            type: 'boolean',
            default: false,
            describe: 'with --worktree: push the branch and open a pull request (gh)',
          })
          .option('wait', {
            type: 'boolean',
            default: false,
            describe: 'run in the foreground; exit 0 done, 1 failed, 124 timeout',
          })
          .option('json', {type: 'boolean', default: false})
          .example('$0 run -- make test', 'run the tests in a new window; be told when they end')
          .example(
            "$0 run --agent claude --worktree -- 'add a --verbose flag'",
            'hand a task to Claude Code on a new branch',
          ),
      (a) => {
        const words = [
          ...((a.words as unknown[] | undefined) ?? []),
          ...((a['--'] as unknown[] | undefined) ?? []),
        ].map(String);
        const worktree =
          a.worktree === undefined ? undefined : a.worktree === '' ? true : a.worktree;
        return run(
          runInPane(
            {
              words,
              agent: a.agent,
              worktree,
              cwd: a.cwd,
              window: a.window,
              split: a.split,
              session: a.session,
              idleTimeout: a.idleTimeout,
              timeout: a.timeout,
              interval: a.interval,
              notifyPane: a.notifyPane,
              notify: a.notify,
              permissions: a.permissions,
              close: a.close,
              pr: a.pr,
              wait: a.wait,
              socketName: a.socketName,
              socketPath: a.socketPath,
            },
            ctx,
          ),
          (r, o) => renderRun(r, a.json, o),
        );
      },
    )
    .command(
      'watch',
      'the watcher loop: each report waits, lets the pane go idle, asks an assessor, injects the next line or pauses',
      (y) => watchCommands(y, ctx, run),
    )
    .command(
      'mcp',
      'serve the nudge tools over MCP on stdin/stdout (register it in Claude Code, Gemini CLI, Codex)',
      (y) =>
        y
          .option('assess-cmd', {
            type: 'string',
            describe: 'default assessor of watch_me (see watch start)',
          })
          .option('assess-url', {type: 'string', describe: 'default assessor endpoint of watch_me'})
          .option('assess-model', {type: 'string'})
          .option('assess-key-env', {type: 'string'})
          .example(
            'claude mcp add -s user nudge -- nudge mcp --assess-url http://127.0.0.1:11434/v1 --assess-model qwen3',
            'register it in Claude Code',
          ),
      async (a) => {
        const {serveMcp} = await import('../mcp/server.js');
        await serveMcp(ctx, stdio, {
          assessCmd: a.assessCmd,
          assessUrl: a.assessUrl,
          assessModel: a.assessModel,
          assessKeyEnv: a.assessKeyEnv,
        });
      },
    )
    .command(
      'hook <kind> [payload]',
      "record that this pane's agent finished a turn (Claude Code Stop, Gemini AfterAgent, Codex notify hooks)",
      (y) =>
        y
          .positional('kind', {type: 'string', choices: HOOK_KINDS, demandOption: true})
          .positional('payload', {type: 'string', describe: 'codex-notify: the JSON Codex passes'}),
      (a) => run(runHook({kind: a.kind, payload: a.payload}, ctx), renderHook),
    )
    .command(
      'install <agent>',
      'wire nudge into Claude Code, Gemini CLI or Codex: command or skill, turn-end hook, MCP server',
      (y) =>
        y
          .positional('agent', {
            type: 'string',
            choices: AGENT_NAMES,
            demandOption: true,
          })
          .option('scope', {
            type: 'string',
            choices: ['user', 'project'],
            default: 'user',
            describe: "user: the agent's files in your home; project: the repository's",
          })
          .option('dry-run', {type: 'boolean', describe: 'print the plan; write nothing'})
          .option('uninstall', {type: 'boolean', describe: 'take out exactly what install added'})
          .option('json', {type: 'boolean', describe: 'print the plan or result as JSON'})
          .example('$0 install claude', '/nudge, the Stop hook and nudge mcp for Claude Code')
          .example('$0 install codex --dry-run', 'what it would change, changing nothing'),
      (a) =>
        run(
          installAgent(
            {agent: a.agent, scope: a.scope, dryRun: a.dryRun, uninstall: a.uninstall},
            ctx,
          ),
          (r, o) => renderInstall(r, a.json ?? false, o),
        ),
    )
    .command(
      'schedule <scheduler> [words..]',
      'print or install a crontab line, launchd plist or systemd timer that runs nudge submit --wait',
      (y) =>
        serverOptions(y)
          .positional('scheduler', {
            type: 'string',
            choices: ['cron', 'launchd', 'systemd'],
            demandOption: true,
          })
          .option('every', {type: 'string', describe: 'how often: 30m, 2h, 1d'})
          .option('cron', {type: 'string', describe: "when, as a cron expression: '0 9 * * 1-5'"})
          .option('name', {
            type: 'string',
            describe: 'names the crontab block, plist or units (default: default)',
          })
          .option('install', {type: 'boolean', describe: 'put it in place and load it'})
          .option('uninstall', {type: 'boolean', describe: 'unload it and take it out'})
          .option('json', {type: 'boolean', describe: 'print the result as JSON'})
          .example(
            "$0 schedule cron --every 30m -- --pane %3 -- 'continue'",
            'a crontab line typing "continue" into %3 every 30 minutes',
          )
          .example(
            '$0 schedule systemd --cron "0 9 * * 1-5" --install -- --pane %3 -- standup',
            'a user timer, installed and started',
          ),
      (a) => {
        const words = [
          ...((a.words as unknown[] | undefined) ?? []),
          ...((a['--'] as unknown[] | undefined) ?? []),
        ].map(String);
        const parsed = parseSubmitFast(['submit', ...words]);
        return run(
          scheduleSubmit(
            {
              scheduler: a.scheduler,
              every: a.every,
              cron: a.cron,
              name: a.name,
              install: a.install,
              uninstall: a.uninstall,
              socketName: a.socketName,
              socketPath: a.socketPath,
              submitWords: words,
              submit: parsed,
            },
            ctx,
          ),
          (r, o) => renderSchedule(r, a.json ?? false, o),
        );
      },
    )
    .command(
      'doctor',
      'check tmux, the server, this pane, node, the state directory, control mode and each agent',
      (y) =>
        serverOptions(y)
          .option('json', {type: 'boolean', describe: 'print the checks as JSON'})
          .example('$0 doctor', 'ok, warn or fail for each check, with the fix'),
      (a) =>
        run(runDoctor({socketName: a.socketName, socketPath: a.socketPath}, ctx), (r, o) =>
          renderDoctor(r, a.json ?? false, o),
        ),
    )
    .completion('completion', 'print a bash or zsh completion script (zsh when $SHELL is zsh)')
    .parserConfiguration({'populate--': true})
    .demandCommand(1, 'Give a command; see nudge --help.')
    .strict()
    .recommendCommands()
    .help()
    .version(nudgeVersion())
    .wrap(Math.min(110, (stdio.stdout as {columns?: number} | undefined)?.columns || 100))
    .showHelpOnFail(false)
    .exitProcess(false)
    .fail((msg, error) => {
      if (error) throw error;
      // recommendCommands() reports an unknown command only as "Did you mean …?".
      // One line: yargs puts a list of choices on lines of their own.
      const line = msg.replace(/\s*\n\s*/g, ' ');
      const text = line.startsWith('Did you mean') ? `Unknown command. ${line}` : line;
      throw new NudgeError('bad-usage', `${text} See nudge --help.`);
    });
}

/** The streams `nudge mcp` speaks the protocol on (the entry passes process.stdin/stdout). */
export interface McpStdio {
  stdin: NodeJS.ReadableStream | undefined;
  stdout: NodeJS.WritableStream | undefined;
}

type Run = <R>(
  command: Promise<R>,
  render: (r: R, out: Output) => ExitCode | Promise<ExitCode>,
) => Promise<void>;

/** `nudge watch start|report|pause|clear|show|list`. */
function watchCommands<T>(y: Argv<T>, ctx: CommandContext, run: Run) {
  const json = {type: 'boolean', default: false, describe: 'print JSON'} as const;
  return y
    .command(
      'start <name>',
      'create a watcher (prints "watching") or change one ("updated")',
      (b) =>
        serverOptions(b)
          .positional('name', {type: 'string', demandOption: true})
          .option('pane', {
            type: 'string',
            describe: 'the pane watched: %N or session:window.pane (default $TMUX_PANE)',
          })
          .option('plan', {type: 'string', describe: 'the plan: TEXT or @FILE'})
          .option('assess-cmd', {
            type: 'string',
            describe:
              'assessor command: words or a JSON array, no shell (prompt JSON on stdin, answer JSON on stdout)',
          })
          .option('assess-url', {
            type: 'string',
            describe: 'assessor: an OpenAI-compatible endpoint (…/v1 or …/v1/chat/completions)',
          })
          .option('assess-model', {type: 'string', describe: 'the model --assess-url serves'})
          .option('assess-key-env', {
            type: 'string',
            describe: 'environment variable holding the API key',
          })
          .option('idle-threshold', {
            type: 'string',
            describe: `the pane must be still this long before assessing (default ${WATCH_DEFAULTS.idleThreshold})`,
          })
          .option('idle-timeout', {
            type: 'string',
            describe: `pause if the pane is not idle within this (default ${WATCH_DEFAULTS.idleTimeout})`,
          })
          .option('default-wait', {
            type: 'string',
            describe: `sleep this long when a report has no --bash-wait (default ${WATCH_DEFAULTS.defaultWait})`,
          })
          .option('wait-timeout', {
            type: 'string',
            describe: `stop a --bash-wait command after this (default ${WATCH_DEFAULTS.waitTimeout})`,
          })
          .option('assess-timeout', {
            type: 'string',
            describe: `give up on the assessor after this (default ${WATCH_DEFAULTS.assessTimeout})`,
          })
          .option('transcript-cap', {
            type: 'string',
            describe: `transcript entries kept, oldest dropped (default ${WATCH_DEFAULTS.transcriptCap})`,
          })
          .option('enter', {
            type: 'boolean',
            describe: 'press Enter after an injected line (--no-enter: leave it typed)',
          })
          .option('json', json)
          .example(
            "$0 watch start tests --pane %3 --plan 'make every test pass' --assess-cmd 'python3 assess.py'",
            'watch pane %3',
          ),
      (a) =>
        run(
          startWatcher(
            {
              name: a.name,
              pane: a.pane,
              plan: a.plan,
              assessCmd: a.assessCmd,
              assessUrl: a.assessUrl,
              assessModel: a.assessModel,
              assessKeyEnv: a.assessKeyEnv,
              idleThreshold: a.idleThreshold,
              idleTimeout: a.idleTimeout,
              defaultWait: a.defaultWait,
              waitTimeout: a.waitTimeout,
              assessTimeout: a.assessTimeout,
              transcriptCap: a.transcriptCap,
              enter: a.enter,
              socketName: a.socketName,
              socketPath: a.socketPath,
            },
            ctx,
          ),
          (r, o) => renderWatchStart(r, a.json, o),
        ),
    )
    .command(
      'report <name> <status>',
      'report progress (look_ma): prints "recorded+waiting" at once; a cycle waits, lets the pane go idle, asks the assessor',
      (b) =>
        b
          .positional('name', {type: 'string', demandOption: true})
          .positional('status', {type: 'string', demandOption: true})
          .option('bash-wait', {
            type: 'string',
            describe: 'wait by running this under bash -lc (output goes to the assessor)',
          })
          .option('json', json)
          .example(
            "$0 watch report tests 'fixed the parser' --bash-wait 'npm test'",
            'report, then run the tests as the wait',
          ),
      (a) =>
        run(reportWatcher({name: a.name, status: a.status, bashWait: a.bashWait}, ctx), (r, o) =>
          renderWatchReport(r, a.json, o),
        ),
    )
    .command(
      'pause <name>',
      'pause a watcher (nothing more is typed) and print the next step the assessor suggests',
      (b) => b.positional('name', {type: 'string', demandOption: true}).option('json', json),
      (a) => run(pauseWatcher({name: a.name}, ctx), (r, o) => renderWatchPause(r, a.json, o)),
    )
    .command(
      'clear <name>',
      'stop a running cycle and remove the watcher',
      (b) => b.positional('name', {type: 'string', demandOption: true}).option('json', json),
      (a) => run(clearWatcher({name: a.name}, ctx), (r, o) => renderWatchClear(r, a.json, o)),
    )
    .command(
      'show <name>',
      "a watcher's state, pane, plan, assessor and transcript",
      (b) => b.positional('name', {type: 'string', demandOption: true}).option('json', json),
      (a) => run(showWatcher({name: a.name}, ctx), (r, o) => renderWatchShow(r, a.json, o)),
    )
    .command(
      'list',
      'the watchers',
      (b) => b.option('json', json),
      (a) => run(listWatchers({}, ctx), (r, o) => renderWatchList(r, a.json, o)),
    )
    .demandCommand(1, 'Give a watch command: start, report, pause, clear, show or list.');
}
