import type {AnyDeclaration} from '../declare/define.js';
import {optionsOfGiven} from '../declare/define.js';
import type {CliEnv} from './command.js';
import {optionsOfValues, parseFast} from './fast-flags.js';

/**
 * A declared command run on what the command line gave (`given`: its table's options, each
 * positional under its key): the command's own step or its verb, where dispatch says
 * (src/front/dispatch.ts), and its result printed by its renderer. The one handler of every
 * declared command, whether yargs parsed the line or the fast path below did.
 */
export async function runDeclared(
  d: AnyDeclaration,
  given: Record<string, unknown>,
  json: boolean,
  env: CliEnv,
): Promise<void> {
  const {json: _json, ...options} = optionsOfGiven(d, given) as Record<string, unknown>;
  const {dispatch} = await import('../front/dispatch.js');
  const render = await d.render();
  const result = d.cli
    ? d.cli(options, {
        dispatch,
        ctx: env.ctx,
        stdin: env.stdio.stdin,
        stdout: env.stdio.stdout,
        json,
      })
    : d.verb
      ? dispatch(d.verb, options as never, env.ctx, env.local[d.verb] as never)
      : Promise.reject(new Error(`${d.name} has neither a verb nor a step of its own`));
  await env.run(result, (r, out) => render(r, json, out, options));
}

/** The commands a person runs at every glance, read without yargs when their line is plain:
 * each with its declaration (loaded alone, not the whole command line's). */
const FAST: Record<string, () => Promise<AnyDeclaration>> = {
  jobs: async () => (await import('../declare/jobs.js')).jobs,
  status: async () => (await import('../declare/jobs.js')).status,
};

/** A command line the fast path takes: the command, what it was given, and `--json`. */
export interface FastLine {
  d: AnyDeclaration;
  given: Record<string, unknown>;
  json: boolean;
}

/**
 * `nudge jobs [flags]` and `nudge status JOB [flags]` as yargs would read them: the table's
 * flags (a default filled in as yargs fills it), each positional in its place. Undefined for
 * any other line — another command, a subcommand (`jobs prune`), help, a word too many or too
 * few, a flag yargs would refuse —: yargs then reads it and says what is wrong. Reads nothing
 * but the words.
 */
export async function fastLine(argv: readonly string[]): Promise<FastLine | undefined> {
  const declaration = FAST[argv[0] ?? ''];
  if (!declaration) return undefined;
  const d = await declaration();
  const parsed = parseFast(argv.slice(1), d.options);
  const positionals = d.positionals ?? [];
  if (!parsed || parsed.positionals.length !== positionals.length) return undefined;
  if (positionals.some((p) => p.variadic || p.choices)) return undefined;
  const given: Record<string, unknown> = optionsOfValues(parsed.values, d.options, true);
  positionals.forEach((p, i) => {
    given[p.key ?? p.name] = parsed.positionals[i];
  });
  return {d, given, json: given.json === true};
}
