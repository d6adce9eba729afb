import {createRequire} from 'node:module';
import type * as Zod from 'zod';
import {linearPattern, type Pattern} from '../base/pattern.js';
import {err, ok, type Result} from '../base/result.js';
import {DOOR_KINDS} from './doors.js';
import {TMUX_KEY_NAME} from './keys.js';
import {RECORD_FORMATS} from './replies.js';
import {SESSION_SOURCES} from './resume.js';

/**
 * The one shape of a profile file (TOML): the built-in profiles under data/agents/ and a
 * user's files are read through it, and the Profile type is its output (each field's meaning
 * is said here). A regular expression is a string in JavaScript syntax (a TOML literal
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
    ...typingFields(z, regex, keyGroups, inputMode),
    ...readingFields(z, regex, keyName, {dialog, door, resume, identity, programWait}),
  });

  return profileFile;
}

/** A profile's fields of what it is and how text is typed into it. */
function typingFields(
  z: typeof Zod.z,
  regex: Zod.ZodType<Pattern, string>,
  keyGroups: Zod.ZodType<string[][]>,
  inputMode: Zod.ZodType<{name: string; leaveKeys: string[][]}>,
) {
  return {
    name: z
      .string()
      .regex(/^[a-z][a-z0-9-]*$/, 'a lower-case name (letters, digits, -)')
      .refine((n) => n !== 'auto', 'a name other than "auto" (--profile auto detects)'),
    /** An agent CLI (read through its screen), a shell, or a program nudge does not read. */
    kind: z.enum(['agent', 'shell', 'raw']),
    /** Keys that empty the input line; each inner list is one tmux call, 60 ms apart. */
    clearKeys: keyGroups,
    /** The least pause between the text and Enter: a faster Enter is taken as part of a
     * paste (a newline) by this program. `--enter-delay` below this is raised to it. */
    minEnterDelayMs: z.number().int().min(0).max(10_000),
    /** Where it comes in the order agents are recognised by (lower first; default 100): the
     * first whose command or screen matches wins. */
    detectOrder: z.number().int().min(0).max(1000).optional(),
    /** Text that must travel as one bracketed paste instead of typed keys: a picker would
     * open mid-word and change the text or eat the Enter. Multi-line text always does. */
    pasteWhen: regex.optional(),
    /** A text of more characters than this travels as one bracketed paste: the program takes
     * a paste whole, and typing it key by key would take minutes (a 64 KB text, 22 at the
     * default pace). Only where a paste of that size was seen to reach the model whole. */
    pasteOver: z.number().int().min(1).max(1_000_000).optional(),
    /** The composer's input line: group 1 is its prompt character (which says the input
     * mode), group 2 what is in it. */
    composerLine: regex.optional(),
    /** Input modes, by the composer's prompt character: what the mode is, and the keys that
     * leave it from an empty composer (sent only while the agent is not busy). Text typed in
     * one of these is not a prompt to the model. */
    inputModes: z.record(z.string().min(1), inputMode).optional(),
    /** The character that, typed first into an empty composer, enters its shell mode (text that
     * starts with it is meant for that mode). */
    shellPrefix: z.string().min(1).optional(),
    /** The shell mode refuses or drops a command submitted while a turn runs (opencode drops
     * it without a word; Gemini CLI and Qwen Code say "Shell commands cannot be queued"): Enter
     * on such a command waits until the agent is not busy. */
    shellNeedsIdle: z.boolean().optional(),
    /** How a submitted prompt shows in the transcript: group 1 is its first row's text;
     * continuation rows are indented. */
    promptEcho: regex.optional(),
    /** How a command run from the shell mode shows in the transcript (group 1: the command). */
    shellEcho: regex.optional(),
    /** Placeholder texts the composer shows when it is empty. */
    placeholders: z.array(regex).optional(),
    /** A composer drawn as a box of rows that all match composerLine (opencode: `┃` rows,
     * one blank row above and below the text), closed by a row matching this (opencode's agent
     * and model row): the composer is the run of composerLine rows just above the last such
     * row, and its text their contents, blank edge rows left out. A transcript drawn in the
     * same box style is told apart by what closes it. Its group 1, where it matched, names the
     * input mode (an inputModes key: opencode's shell mode closes its box with `Shell`). */
    composerClose: regex.optional(),
    /** The composer may show a suggestion of the program's own in dim text, the cursor on its
     * first character (Qwen Code's follow-up suggestion): text with the cursor on its first
     * character is read as an empty composer, not a person's draft. (Keys typed replace the
     * suggestion; a real draft there would show mixed with the text, and Enter is then not
     * pressed.) */
    ghostAtCursor: z.boolean().optional(),
    /** A rule line drawn above the composer (within three rows: Gemini puts hint lines
     * between). */
    ruleLine: regex.optional(),
    /** What the program draws at the right end of its rows that is not part of them (Copilot
     * CLI's scrollbar ` ┃`, once the transcript is longer than the screen): removed before a row
     * is read. */
    rowEnd: regex.optional(),
  };
}

/** A profile's fields of how its screen is read: busy, done, dialogs, its doors and records. */
function readingFields(
  z: typeof Zod.z,
  regex: Zod.ZodType<Pattern, string>,
  keyName: Zod.ZodString,
  p: Omit<ReturnType<typeof parts>, 'inputMode'>,
) {
  const {dialog, door, resume, identity, programWait} = p;
  return {
    /** Busy markers: any of these on the visible screen means the program is working. */
    busy: z.array(regex),
    /** Rows that change while nothing new happens (a spinner glyph and a made-up verb, a
     * counting timer, the program's own notices): the stall watchdog leaves them out, as it does
     * the rows with a busy marker. */
    noise: z.array(regex).optional(),
    /** Shown while the program is still starting: its composer may be drawn already, but keys
     * typed into it are not yet taken as they will be (Codex: `Waiting for startup`). */
    starting: z.array(regex).optional(),
    /** Rows the program writes into its transcript when a turn ends (Codex: `Worked for 14s •
     * 02:28`, or an error or interruption row). With these, a prompt echo above the composer
     * with no such row after it is a turn still running, though no busy marker shows (Codex
     * hides its `Working` line while the answer streams). */
    turnEnd: z.array(regex).optional(),
    /** Footer rows (below the composer) saying work the agent started still runs after its turn
     * (`1 shell · ↓ to manage`): not idle while one shows; group 1 names the work. */
    working: z.array(regex).optional(),
    /** Commands of background work that serves (a dev server): never holds "done". */
    services: z.array(regex).optional(),
    /** The key that queues a message behind the running turn, where Enter would do something
     * else to it (Codex: Enter steers — it cuts the running request short and resends). */
    queueKey: keyName.optional(),
    /** Rows that never come below the composer (a transcript row followed by the agent's
     * answer is not the composer). */
    notBelowComposer: regex.optional(),
    /** Shown when a submitted message was queued behind the running turn. */
    queued: regex.optional(),
    /** How to recognise the program when the pane's command name does not say (`node`). */
    screen: regex.optional(),
    /** The pane's foreground command names of this program. */
    commands: regex.optional(),
    /** Words of the foreground command line (the executable, or the script an interpreter
     * runs) that name this program: `…/@google/gemini-cli/dist/index.js` under `node`. */
    programs: z.array(regex).optional(),
    /** Screens where the program waits for a person: a dialog to allow a tool call, trust a
     * folder, answer a question or approve a plan, or a usage limit. nudge reports them
     * (`blocked`), never types into them, and may answer no (`nudge run`); never yes. */
    dialogs: z.array(dialog).optional(),
    /** Ways into the program other than its terminal, tried in order before typing a notice
     * (src/doors/; docs/agents.md, "Doors"). */
    doors: z.array(door).optional(),
    /** The command that starts the program interactively from a shell (`nudge run --agent`). */
    launch: z.string().min(1).optional(),
    /** Where the program records each turn's reply, read by `nudge ask` and a notice's
     * `{reply}` (src/records/formats.ts); none: it keeps no record nudge can read. */
    replies: z.enum(RECORD_FORMATS).optional(),
    /** How the program is started again into an earlier conversation (`nudge recover`), and
     * where its session id comes from when a run starts. */
    resume: resume.optional(),
    /** How a call from the program's tools and hooks proves the pane it comes from
     * (src/pane/own-pane.ts; docs/agents.md, "Which pane a call comes from"). */
    identity: identity.optional(),
    /** A shell's: the programs it runs that wait for their user, told by their screen where the
     * process view cannot say (macOS's ps shows no wait channels): see ProgramWait. */
    waits: z.array(programWait).optional(),
    /** The releases each entry was measured on, by entry (`busy`, `queued`, …), and which of
     * its patterns hold for which: what to look at first when a release changes a screen. */
    measuredOn: z.record(z.string(), z.string()).optional(),
  };
}

/** The tables a profile file holds besides its own fields: input modes, dialogs, doors, how to
 * resume, the agent's identity, and the programs a shell runs that wait for their user. */
function parts(
  z: typeof Zod.z,
  regex: Zod.ZodType<Pattern, string>,
  keyGroups: Zod.ZodType<string[][]>,
) {
  /** An input mode of an agent's composer (shell mode, bash mode): its name, and the key
   * groups that leave it from an empty composer, each one tmux call. */
  const inputMode = z.strictObject({name: z.string().min(1), leaveKeys: keyGroups});

  /** A screen where the program waits for a person, as it shows. */
  const dialog = z.strictObject({
    kind: z.enum(DIALOG_KINDS),
    /** The question row; group 1 is the question. Without `firstOption`: a sentence the
     * program prints after the last prompt (a usage limit), matched across wrapped rows. */
    question: regex,
    /** The first option's row, below the question: a dialog is there only with its options
     * (a transcript that quotes the question is not one). */
    firstOption: regex.optional(),
    /** The dialog's title row above the question, when the question alone does not say what
     * is asked (Gemini: `? WriteFile  Writing to hello.txt`); group 1 is the title. */
    title: regex.optional(),
    /** A usage limit: where its question says when it resets (group 1: `10:15 PM`). */
    resets: regex.optional(),
    /** Key groups that answer no (each one tmux call); none: nudge never answers it. */
    denyKeys: keyGroups.optional(),
  });

  const door = z.strictObject({
    kind: z.enum(DOOR_KINDS),
    minVersion: z
      .string()
      .regex(/^\d+(\.\d+)*$/, 'a version such as 2.1.224')
      .optional(),
  });

  return {inputMode, dialog, door, ...agentParts(z, regex)};
}

/** How an agent is resumed, how its calls prove their pane, and the programs a shell runs
 * that wait for their user. */
function agentParts(z: typeof Zod.z, regex: Zod.ZodType<Pattern, string>) {
  const word = z.string().regex(/^[A-Za-z0-9{}._=:/@+,-]+$/, 'a word without spaces or quotes');
  /** An agent's resume option, as data: `launch` followed by `args` (`{session}` in a word
   * stands for the session id), e.g. `claude --resume {session}`, `codex resume {session}`. */
  const resume = z.strictObject({
    args: z.array(word).min(1),
    session: z.enum(SESSION_SOURCES),
    /** Words added when a run starts the program (`--session-id {session}`), for `chosen`. */
    startArgs: z.array(word).optional(),
  });

  /** How a program's calls (a shell tool running `nudge`, a hook, an MCP server it starts)
   * prove their pane. By default they descend from the pane's first process, and that proves
   * it. A program that runs its tools in a server shared by all its sessions (Codex's
   * app-server daemon) names that server: a call made under it proves no pane, whichever
   * pane's process started the server. */
  const identity = z.strictObject({
    /** Command lines of a server the program shares between its sessions. */
    servers: z.array(regex).min(1).optional(),
    thread: z
      .string()
      .regex(/^[A-Z_][A-Z0-9_]*$/, 'an environment variable name such as CODEX_THREAD_ID')
      .optional(),
    /** How many characters of the thread id its pane's title shows (Codex's `session-id`
     * title item: 29 and `...`), where the agent puts it there. */
    titleThread: z.number().int().min(8).max(64).optional(),
  });

  /** A program that waits for its user, as its screen shows it: `programs` are patterns on
   * the foreground program's name (any program when there are none); each of `cursorLine`
   * (the text before the cursor on its row), `lastLine` (the screen's last row with text) and
   * `alternateScreen` that is given must hold; `what` is said in the verdict ("its prompt
   * shows"). */
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

  return {resume, identity, programWait};
}

/** What a person is waited for: to allow a tool call, to trust a folder, to answer the
 * model's question, to approve its plan, a usage limit to reset, or to answer an offer or a
 * first-run screen the program shows before its prompt takes input (Claude Code's "Make auto
 * mode your default permission mode?"). */
export const DIALOG_KINDS = ['permission', 'question', 'trust', 'plan', 'limit', 'offer'] as const;

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
