import type {OptionSpec} from '../base/option-table.js';
import type {CompletedKind, CompleteOptions, Completion} from '../verbs/complete.js';
import type {CommandContext} from '../verbs/context.js';
import {commandOf} from './words.js';

/**
 * The shell's completion of a word nudge knows more of than yargs does: a job id where a
 * command takes a job (`nudge cancel ⇥`: the jobs still going on), a pane where it takes one
 * (`nudge wait ⇥`, `--pane ⇥`: with its program, where the shell shows descriptions). Every
 * other word — commands, flags, a flag's or a positional's choices — is yargs' own.
 */

/** What the last of `words` (the command line after `nudge`, the word being completed last)
 * names, if it is a job or a pane; undefined: yargs' completion answers. */
export function wordToComplete(words: readonly string[]): CompleteOptions | undefined {
  const before = words.slice(0, -1);
  const prefix = words.at(-1) ?? '';
  const found = commandOf(before);
  if (!found) return undefined;
  const {d} = found;
  const flags = new Map<string, [string, OptionSpec]>();
  for (const [name, spec] of Object.entries(d.options as Record<string, OptionSpec>)) {
    flags.set(`--${name}`, [name, spec]);
    if (spec.short) flags.set(`-${spec.short}`, [name, spec]);
  }
  const server: {socketName?: string; socketPath?: string} = {};
  let positional = 0;
  let wants: string | undefined;
  const rest = before.slice(d.group !== undefined && before[1] === d.name ? 2 : 1);
  for (let i = 0; i < rest.length; i++) {
    const word = rest[i] ?? '';
    // After `--` every word is text, never completed.
    if (word === '--') return undefined;
    if (!word.startsWith('-')) {
      positional++;
      continue;
    }
    const [flag = '', inline] = word.split('=', 2);
    const [name, spec] = flags.get(flag) ?? [];
    if (!spec || spec.type === 'boolean' || inline !== undefined) continue;
    const value = rest[i + 1];
    i++;
    if (value === undefined) wants = name;
    else if (name === 'socket-name') server.socketName = value;
    else if (name === 'socket-path') server.socketPath = value;
  }
  const kind =
    wants !== undefined ? flagKind(wants, flags) : positionalKind(found, positional, prefix);
  return kind && {kind, prefix, ...server};
}

/** What a flag's value names: a pane, a profile, an agent; yargs' where the flag has choices;
 * else text of the person's own, for which nothing is offered (not the flags). */
function flagKind(
  name: string,
  flags: ReadonlyMap<string, [string, OptionSpec]>,
): CompletedKind | undefined {
  if (name === 'pane' || name === 'notify-pane') return 'pane';
  if (name === 'profile' || name === 'agent') return name;
  return flags.get(`--${name}`)?.[1].choices ? undefined : 'nothing';
}

/** What the positional after `count` others names (a flag being typed is yargs'). */
function positionalKind(
  found: NonNullable<ReturnType<typeof commandOf>>,
  count: number,
  prefix: string,
): CompletedKind | undefined {
  if (prefix.startsWith('-')) return undefined;
  const all = found.d.positionals ?? [];
  const last = all.at(-1);
  const p = all[count] ?? (last?.variadic ? last : undefined);
  if (p?.name === 'pane') return 'pane';
  if (p?.name !== 'job') return undefined;
  // A job to stop or to move: only the ones still going on.
  return found.words === 'cancel' || found.d.group === 'queue' ? 'live-job' : 'job';
}

/** The completions as the shell takes them: zsh `value:about`, fish `value<TAB>about`, bash
 * the value alone. */
export function shellWords(found: readonly Completion[], env: NodeJS.ProcessEnv): string[] {
  const zsh = env.SHELL?.includes('zsh') || env.ZSH_NAME?.includes('zsh');
  const fish = env.SHELL?.includes('fish');
  const about = (c: Completion) => c.about.replace(/\s+/g, ' ').slice(0, 60);
  if (zsh) return found.map((c) => `${c.value.replace(/:/g, '\\:')}:${about(c)}`);
  if (fish) return found.map((c) => `${c.value}\t${about(c)}`);
  return found.map((c) => c.value);
}

/**
 * `nudge --get-yargs-completions nudge …` (what the completion scripts run) for a word that
 * names a job or a pane: the values from nudge's own store and server (src/verbs/complete.ts),
 * a line each. Undefined for any other word: yargs completes it.
 */
export function ownCompletion(
  given: readonly string[],
  ctx: CommandContext,
  out: {stdout: (line: string) => void},
): (() => Promise<void>) | undefined {
  if (given[0] !== '--get-yargs-completions') return undefined;
  const asked = wordToComplete(given.slice(2));
  if (!asked) return undefined;
  return async () => {
    const {completions} = await import('../verbs/complete.js');
    const found = await completions(asked, ctx).catch(() => []);
    for (const word of shellWords(found, ctx.env)) out.stdout(word);
  };
}
