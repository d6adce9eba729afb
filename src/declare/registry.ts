import type {AnyDeclaration} from './define.js';
import * as jobs from './jobs.js';
import * as panes from './panes.js';
import * as queue from './queue.js';
import * as run from './run.js';
import * as views from './views.js';
import * as watch from './watch.js';

/**
 * Every declared command, in the order `nudge --help` lists them (a group at its first
 * member) and `nudge mcp` lists their tools: each file's own list, so a command added to a
 * file is listed with it. The CLI (src/cli/declared.ts) and the MCP server (src/mcp/tools.ts)
 * are loops over this list.
 */
export const DECLARED: readonly AnyDeclaration[] = [
  ...panes.COMMANDS,
  ...jobs.COMMANDS,
  ...queue.COMMANDS,
  ...views.COMMANDS,
  ...run.COMMANDS,
  ...watch.COMMANDS,
];

/** The command groups (`nudge watch …`, `nudge queue …`): what `--help` says of each, and
 * what a group named without its command says (absent: its default command runs). */
export const GROUPS: Readonly<Record<string, {describe: string; demand?: string}>> = {
  jobs: {
    describe:
      'list jobs (here and on the hosts of config.toml), filtered by server, state, pane or age; prune the ended ones',
  },
  queue: {
    describe: 'the jobs waiting for each pane, in order; move, drop or edit one before it types',
  },
  watch: {
    describe:
      'the watcher loop: each report waits, lets the pane go idle, asks an assessor, injects the next line or pauses',
    demand: 'Give a watch command: start, report, pause, clear, show or list.',
  },
};
