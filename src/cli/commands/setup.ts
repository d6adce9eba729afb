import {HOOK_KINDS} from '../../agents/registry.js';
import {SERVER_OPTIONS} from '../../base/option-table.js';
import {installTargets} from '../../setup/agents.js';
import {INSTALL_OPTIONS, SCHEDULE_OPTIONS} from '../../verbs/options/setup.js';
import {MCP_OPTIONS} from '../../verbs/options/watch.js';
import {type CliCommand, jsonOf, wordsOf} from '../command.js';
import {optionsFrom, withOptions} from '../options.js';
import {parseSubmitFast} from '../submit-flags.js';

/** `nudge mcp`, `hook`, `install`, `schedule` and `doctor`: fitting nudge into other tools. */
export const mcpCommand: CliCommand = ({ctx, stdio}) => ({
  command: 'mcp',
  describe:
    'serve the nudge tools over MCP on stdin/stdout (register it in Claude Code, Gemini CLI, Codex)',
  builder: (y) =>
    withOptions(y, MCP_OPTIONS).example(
      'claude mcp add -s user nudge -- nudge mcp --assess-url http://127.0.0.1:11434/v1 --assess-model qwen3',
      'register it in Claude Code',
    ),
  handler: async (a) => {
    const {serveMcp} = await import('../../mcp/server.js');
    await serveMcp(ctx, stdio, optionsFrom(a, MCP_OPTIONS));
  },
});

export const hookCommand: CliCommand = ({ctx, run}) => ({
  command: 'hook <kind> [payload]',
  describe:
    "record that this pane's agent finished a turn (Claude Code Stop, Gemini AfterAgent, Codex notify hooks)",
  builder: (y) =>
    y
      .positional('kind', {type: 'string', choices: HOOK_KINDS, demandOption: true})
      .positional('payload', {type: 'string', describe: 'codex-notify: the JSON Codex passes'}),
  handler: async (a) => {
    const {runHook} = await import('../../verbs/hook.js');
    const {renderHook} = await import('../../render/render.js');
    const payload = a.payload as string | undefined;
    await run(runHook({kind: String(a.kind), payload}, ctx), renderHook);
  },
});

export const installCommand: CliCommand = ({ctx, run}) => ({
  command: 'install <agent>',
  describe:
    'wire nudge into an agent (Claude Code, Gemini CLI, Codex, Qwen Code, opencode, Copilot CLI, Pi): command or skill, turn-end hook, MCP server',
  builder: (y) =>
    withOptions(
      withOptions(
        y.positional('agent', {type: 'string', choices: installTargets(), demandOption: true}),
        INSTALL_OPTIONS,
      ),
      {json: {type: 'boolean', describe: 'print the plan or result as JSON'}},
    )
      .example('$0 install claude', '/nudge, the Stop hook and nudge mcp for Claude Code')
      .example('$0 install codex --dry-run', 'what it would change, changing nothing'),
  handler: async (a) => {
    const {installAgent} = await import('../../verbs/install.js');
    const {renderInstall} = await import('../../render/setup.js');
    const options = {...optionsFrom(a, INSTALL_OPTIONS), agent: String(a.agent)};
    await run(installAgent(options, ctx), (r, o) => renderInstall(r, jsonOf(a), o));
  },
});

export const scheduleCommand: CliCommand = ({ctx, run}) => ({
  command: 'schedule <scheduler> [words..]',
  describe:
    'print or install a crontab line, launchd plist or systemd timer that runs nudge submit --wait',
  builder: (y) =>
    withOptions(
      withOptions(
        withOptions(
          y.positional('scheduler', {
            type: 'string',
            choices: ['cron', 'launchd', 'systemd', 'run'],
            describe: 'run NAME: what the installed schedule runs (its text from its private file)',
            demandOption: true,
          }),
          SERVER_OPTIONS,
        ),
        SCHEDULE_OPTIONS,
      ),
      {json: {type: 'boolean', describe: 'print the result as JSON'}},
    )
      .example(
        "$0 schedule cron --every 30m -- --pane %3 -- 'continue'",
        'a crontab line typing "continue" into %3 every 30 minutes',
      )
      .example(
        '$0 schedule systemd --cron "0 9 * * 1-5" --install -- --pane %3 -- standup',
        'a user timer, installed and started',
      ),
  handler: async (a) => {
    const words = wordsOf(a, 'words');
    if (a.scheduler === 'run') {
      // The scheduled submit: aimed at the pane its mark is on now, run here (--wait).
      const {scheduledSubmit} = await import('../../verbs/schedule-run.js');
      const {submit} = await import('../../verbs/submit.js');
      const {renderSubmit} = await import('../../render/render.js');
      const name = words[0] ?? '';
      await run(
        scheduledSubmit({name}, ctx).then((o) => submit(o, ctx)),
        (r, o) => renderSubmit(r, jsonOf(a), o),
      );
      return;
    }
    const {scheduleSubmit} = await import('../../verbs/schedule.js');
    const {renderSchedule} = await import('../../render/setup.js');
    const options = {
      ...optionsFrom(a, SCHEDULE_OPTIONS),
      ...optionsFrom(a, SERVER_OPTIONS),
      scheduler: String(a.scheduler),
      submitWords: words,
      submit: parseSubmitFast(['submit', ...words]),
    };
    await run(scheduleSubmit(options, ctx), (r, o) => renderSchedule(r, jsonOf(a), o));
  },
});
