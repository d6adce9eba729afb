import {profileNamed} from '../agents/registry.js';
import {NudgeError} from '../base/errors.js';
import {linearPattern, type Pattern} from '../base/pattern.js';

/** A "done" condition, as given with `--until`. */
export type UntilSpec =
  | {kind: 'stable'}
  | {kind: 'exit'}
  | {kind: 'regex'; pattern: string}
  | {
      kind: 'prompt';
      profile: string | undefined;
      pattern: string | undefined;
      /** `--until turn`: an agent's turn ended, whatever it left running (a background shell,
       * a sub-agent); `prompt` waits until it has settled. */
      turn?: boolean;
    };

/** Whether `--until prompt:NAME` names a profile whose prompt nudge can read: the shell, or
 * any agent the registry holds (built-in, added as data, or a user's own file). A name no
 * profile has is read as a regex. */
export function isPromptProfile(name: string): boolean {
  if (name === 'shell') return true;
  const kind = profileNamed(name)?.kind;
  return kind === 'agent' || kind === 'shell';
}

/**
 * Parse `--until`: `stable`, `exit`, `regex:PATTERN`, `prompt`, `turn`, `prompt:NAME` (a
 * profile) or `prompt:REGEX`. Regexes are checked here, so a bad one is exit 2 with the engine's message.
 */
export function parseUntil(text: string, option = '--until'): UntilSpec {
  if (text === 'stable' || text === 'exit') return {kind: text};
  if (text.startsWith('regex:')) {
    const pattern = text.slice('regex:'.length);
    if (pattern === '')
      throw new NudgeError(
        'bad-until',
        `${option} regex: needs a pattern, e.g. regex:'listening on'.`,
      );
    compileRegex(pattern, option);
    return {kind: 'regex', pattern};
  }
  if (text === 'prompt') return {kind: 'prompt', profile: undefined, pattern: undefined};
  if (text === 'turn') return {kind: 'prompt', profile: undefined, pattern: undefined, turn: true};
  if (text.startsWith('prompt:')) {
    const rest = text.slice('prompt:'.length);
    if (isPromptProfile(rest)) return {kind: 'prompt', profile: rest, pattern: undefined};
    if (rest === '')
      throw new NudgeError('bad-until', `${option} prompt: needs a profile name or a regex.`);
    compileRegex(rest, option);
    return {kind: 'prompt', profile: undefined, pattern: rest};
  }
  throw new NudgeError(
    'bad-until',
    `${option} ${JSON.stringify(text)} is not a condition; use stable, exit, regex:PATTERN, prompt, turn, prompt:NAME or prompt:REGEX.`,
  );
}

/** The condition as text, for `{until}` and records. */
export function describeUntil(spec: UntilSpec): string {
  switch (spec.kind) {
    case 'stable':
    case 'exit':
      return spec.kind;
    case 'regex':
      return `regex:${spec.pattern}`;
    case 'prompt':
      if (spec.turn) return 'turn';
      return spec.pattern !== undefined
        ? `prompt:${spec.pattern}`
        : spec.profile
          ? `prompt:${spec.profile}`
          : 'prompt';
  }
}

/** Compile a user regex (JavaScript syntax, no flags) for RE2's linear-time engine
 * (src/base/pattern.ts); a bad one, or one only a backtracking engine runs (a backreference,
 * a lookaround), is exit 2 quoting the engine's own message. */
export function compileRegex(pattern: string, option: string, flags = ''): Pattern {
  try {
    return linearPattern(pattern, flags);
  } catch (error) {
    let javascript = true;
    try {
      new RegExp(pattern, flags);
    } catch {
      javascript = false;
    }
    const why = (error as Error).message;
    throw new NudgeError(
      'bad-regex',
      javascript
        ? `${option} has a regex ${JSON.stringify(pattern)} that nudge does not run (${why}): patterns run in linear time, so backreferences and lookarounds are not taken.`
        : `${option} has an invalid regex ${JSON.stringify(pattern)}: ${why}.`,
    );
  }
}
