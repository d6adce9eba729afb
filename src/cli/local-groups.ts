import {NudgeError} from '../base/errors.js';
import {JSON_OPTION} from '../base/option-table.js';
import {type AnyDeclaration, defineLocal} from '../declare/define.js';

/**
 * The CLI's own command groups — `nudge agents …` (the profiles nudge reads programs with) and
 * `nudge host install` — and `nudge remote`, the far end of --host. As src/cli/local.ts: no
 * verb of a pane or job, no MCP tool.
 */

const PROFILES = "the person's own set-up: which profile files nudge reads is theirs to say";

const loadAgents = async () => ({
  ...(await import('../verbs/agents.js')),
  ...(await import('../render/agents.js')),
});

const FILES = {name: 'files', variadic: true, describe: 'profile files (.toml)'};

export const agentsList = defineLocal({
  group: 'agents',
  name: 'list',
  describe: 'every profile, where its data came from, and any file of yours that was refused',
  options: JSON_OPTION,
  toOptions: () => ({}),
  cli: async (options, kit) => (await loadAgents()).listAgents(options, kit.ctx),
  render: async () => (await loadAgents()).renderAgentList,
  mcp: {none: PROFILES},
});

export const agentsShow = defineLocal({
  group: 'agents',
  name: 'show',
  describe: "one profile's data, as nudge reads it",
  positionals: [{name: 'name', required: true, describe: 'the profile'}],
  options: JSON_OPTION,
  toOptions: ({name}) => ({name: String(name)}),
  cli: async (options, kit) => (await loadAgents()).showAgent(options, kit.ctx),
  render: async () => (await loadAgents()).renderAgentShown,
  mcp: {none: PROFILES},
});

export const agentsCheck = defineLocal({
  group: 'agents',
  name: 'check',
  describe: 'check a profile file (exit 2 with the field that is wrong)',
  positionals: [{name: 'file', required: true, describe: 'a profile file (.toml)'}],
  options: JSON_OPTION,
  toOptions: ({file}) => ({file: String(file)}),
  cli: async (options, kit) => (await loadAgents()).checkAgentFile(options, kit.ctx),
  render: async () => (await loadAgents()).renderAgentCheck,
  mcp: {none: PROFILES},
});

const filesOf = ({files}: Record<string, unknown>) => ({
  files: ((files as string[] | undefined) ?? []).map(String),
});

export const agentsTrust = defineLocal({
  group: 'agents',
  name: 'trust',
  describe:
    "read these profile files (default: the project's .nudge/agents/*.toml) as they are now",
  positionals: [FILES],
  options: JSON_OPTION,
  toOptions: filesOf,
  cli: async (options, kit) => (await loadAgents()).trustAgentFiles(options, kit.ctx),
  render: async () => (await loadAgents()).renderAgentsTrusted,
  mcp: {none: PROFILES},
});

export const agentsUntrust = defineLocal({
  group: 'agents',
  name: 'untrust',
  describe: 'stop reading these profile files',
  positionals: [{...FILES, required: true}],
  options: JSON_OPTION,
  toOptions: filesOf,
  cli: async (options, kit) => (await loadAgents()).untrustAgentFiles(options, kit.ctx),
  render: async () => (await loadAgents()).renderAgentsUntrusted,
  mcp: {none: PROFILES},
});

export const hostInstall = defineLocal({
  group: 'host',
  name: 'install',
  describe: 'pack this nudge, install it on DEST over ssh (~/.local), add DEST to config.toml',
  positionals: [{name: 'dest', required: true, describe: 'a host of ~/.ssh/config, or user@host'}],
  options: {
    prefix: {
      type: 'string',
      describe: 'where on the host (npm --prefix; default ~/.local, so ~/.local/bin/nudge)',
    },
    ...JSON_OPTION,
  },
  examples: [['$0 host install gpu', 'install on the host gpu of ~/.ssh/config']],
  toOptions: ({dest, prefix}) => ({host: String(dest), prefix: prefix as string | undefined}),
  cli: async (options, kit) =>
    (await import('../front/host-install.js')).installOnHost(options, kit.ctx),
  render: async () => (await import('../render/setup.js')).renderHostInstall,
  mcp: {none: "it changes another host and the person's config.toml"},
});

export const remote = defineLocal({
  name: 'remote',
  hidden: true,
  describe: 'the far end of --host: one request on stdin, answers on stdout',
  options: {},
  toOptions: () => ({}),
  async cli(_options, kit) {
    if (!kit.stdin || !kit.stdout)
      throw new NudgeError('bad-usage', 'nudge remote talks on stdin and stdout: run it over ssh.');
    const {serveRemote} = await import('../front/serve-remote.js');
    return serveRemote({stdin: kit.stdin, stdout: kit.stdout}, kit.ctx);
  },
  render: async () => (code) => code,
  mcp: {none: 'it is the far end of --host, not a command for people or agents'},
});

/** The groups' own commands, and `remote`, as the loop sees them. */
export const LOCAL_GROUPED: readonly AnyDeclaration[] = [
  agentsList,
  agentsShow,
  agentsCheck,
  agentsTrust,
  agentsUntrust,
  hostInstall,
  remote,
];

/** What `--help` says of each group, and what naming a group alone says. */
export const LOCAL_GROUPS: Readonly<Record<string, {describe: string; demand?: string}>> = {
  agents: {
    describe: 'the profiles nudge reads each program with: built-in data, mended by your files',
    demand: 'name one of: list, show NAME, check FILE, trust [FILE], untrust FILE',
  },
  host: {
    describe: 'other hosts: nudge host install DEST puts this version of nudge there',
    demand: 'Give a host command: install.',
  },
};
