// The commands a person runs at every glance — `nudge jobs` and `nudge status JOB` — as
// src/cli.ts hands them over: read without yargs and run from one bundle of their own
// (scripts/bundle.ts, "quick"), which holds their whole path and nothing else, so they start
// about as fast as Node does. Whatever it does not take — help, an error, a subcommand, a job
// or list on another host — it gives back untouched, and src/main.ts runs it.

import {cliEnv} from './cli/command.js';
import {fastLine, runDeclared} from './cli/run-declared.js';
import {runsHere} from './front/dispatch.js';
import {endWithError, finish, frontEnd, utf8} from './front-end.js';

/** Run `argv` if it is a plain `jobs` or `status` line of this host: true once it ran (its
 * exit code set), false — having done nothing — for main to run it. */
export async function quick(
  argv: readonly string[],
  env: Record<string, string | undefined>,
): Promise<boolean> {
  const line = await fastLine(argv);
  if (!line?.d.verb || !runsHere(line.d.verb, line.given as never, env) || !utf8(argv))
    return false;
  const fe = frontEnd(new URL('./', import.meta.url));
  try {
    await runDeclared(line.d, line.given, line.json, cliEnv(fe.ctx, fe.out, fe.result, fe.stdio));
    finish(fe);
  } catch (thrown) {
    await endWithError(thrown, argv, fe.out);
  }
  return true;
}
