import {NudgeError} from '../../base/errors.js';
import {JSON_OPTION} from '../../base/option-table.js';
import {type CliCommand, jsonOf} from '../command.js';
import {withOptions} from '../options.js';

/** `nudge host install DEST`: this version of nudge on another host (docs/remote.md). */
export const hostCommand: CliCommand = ({ctx, run}) => ({
  command: 'host',
  describe: 'other hosts: nudge host install DEST puts this version of nudge there',
  builder: (y) =>
    y
      .command(
        'install <dest>',
        'pack this nudge, install it on DEST over ssh (~/.local), add DEST to config.toml',
        (b) =>
          withOptions(b.positional('dest', {type: 'string', demandOption: true}), {
            prefix: {
              type: 'string',
              describe: 'where on the host (npm --prefix; default ~/.local, so ~/.local/bin/nudge)',
            },
            ...JSON_OPTION,
          }).example('$0 host install gpu', 'install on the host gpu of ~/.ssh/config'),
        async (a) => {
          const {installOnHost} = await import('../../front/host-install.js');
          const {renderHostInstall} = await import('../../render/setup.js');
          const options = {host: String(a.dest), prefix: a.prefix as string | undefined};
          await run(installOnHost(options, ctx), (r, o) => renderHostInstall(r, jsonOf(a), o));
        },
      )
      .demandCommand(1, 'Give a host command: install.'),
  handler: () => {},
});

/** `nudge remote`: the far end of --host (one request on stdin, answers on stdout); not a
 * command for people, so not in --help. */
export const remoteCommand: CliCommand = ({ctx, run, stdio}) => ({
  command: 'remote',
  describe: false,
  handler: async () => {
    const {serveRemote} = await import('../../front/serve-remote.js');
    if (!stdio.stdin || !stdio.stdout)
      throw new NudgeError('bad-usage', 'nudge remote talks on stdin and stdout: run it over ssh.');
    await run(serveRemote({stdin: stdio.stdin, stdout: stdio.stdout}, ctx), (code) => code);
  },
});
