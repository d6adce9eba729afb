import {fileURLToPath} from 'node:url';
import {realClock} from '../base/clock.js';
import {systemForeground} from '../process/foreground.js';
import {systemTree} from '../process/tree.js';
import type {SelfCommand} from '../setup/place.js';
import {stableNode} from '../setup/self-paths.js';
import {createSpawnRunner} from '../tmux/runner.js';
import {createTmux} from '../tmux/tmux.js';
import type {CommandContext} from './context.js';

/**
 * The context of a real nudge process (the CLI, a relay worker): real time, tmux, the process
 * view (/proc or ps), and the worker scripts of this install; `self` is how to run this nudge
 * again (the node on PATH that survives an upgrade: src/setup/self-paths.ts). `srcDir` is the compiled src/ folder (dist/src/, where
 * the CLI's bundle is): the workers are in dist/workers/ beside it. What only the entry may
 * read from `process` comes in `own`.
 */
export function nodeContext(
  own: Pick<
    CommandContext,
    'env' | 'cwd' | 'pid' | 'uid' | 'signal' | 'readStdin' | 'readStdinBytes'
  > & {
    node: string;
  },
  srcDir: URL,
): CommandContext {
  const at = (path: string) => fileURLToPath(new URL(path, srcDir));
  const {node, ...rest} = own;
  let stable: string | undefined;
  // Read on first use (install, schedule, doctor): the submit path never walks PATH. A getter
  // of `self`'s own, not of the context, which commands copy with a spread (that reads each
  // of its members).
  const self: SelfCommand = {
    get node() {
      stable ??= stableNode(node, own.env.PATH);
      return stable;
    },
    cli: at('./cli.js'),
  };
  return {
    ...rest,
    clock: realClock,
    tmux: (spec) => createTmux(createSpawnRunner(spec)),
    tree: systemTree,
    foreground: systemForeground,
    workerEntry: at('../workers/job-worker.js'),
    watchWorkerEntry: at('../workers/watch-worker.js'),
    runWorkerEntry: at('../workers/run-worker.js'),
    relayWorkerEntry: at('../workers/relay-worker.js'),
    self,
    dataDir: at('../../data/'),
  };
}
