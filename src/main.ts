// The command-line program, loaded by src/cli.ts for every command line the quick bundles
// (src/quick.ts, src/quick-submit.ts) do not take: yargs reads it. With src/cli.ts and
// src/front-end.ts, the only modules (with the workers' entries) that touch `process`.
// Errors become exit codes here, in src/front-end.ts, and nowhere else.

import {endWithError, finish, frontEnd, refuseReplacedBytes} from './front-end.js';

// Like yargs' hideBin: drop the node binary and the script path.
const argv = completionFor(process.argv.slice(2));
const fe = frontEnd(new URL('./', import.meta.url));

/** `nudge completion bash|zsh|fish`: yargs picks a completion script by $SHELL alone, so the
 * shell named is the one it reads (the script is printed, nothing else runs). */
function completionFor(args: string[]): string[] {
  const shell = args[0] === 'completion' ? args[1] : undefined;
  if (shell !== 'bash' && shell !== 'zsh' && shell !== 'fish') return args;
  process.env.SHELL = `/bin/${shell}`;
  return ['completion', ...args.slice(2)];
}

try {
  refuseReplacedBytes(argv);
  const {buildCli} = await import('./cli/build-cli.js');
  await buildCli(argv, fe.ctx, fe.out, fe.result, undefined, fe.stdio).parseAsync();
  finish(fe);
} catch (thrown) {
  await endWithError(thrown, argv, fe.out);
}
