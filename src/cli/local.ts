import {HOOK_KINDS} from '../agents/registry.js';
import {EXIT_CODES, NudgeError} from '../base/errors.js';
import {JSON_OPTION, SERVER_OPTIONS} from '../base/option-table.js';
import {type AnyDeclaration, defineLocal, PANE} from '../declare/define.js';
import {installTargets} from '../setup/agents.js';
import {EXPLAIN_OPTIONS} from '../verbs/options/explain.js';
import {TOP_OPTIONS} from '../verbs/options/panes.js';
import {INSTALL_OPTIONS, SCHEDULE_OPTIONS} from '../verbs/options/setup.js';
import {MCP_OPTIONS} from '../verbs/options/watch.js';
import {parseSubmitFast} from './submit-flags.js';

/**
 * The commands of the command line alone: they run here, for the person or the tool that
 * called, and are no verb of a pane or a job (src/front/verbs.ts) nor an MCP tool. Declared as
 * the verbs are (src/declare/define.ts); src/cli/declared.ts is the one loop over both.
 */

const ok = async () => () => EXIT_CODES.ok;

const isTty = (s: unknown) => (s as {isTTY?: boolean} | undefined)?.isTTY === true;

export const top = defineLocal({
  name: 'top',
  describe:
    'a live view of every pane nudge knows on the server: program, state, job, queue, the question if blocked; keys to go there, cancel, open the queue',
  options: {...TOP_OPTIONS, ...JSON_OPTION},
  toOptions: (given) => given,
  async cli(options, kit) {
    if (options.once || kit.json) return kit.dispatch('top', options, kit.ctx);
    if (!isTty(kit.stdin) || !isTty(kit.stdout))
      throw new NudgeError(
        'bad-usage',
        'nudge top needs a terminal (a tty on stdin and stdout); nudge top --once prints the view once.',
      );
    const {runTop} = await import('./top.js');
    await runTop(options, kit.ctx);
    return undefined;
  },
  render: async () => {
    const {topText} = await import('./top.js');
    return (view, json, out) => {
      if (view && json) out.stdout(JSON.stringify(view));
      // Cut to a terminal's width; whole into a pipe.
      else if (view) for (const line of topText(view, out.width)) out.stdout(line);
      return EXIT_CODES.ok;
    };
  },
  mcp: {none: 'a live view for the person at a terminal; an agent reads jobs and status'},
});

export const mcp = defineLocal({
  name: 'mcp',
  describe:
    'serve the nudge tools over MCP on stdin/stdout (register it in Claude Code, Gemini CLI, Codex)',
  options: MCP_OPTIONS,
  examples: [
    [
      'claude mcp add -s user nudge -- nudge mcp --assess-url http://127.0.0.1:11434/v1 --assess-model qwen3',
      'register it in Claude Code',
    ],
  ],
  toOptions: (given) => given,
  async cli(options, kit) {
    const {serveMcp} = await import('../mcp/server.js');
    await serveMcp(kit.ctx, {stdin: kit.stdin, stdout: kit.stdout}, options);
  },
  render: ok,
  mcp: {none: 'it is the MCP server'},
});

export const hook = defineLocal({
  name: 'hook',
  describe:
    "record that this pane's agent finished a turn (Claude Code Stop, Gemini AfterAgent, Codex notify hooks)",
  positionals: [
    {name: 'kind', required: true, describe: 'the hook', choices: HOOK_KINDS},
    {name: 'payload', describe: 'codex-notify: the JSON Codex passes'},
  ],
  options: {},
  toOptions: ({kind, payload}) => ({kind: String(kind), payload: payload as string | undefined}),
  cli: async (options, kit) => (await import('../verbs/hook.js')).runHook(options, kit.ctx),
  render: async () => {
    const {renderHook} = await import('../render/render.js');
    return (r, _json, out) => renderHook(r, out);
  },
  mcp: {none: "an agent's own hook runs it, in the agent's pane"},
});

const SETS_UP = "it changes the person's set-up (their agent's files, crontab or timers)";

export const install = defineLocal({
  name: 'install',
  describe:
    'wire nudge into an agent (Claude Code, Gemini CLI, Codex, Qwen Code, opencode, Copilot CLI, Pi): command or skill, turn-end hook, MCP server',
  positionals: [{name: 'agent', required: true, describe: 'the agent', choices: installTargets}],
  options: {...INSTALL_OPTIONS, ...JSON_OPTION},
  examples: [
    ['$0 install claude', '/nudge, the Stop hook and nudge mcp for Claude Code'],
    ['$0 install codex --dry-run', 'what it would change, changing nothing'],
  ],
  toOptions: ({agent, json: _json, ...options}) => ({...options, agent: String(agent)}),
  cli: async (options, kit) => (await import('../verbs/install.js')).installAgent(options, kit.ctx),
  render: async () => (await import('../render/setup.js')).renderInstall,
  mcp: {none: SETS_UP},
});

export const schedule = defineLocal({
  name: 'schedule',
  describe:
    'print or install a crontab line, launchd plist or systemd timer that runs nudge submit --wait',
  positionals: [
    {
      name: 'scheduler',
      required: true,
      choices: ['cron', 'launchd', 'systemd', 'run'],
      describe: 'run NAME: what the installed schedule runs (its text from its private file)',
    },
    {name: 'words', variadic: true, describe: "submit's options and text, after --"},
  ],
  options: {...SERVER_OPTIONS, ...SCHEDULE_OPTIONS, ...JSON_OPTION},
  examples: [
    [
      "$0 schedule cron --every 30m -- --pane %3 -- 'continue'",
      'a crontab line typing "continue" into %3 every 30 minutes',
    ],
    [
      '$0 schedule systemd --cron "0 9 * * 1-5" --install -- --pane %3 -- standup',
      'a user timer, installed and started',
    ],
  ],
  toOptions: ({scheduler, words, json: _json, ...options}) => {
    const submitWords = ((words as string[] | undefined) ?? []).map(String);
    return {
      ...options,
      scheduler: String(scheduler),
      submitWords,
      submit: parseSubmitFast(['submit', ...submitWords]),
    };
  },
  async cli(options, kit) {
    if (options.scheduler === 'run') {
      // The scheduled submit: aimed at the pane its mark is on now, run here (--wait).
      const {scheduledSubmit} = await import('../verbs/schedule-run.js');
      const {submit} = await import('../verbs/submit.js');
      const name = options.submitWords[0] ?? '';
      return {
        ran: true as const,
        submitted: await submit(await scheduledSubmit({name}, kit.ctx), kit.ctx),
      };
    }
    const {scheduleSubmit} = await import('../verbs/schedule.js');
    return {ran: false as const, made: await scheduleSubmit(options, kit.ctx)};
  },
  render: async () => {
    const {renderSubmit} = await import('../render/render.js');
    const {renderSchedule} = await import('../render/setup.js');
    return (r, json, out) =>
      r.ran ? renderSubmit(r.submitted, json, out) : renderSchedule(r.made, json, out);
  },
  mcp: {none: SETS_UP},
});

export const explain = defineLocal({
  name: 'explain',
  describe:
    "which program runs in a pane, why nudge recognised it, each rule of its profile on the screen now, and wait's verdict",
  positionals: [PANE],
  options: {...SERVER_OPTIONS, ...EXPLAIN_OPTIONS, ...JSON_OPTION},
  examples: [['$0 explain %3', 'what nudge sees in pane %3']],
  toOptions: ({pane, json: _json, ...options}) => ({...options, pane: pane as string | undefined}),
  cli: async (options, kit) => (await import('../verbs/explain.js')).explainPane(options, kit.ctx),
  render: async () => (await import('../render/agents.js')).renderExplain,
  mcp: {
    none: "for the person reading why: an agent's wait and expect tools give the verdict itself",
  },
});

/** The CLI's own commands, each as the loop sees it. */
export const LOCAL: readonly AnyDeclaration[] = [top, mcp, hook, install, schedule, explain];
