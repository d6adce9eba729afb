import type {Argv} from 'yargs';
import {JSON_OPTION} from '../../base/option-table.js';
import {type CliCommand, type CliEnv, jsonOf} from '../command.js';
import {withOptions} from '../options.js';

/** `nudge agents list|show|check|trust|untrust`: the profiles nudge reads programs with. */
export const agentsCommand: CliCommand = (env) => ({
  command: 'agents',
  describe: 'the profiles nudge reads each program with: built-in data, mended by your files',
  builder: (y) => agentsCommands(y, env),
  handler: () => {},
});

function agentsCommands<A>(y: Argv<A>, {ctx, run}: CliEnv) {
  const load = async () => ({
    ...(await import('../../verbs/agents.js')),
    ...(await import('../../render/agents.js')),
  });
  return y
    .command(
      'list',
      'every profile, where its data came from, and any file of yours that was refused',
      (b) => withOptions(b, JSON_OPTION),
      async (a) => {
        const {listAgents, renderAgentList} = await load();
        await run(listAgents({}, ctx), (r, o) => renderAgentList(r, jsonOf(a), o));
      },
    )
    .command(
      'show <name>',
      "one profile's data, as nudge reads it",
      (b) => withOptions(b.positional('name', {type: 'string', demandOption: true}), JSON_OPTION),
      async (a) => {
        const {showAgent, renderAgentShown} = await load();
        await run(showAgent({name: String(a.name)}, ctx), (r, o) =>
          renderAgentShown(r, jsonOf(a), o),
        );
      },
    )
    .command(
      'check <file>',
      'check a profile file (exit 2 with the field that is wrong)',
      (b) => withOptions(b.positional('file', {type: 'string', demandOption: true}), JSON_OPTION),
      async (a) => {
        const {checkAgentFile, renderAgentCheck} = await load();
        await run(checkAgentFile({file: String(a.file)}, ctx), (r, o) =>
          renderAgentCheck(r, jsonOf(a), o),
        );
      },
    )
    .command(
      'trust [files..]',
      "read these profile files (default: the project's .nudge/agents/*.toml) as they are now",
      (b) => withOptions(b.positional('files', {type: 'string', array: true}), JSON_OPTION),
      async (a) => {
        const {trustAgentFiles, renderAgentsTrusted} = await load();
        const files = ((a.files as string[] | undefined) ?? []).map(String);
        await run(trustAgentFiles({files}, ctx), (r, o) => renderAgentsTrusted(r, jsonOf(a), o));
      },
    )
    .command(
      'untrust <files..>',
      'stop reading these profile files',
      (b) =>
        withOptions(
          b.positional('files', {type: 'string', array: true, demandOption: true}),
          JSON_OPTION,
        ),
      async (a) => {
        const {untrustAgentFiles, renderAgentsUntrusted} = await load();
        const files = ((a.files as string[] | undefined) ?? []).map(String);
        await run(untrustAgentFiles({files}, ctx), (r, o) =>
          renderAgentsUntrusted(r, jsonOf(a), o),
        );
      },
    )
    .demandCommand(1, 'name one of: list, show NAME, check FILE, trust [FILE], untrust FILE');
}
