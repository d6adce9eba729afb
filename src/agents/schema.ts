import {createRequire} from 'node:module';
import type * as Zod from 'zod';
import {linearPattern, type Pattern} from '../base/pattern.js';
import {err, ok, type Result} from '../base/result.js';
import {DOOR_KINDS} from './doors.js';
import {DIALOG_KINDS, type Profile} from './profile.js';
import {RECORD_FORMATS} from './replies.js';
import {SESSION_SOURCES} from './resume.js';

/**
 * The one shape of a profile file (TOML): the built-in profiles under data/agents/ and a
 * user's files are read through it. Field names are the Profile's own (src/agents/profile.ts
 * says what each means); a regular expression is a string in JavaScript syntax (a TOML literal
 * string, '…', needs no escaping).
 *
 * zod is loaded on first use, synchronously (it takes ~100 ms to load): `nudge submit` and
 * anything else that never reads a profile does not pay for it.
 */
function build(z: typeof Zod.z, compile: (source: string) => Pattern) {
  const regex = z.string().transform((source, ctx) => {
    try {
      return compile(source);
    } catch (error) {
      ctx.addIssue({
        code: 'custom',
        message: `a regular expression (${error instanceof Error ? error.message : String(error)})`,
      });
      return z.NEVER;
    }
  });

  /** A tmux key name (`C-u`, `Escape`, `Enter`, `BSpace`, `M-x`, `F5`), never literal text:
   * a key field reaches `send-keys`, where anything else is typed as it is. */
  const keyName = z
    .string()
    .regex(TMUX_KEY_NAME, 'a tmux key name (C-u, Escape, Enter, BSpace, Tab, …), not text');
  /** Key groups: each inner list is one tmux call (`[["Escape"], ["C-u"]]`). */
  const keyGroups = z.array(z.array(keyName).min(1));

  const {inputMode, dialog, door, resume, identity, programWait} = parts(z, regex, keyGroups);

  /** What a profile file may hold. `name` and `kind` say what it is; the rest is Profile. */
  const profileFile = z.strictObject({
    name: z
      .string()
      .regex(/^[a-z][a-z0-9-]*$/, 'a lower-case name (letters, digits, -)')
      .refine((n) => n !== 'auto', 'a name other than "auto" (--profile auto detects)'),
    /** An agent CLI (read through its screen), a shell, or a program nudge does not read. */
    kind: z.enum(['agent', 'shell', 'raw']),
    clearKeys: keyGroups,
    minEnterDelayMs: z.number().int().min(0).max(10_000),
    detectOrder: z.number().int().min(0).max(1000).optional(),
    pasteWhen: regex.optional(),
    composerLine: regex.optional(),
    inputModes: z.record(z.string().min(1), inputMode).optional(),
    shellPrefix: z.string().min(1).optional(),
    shellNeedsIdle: z.boolean().optional(),
    promptEcho: regex.optional(),
    shellEcho: regex.optional(),
    placeholders: z.array(regex).optional(),
    composerClose: regex.optional(),
    ghostAtCursor: z.boolean().optional(),
    ruleLine: regex.optional(),
    rowEnd: regex.optional(),
    busy: z.array(regex),
    noise: z.array(regex).optional(),
    starting: z.array(regex).optional(),
    turnEnd: z.array(regex).optional(),
    working: z.array(regex).optional(),
    services: z.array(regex).optional(),
    queueKey: keyName.optional(),
    notBelowComposer: regex.optional(),
    queued: regex.optional(),
    screen: regex.optional(),
    commands: regex.optional(),
    programs: z.array(regex).optional(),
    dialogs: z.array(dialog).optional(),
    doors: z.array(door).optional(),
    launch: z.string().min(1).optional(),
    replies: z.enum(RECORD_FORMATS).optional(),
    resume: resume.optional(),
    identity: identity.optional(),
    waits: z.array(programWait).optional(),
    measuredOn: z.record(z.string(), z.string()).optional(),
  });

  return profileFile;
}

/** The tables a profile file holds besides its own fields: input modes, dialogs, doors, how to
 * resume, the agent's identity, and the programs a shell runs that wait for their user. */
function parts(
  z: typeof Zod.z,
  regex: Zod.ZodType<Pattern, string>,
  keyGroups: Zod.ZodType<string[][]>,
) {
  const inputMode = z.strictObject({name: z.string().min(1), leaveKeys: keyGroups});

  const dialog = z.strictObject({
    kind: z.enum(DIALOG_KINDS),
    question: regex,
    firstOption: regex.optional(),
    title: regex.optional(),
    resets: regex.optional(),
    denyKeys: keyGroups.optional(),
  });

  const door = z.strictObject({
    kind: z.enum(DOOR_KINDS),
    minVersion: z
      .string()
      .regex(/^\d+(\.\d+)*$/, 'a version such as 2.1.224')
      .optional(),
  });

  const word = z.string().regex(/^[A-Za-z0-9{}._=:/@+,-]+$/, 'a word without spaces or quotes');
  const resume = z.strictObject({
    args: z.array(word).min(1),
    session: z.enum(SESSION_SOURCES),
    startArgs: z.array(word).optional(),
  });

  const identity = z.strictObject({
    servers: z.array(regex).min(1).optional(),
    thread: z
      .string()
      .regex(/^[A-Z_][A-Z0-9_]*$/, 'an environment variable name such as CODEX_THREAD_ID')
      .optional(),
    /** How many characters of the thread id its pane's title shows (Codex's `session-id`
     * title item: 29 and `...`), where the agent puts it there. */
    titleThread: z.number().int().min(8).max(64).optional(),
  });

  const programWait = z
    .strictObject({
      programs: z.array(regex).min(1).optional(),
      cursorLine: regex.optional(),
      lastLine: regex.optional(),
      alternateScreen: z.boolean().optional(),
      what: z.string().min(1).max(80),
    })
    .refine(
      (w) => w.cursorLine !== undefined || w.lastLine !== undefined || w.alternateScreen === true,
      'something on the screen to see: cursorLine, lastLine or alternateScreen',
    );

  return {inputMode, dialog, door, resume, identity, programWait};
}

/** tmux's names of keys (key-string.c) that type no text on any tmux nudge is tested on: the
 * cursor and function keys with `C-`, `M-` and `S-` before them (in that order: `C-S-Left`);
 * Enter, Tab and BTab alone or with one `C-` or `M-`, Escape, BSpace and KPEnter alone or with
 * `M-` (3.3a types `S-Tab` or `C-M-Enter` as those letters, 3.5a and 3.8 `C-Escape` and
 * `C-BSpace`); and `C-` or `M-` before one lower-case letter
 * (`C-u`, `M-x`, `C-M-a`). What tmux would type as a printable character is refused: a bare
 * character, `S-` before one (3.5a and 3.8 type `S-e` as the letter, issue 42), `C-S-t` (3.3a
 * types `T`), `C-1` (3.5a and 3.8 type `1`), `Space`, the keypad's digits and signs (issue
 * 61). test/integration/key-names.test.ts presses every name of these forms on each tmux. */
export const TMUX_KEY_NAME =
  /^(?:C-)?(?:M-)?(?:S-)?(?:Up|Down|Left|Right|Home|End|IC|DC|Insert|Delete|PPage|PgUp|PageUp|NPage|PgDn|PageDown|F(?:[1-9]|1[0-2]))$|^(?:C-|M-)?(?:Enter|Tab|BTab)$|^(?:M-)?(?:Escape|BSpace|KPEnter)$|^(?:C-|M-|C-M-)[a-z]$/;

/** Every key a profile file's table would send (its key fields, in file order), for the person
 * to read before trusting it (`nudge agents trust`, `nudge agents check`). */
export function keysOfTable(table: Record<string, unknown>): string[] {
  const keys: string[] = [];
  const groups = (v: unknown) => {
    if (!Array.isArray(v)) return;
    for (const g of v) if (Array.isArray(g)) keys.push(...g.filter((k) => typeof k === 'string'));
  };
  groups(table.clearKeys);
  const modes = table.inputModes;
  if (modes && typeof modes === 'object')
    for (const m of Object.values(modes)) groups((m as {leaveKeys?: unknown}).leaveKeys);
  if (Array.isArray(table.dialogs))
    for (const d of table.dialogs) groups((d as {denyKeys?: unknown} | null)?.denyKeys);
  if (typeof table.queueKey === 'string') keys.push(table.queueKey);
  return keys;
}

const load = createRequire(import.meta.url);
let built: ReturnType<typeof build> | undefined;
let builtLinear: ReturnType<typeof build> | undefined;

/** The schema of a profile file: a built-in's patterns are JavaScript's RegExp (they ship with
 * nudge); a user's file's run on RE2's linear-time engine (src/base/pattern.ts). */
export function profileFileSchema(linear = false): ReturnType<typeof build> {
  const z = () => (load('zod') as typeof Zod).z;
  if (linear) {
    builtLinear ??= build(z(), (source) => linearPattern(source));
    return builtLinear;
  }
  built ??= build(z(), (source) => new RegExp(source));
  return built;
}

/** A profile as a file gives it. */
export type ProfileFile = Zod.output<ReturnType<typeof build>>;

/**
 * Check what a profile file holds; the error is one sentence naming the file, the field and
 * what was expected.
 */
export function checkProfileFile(
  value: unknown,
  source: string,
  /** A user's file: its patterns run on the linear-time engine. */
  linear = false,
): Result<ProfileFile, string> {
  const parsed = profileFileSchema(linear).safeParse(value);
  if (parsed.success) return ok(parsed.data);
  const issue = parsed.error.issues[0];
  const field = issue?.path.length ? issue.path.join('.') : '(the file)';
  const given = issue?.path.reduce<unknown>(
    (v, k) => (v && typeof v === 'object' ? (v as Record<PropertyKey, unknown>)[k] : undefined),
    value,
  );
  const what = issue?.path.length && given === undefined ? 'is missing' : 'is not valid';
  return err(`${source}: ${field} ${what}: expected ${describeIssue(issue)}.`);
}

/** What an issue says was expected, in words. */
function describeIssue(issue: Zod.core.$ZodIssue | undefined): string {
  if (!issue) return 'a profile';
  if (issue.code === 'unrecognized_keys')
    return `no field ${issue.keys.map((k) => JSON.stringify(k)).join(', ')} (unknown)`;
  if (issue.code === 'invalid_type') return `${issue.expected}`;
  if (issue.code === 'invalid_value')
    return `one of ${issue.values.map((v) => JSON.stringify(v)).join(', ')}`;
  if (issue.code === 'too_small' || issue.code === 'too_big') {
    const bound =
      issue.code === 'too_small' ? `at least ${issue.minimum}` : `at most ${issue.maximum}`;
    if (issue.origin === 'array') return `${bound} item(s)`;
    if (issue.origin === 'string') return `${bound} character(s)`;
    return `a number ${bound}`;
  }
  return issue.message;
}

/** The Profile a checked file makes. */
export function profileOf(file: ProfileFile): Profile {
  return file as Profile;
}
