import type {Argv} from 'yargs';
import {HOST_OPTION, JSON_OPTION, SERVER_OPTIONS} from '../../base/option-table.js';
import {WATCH_REPORT_OPTIONS, WATCH_START_OPTIONS} from '../../commands/options/watch.js';
import {type CliCommand, type CliEnv, jsonOf} from '../command.js';
import {optionsFrom, withOptions} from '../options.js';

/** `nudge watch start|report|pause|clear|show|list`. */
export const watchCommand: CliCommand = (env) => ({
  command: 'watch',
  describe:
    'the watcher loop: each report waits, lets the pane go idle, asks an assessor, injects the next line or pauses',
  builder: (y) => watchCommands(y, env),
  handler: () => {},
});

const name = {type: 'string', demandOption: true} as const;

function watchCommands<A>(y: Argv<A>, {ctx, run}: CliEnv) {
  const load = async () => ({
    ...(await import('../../front/dispatch.js')),
    ...(await import('../render.js')),
  });
  return y
    .command(
      'start <name>',
      'create a watcher (prints "watching") or change one ("updated")',
      (b) =>
        withOptions(withOptions(b.positional('name', name), SERVER_OPTIONS), {
          ...WATCH_START_OPTIONS,
          ...JSON_OPTION,
        }).example(
          "$0 watch start tests --pane %3 --plan 'make every test pass' --assess-cmd 'python3 assess.py'",
          'watch pane %3',
        ),
      async (a) => {
        const {dispatch, renderWatchStart} = await load();
        const options = {
          ...optionsFrom(a, WATCH_START_OPTIONS),
          ...optionsFrom(a, SERVER_OPTIONS),
          name: String(a.name),
        };
        await run(dispatch('watch-start', options, ctx), (r, o) =>
          renderWatchStart(r, jsonOf(a), o),
        );
      },
    )
    .command(
      'report <name> <status>',
      'report progress (look_ma): prints "recorded+waiting" at once; a cycle waits, lets the pane go idle, asks the assessor',
      (b) =>
        withOptions(b.positional('name', name).positional('status', name), {
          ...WATCH_REPORT_OPTIONS,
          ...JSON_OPTION,
        }).example(
          "$0 watch report tests 'fixed the parser' --bash-wait 'npm test'",
          'report, then run the tests as the wait',
        ),
      async (a) => {
        const {dispatch, renderWatchReport} = await load();
        const options = {
          ...optionsFrom(a, WATCH_REPORT_OPTIONS),
          name: String(a.name),
          status: String(a.status),
        };
        await run(dispatch('watch-report', options, ctx), (r, o) =>
          renderWatchReport(r, jsonOf(a), o),
        );
      },
    )
    .command(
      'pause <name>',
      'pause a watcher (nothing more is typed) and print the next step the assessor suggests',
      (b) => withOptions(b.positional('name', name), {...HOST_OPTION, ...JSON_OPTION}),
      async (a) => {
        const {dispatch, renderWatchPause} = await load();
        const options = {...optionsFrom(a, HOST_OPTION), name: String(a.name)};
        await run(dispatch('watch-pause', options, ctx), (r, o) =>
          renderWatchPause(r, jsonOf(a), o),
        );
      },
    )
    .command(
      'clear <name>',
      'stop a running cycle and remove the watcher',
      (b) => withOptions(b.positional('name', name), {...HOST_OPTION, ...JSON_OPTION}),
      async (a) => {
        const {dispatch, renderWatchClear} = await load();
        const options = {...optionsFrom(a, HOST_OPTION), name: String(a.name)};
        await run(dispatch('watch-clear', options, ctx), (r, o) =>
          renderWatchClear(r, jsonOf(a), o),
        );
      },
    )
    .command(
      'show <name>',
      "a watcher's state, pane, plan, assessor and transcript",
      (b) => withOptions(b.positional('name', name), {...HOST_OPTION, ...JSON_OPTION}),
      async (a) => {
        const {dispatch, renderWatchShow} = await load();
        const options = {...optionsFrom(a, HOST_OPTION), name: String(a.name)};
        await run(dispatch('watch-show', options, ctx), (r, o) => renderWatchShow(r, jsonOf(a), o));
      },
    )
    .command(
      'list',
      'the watchers',
      (b) => withOptions(b, {...HOST_OPTION, ...JSON_OPTION}),
      async (a) => {
        const {dispatch, renderWatchList} = await load();
        await run(dispatch('watch-list', optionsFrom(a, HOST_OPTION), ctx), (r, o) =>
          renderWatchList(r, jsonOf(a), o),
        );
      },
    )
    .demandCommand(1, 'Give a watch command: start, report, pause, clear, show or list.');
}
