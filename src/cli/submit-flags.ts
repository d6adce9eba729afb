import {parseArgs} from 'node:util';
import {SUBMIT_DEFAULTS, type SubmitOptions} from '../jobs/options.js';

/** One flag of `nudge submit`. Both parsers (yargs for help and errors, node's parseArgs
 * for the fast path) are built from this one table, so they cannot drift apart. */
export interface FlagSpec {
  type: 'string' | 'boolean';
  short?: string;
  default?: string | boolean;
  /** A boolean that defaults to true and is turned off with --no-NAME. */
  negatable?: boolean;
  multiple?: boolean;
  describe: string;
}

/** The flags of `nudge submit` (the contract of issue #2 and #3). */
export const SUBMIT_FLAGS: Record<string, FlagSpec> = {
  pane: {
    type: 'string',
    short: 't',
    describe: 'target pane: %N, session:window.pane or self (default $TMUX_PANE)',
  },
  'socket-name': {type: 'string', short: 'L', describe: 'tmux server socket name (as tmux -L)'},
  'socket-path': {type: 'string', short: 'S', describe: 'tmux server socket path (as tmux -S)'},
  delay: {
    type: 'string',
    default: SUBMIT_DEFAULTS.delay,
    describe: 'wait before typing (let the caller settle)',
  },
  'type-delay': {
    type: 'string',
    default: SUBMIT_DEFAULTS.typeDelay,
    describe: 'pause between typed characters',
  },
  'enter-delay': {
    type: 'string',
    default: SUBMIT_DEFAULTS.enterDelay,
    describe: 'pause before each Enter',
  },
  clear: {
    type: 'boolean',
    default: true,
    negatable: true,
    describe: 'clear the input line first (--no-clear to skip)',
  },
  enter: {
    type: 'boolean',
    default: true,
    negatable: true,
    describe: 'press Enter after the text (--no-enter to skip)',
  },
  interval: {
    type: 'string',
    default: SUBMIT_DEFAULTS.interval,
    describe: 'time between screen captures',
  },
  'stable-checks': {
    type: 'string',
    default: String(SUBMIT_DEFAULTS.stableChecks),
    describe:
      'captures in a row equal to the one before that mean done: N checks = N × --interval of stillness (3 at 1s = 3s)',
  },
  timeout: {
    type: 'string',
    default: SUBMIT_DEFAULTS.timeout,
    describe: 'give up waiting after this long (the notice still goes out)',
  },
  until: {
    type: 'string',
    default: SUBMIT_DEFAULTS.until,
    describe: 'done when: stable | exit | regex:PATTERN | prompt[:NAME|:REGEX]',
  },
  ignore: {
    type: 'string',
    multiple: true,
    describe: 'regex masked before comparing screens (repeatable)',
  },
  lines: {
    type: 'string',
    default: String(SUBMIT_DEFAULTS.lines),
    describe: 'lines of output searched by regex:',
  },
  'notify-pane': {
    type: 'string',
    describe:
      'type the notice into this pane instead (default: --pane); self: the pane nudge runs in',
  },
  profile: {
    type: 'string',
    default: SUBMIT_DEFAULTS.profile,
    describe: 'auto | claude | gemini | codex | shell | raw',
  },
  'when-idle': {
    type: 'boolean',
    default: false,
    describe: 'wait until the pane is idle (per its profile) before typing',
  },
  'idle-timeout': {
    type: 'string',
    default: SUBMIT_DEFAULTS.idleTimeout,
    describe: 'how long --when-idle waits',
  },
  'clear-draft': {
    type: 'boolean',
    default: false,
    describe: 'clear a draft left in the input line instead of waiting for it',
  },
  'draft-wait': {
    type: 'string',
    default: SUBMIT_DEFAULTS.draftWait,
    describe: 'how long to wait for a draft to be sent or cleared',
  },
  notice: {
    type: 'string',
    describe:
      'notice template: {status} {elapsed} {job} {until} {exit} {match} {delivery} (--no-notice for none)',
  },
  'lock-timeout': {
    type: 'string',
    default: SUBMIT_DEFAULTS.lockTimeout,
    describe: 'how long to queue behind other jobs on the pane',
  },
  wait: {
    type: 'boolean',
    default: false,
    describe: 'run in the foreground; exit 0 done, 124 timeout, 1 failed',
  },
  json: {type: 'boolean', default: false, describe: 'print one JSON line'},
};

/** Turn parsed flag values (kebab-case keys) and the words to type into SubmitOptions. */
export function toSubmitOptions(
  values: Record<string, unknown>,
  words: readonly unknown[],
): SubmitOptions & {json: boolean | undefined} {
  const str = (k: string) => (values[k] === undefined ? undefined : String(values[k]));
  const bool = (k: string) => (values[k] === undefined ? undefined : Boolean(values[k]));
  const notice = values.notice === false || values['no-notice'] === true ? false : str('notice');
  const list = values.ignore;
  return {
    text: words.map(String).join(' '),
    pane: str('pane'),
    socketName: str('socket-name'),
    socketPath: str('socket-path'),
    delay: str('delay'),
    typeDelay: str('type-delay'),
    enterDelay: str('enter-delay'),
    interval: str('interval'),
    stableChecks: str('stable-checks'),
    timeout: str('timeout'),
    lockTimeout: str('lock-timeout'),
    clear: values['no-clear'] === true ? false : bool('clear'),
    enter: values['no-enter'] === true ? false : bool('enter'),
    notice,
    wait: bool('wait'),
    json: bool('json'),
    until: str('until'),
    ignore: Array.isArray(list)
      ? list.map(String)
      : list === undefined
        ? undefined
        : [String(list)],
    lines: str('lines'),
    notifyPane: str('notify-pane'),
    profile: str('profile'),
    whenIdle: bool('when-idle'),
    idleTimeout: str('idle-timeout'),
    clearDraft: bool('clear-draft'),
    draftWait: str('draft-wait'),
  };
}

/**
 * The fast path for `nudge submit`: parse with node's built-in parseArgs, so the front end
 * does not load yargs (~100 ms on the CI machine, more than the whole front-end budget).
 * Returns undefined for anything it does not accept exactly (unknown or repeated flags,
 * --help, camelCase spellings): the caller then hands the command line to yargs, which
 * prints help or the error message.
 */
export function parseSubmitFast(
  argv: readonly string[],
): (SubmitOptions & {json: boolean | undefined}) | undefined {
  if (argv[0] !== 'submit') return undefined;
  const options: Record<string, {type: 'string' | 'boolean'; short?: string; multiple?: boolean}> =
    {};
  for (const [name, spec] of Object.entries(SUBMIT_FLAGS)) {
    options[name] = {type: spec.type};
    if (spec.short) options[name].short = spec.short;
    if (spec.multiple) options[name].multiple = true;
    if (spec.negatable) options[`no-${name}`] = {type: 'boolean'};
  }
  options['no-notice'] = {type: 'boolean'};
  try {
    const {values, positionals, tokens} = parseArgs({
      args: attachDashValues(argv.slice(1)),
      options,
      strict: true,
      allowPositionals: true,
      tokens: true,
    });
    // yargs refuses a non-repeatable flag given twice; so must we (let yargs say it).
    const seen = new Set<string>();
    for (const t of tokens) {
      if (t.kind !== 'option' || SUBMIT_FLAGS[t.name]?.multiple) continue;
      if (seen.has(t.name)) return undefined;
      seen.add(t.name);
    }
    if (values.notice !== undefined && values['no-notice'] === true) return undefined;
    return toSubmitOptions(values, positionals);
  } catch {
    return undefined;
  }
}

/**
 * `--lock-timeout -5s`: a value that starts with "-" is still the value of a string flag
 * (so the flag's own validation can say what is wrong with it), unless it is itself a flag
 * of ours or the `--` that starts the text.
 */
function attachDashValues(args: readonly string[]): string[] {
  const out: string[] = [];
  const known = new Set(Object.keys(SUBMIT_FLAGS).flatMap((n) => [`--${n}`, `--no-${n}`]));
  for (const spec of Object.values(SUBMIT_FLAGS)) if (spec.short) known.add(`-${spec.short}`);
  for (let i = 0; i < args.length; i++) {
    const arg = args[i] ?? '';
    if (arg === '--') {
      out.push(...args.slice(i));
      break;
    }
    const name = arg.startsWith('--') ? arg.slice(2) : undefined;
    const next = args[i + 1];
    if (
      name &&
      SUBMIT_FLAGS[name]?.type === 'string' &&
      next?.startsWith('-') &&
      next !== '--' &&
      !known.has(next)
    ) {
      out.push(`${arg}=${next}`);
      i++;
      continue;
    }
    out.push(arg);
  }
  return out;
}
