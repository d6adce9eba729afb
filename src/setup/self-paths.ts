import {existsSync, realpathSync} from 'node:fs';
import {delimiter, join} from 'node:path';
import type {SelfCommand} from './place.js';

/**
 * The node nudge writes into agent files and schedules: the first `node` on PATH that resolves
 * to the running one (`/opt/homebrew/bin/node`, `/usr/local/bin/node`, an nvm or asdf shim),
 * not `process.execPath` itself, which under Homebrew is the versioned
 * `Cellar/node/<version>/bin/node` that `brew upgrade node` removes. fnm's per-shell folders
 * (`fnm_multishells`) go when the shell does: never chosen. Without such an entry, the running
 * node's own path.
 */
export function stableNode(execPath: string, pathEnv: string | undefined): string {
  const real = realOf(execPath);
  for (const dir of (pathEnv ?? '').split(delimiter)) {
    if (!dir.startsWith('/') || dir.includes('fnm_multishells')) continue;
    const candidate = join(dir, 'node');
    if (candidate === execPath) return candidate;
    if (existsSync(candidate) && realOf(candidate) === real) return candidate;
  }
  return execPath;
}

function realOf(path: string): string {
  try {
    return realpathSync(path);
  } catch {
    return path;
  }
}

/** nudge's CLI script as install writes it (`…/dist/src/cli.js`), and a node before it. */
const CLI = /\/[^\s"'`\\,[\]]+\/dist\/src\/cli\.js/g;
const NODE = /\/[^\s"'`\\,[\]]+\/(?:node|nodejs)(?=["'`\s,\\\]]|$)/g;
/** How far before the CLI path its node may stand (a JSON `command` and `args` apart). */
const NODE_REACH = 300;

/**
 * The node and CLI paths nudge wrote into `text` (an agent's settings, a hook, a crontab, a
 * plist or a unit): each `…/dist/src/cli.js`, and the node path that stands nearest before it.
 */
export function selfPathsIn(text: string): Array<Partial<SelfCommand> & {cli: string}> {
  const found: Array<Partial<SelfCommand> & {cli: string}> = [];
  for (const m of text.matchAll(CLI)) {
    const before = text.slice(Math.max(0, (m.index ?? 0) - NODE_REACH), m.index);
    const node = [...before.matchAll(NODE)].pop()?.[0];
    found.push(node === undefined ? {cli: m[0]} : {node, cli: m[0]});
  }
  return found;
}

/** Each path of `selfPathsIn(text)` that no longer exists (node upgraded, nudge moved). */
export function gonePaths(text: string, exists: (path: string) => boolean = existsSync): string[] {
  const gone = new Set<string>();
  for (const p of selfPathsIn(text))
    for (const path of [p.node, p.cli]) if (path !== undefined && !exists(path)) gone.add(path);
  return [...gone];
}
