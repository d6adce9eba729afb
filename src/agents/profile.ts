import type {Pattern} from '../base/pattern.js';
import type {DoorSpec} from './doors.js';
import type {AgentIdentity} from './identity.js';
import type {RecordFormat} from './replies.js';
import type {AgentResume} from './resume.js';

/**
 * What is specific to the program in a pane, kept as data: how to empty its input line, the
 * typing cadence and pause before Enter it needs, text that must travel as a bracketed paste,
 * what its idle composer looks like, and what "busy" looks like. Each program's data is a file
 * of its own (data/agents/<name>.toml, read through src/agents/schema.ts); this file is the
 * shape of that data and how a screen is read with it. The facts behind each entry are in docs/agent-screens.md,
 * measured on the versions named there.
 */
/** A profile's name: a built-in's (data/agents/<name>.toml) or one a user's file adds. */
export type ProfileName = string;
/** What a profile is for: an agent CLI (read through its screen), an interactive shell, or a
 * program nudge does not read (`raw`: typed into as it is; never cleared, never sent Escape). */
export type ProfileKind = 'agent' | 'shell' | 'raw';
/** The profiles every nudge has, whatever the files say. */
export const SHELL = 'shell';
export const RAW = 'raw';
/** The profiles by name: `shell` and `raw`, which every nudge has, and each one a file adds
 * (the agents of data/agents/, a user's own). The registry (src/agents/registry.ts) is the
 * one list of names: nothing else writes them down. */
export type Profiles = {readonly shell: Profile; readonly raw: Profile} & {
  readonly [name: string]: Profile | undefined;
};

/** Whether a profile is an agent CLI's. */
export function isAgent(profile: Profile): boolean {
  return profile.kind === 'agent';
}

export interface Profile {
  name: ProfileName;
  kind: ProfileKind;
  /** Where it comes in the order agents are recognised by (lower first; default 100): the
   * first whose command or screen matches wins. */
  detectOrder?: number;
  /** Keys that empty the input line; each inner list is one tmux call, 60 ms apart. */
  clearKeys: readonly (readonly string[])[];
  /** The least pause between the text and Enter: a faster Enter is taken as part of a
   * paste (a newline) by this program. `--enter-delay` below this is raised to it. */
  minEnterDelayMs: number;
  /** Text that must travel as one bracketed paste instead of typed keys: a picker would
   * open mid-word and change the text or eat the Enter. Multi-line text always does. */
  pasteWhen?: Pattern;
  /** The composer's input line: group 1 is its prompt character (which says the input
   * mode), group 2 what is in it. */
  composerLine?: Pattern;
  /** Input modes, by the composer's prompt character: what the mode is, and the keys that
   * leave it from an empty composer (sent only while the agent is not busy). Text typed in
   * one of these is not a prompt to the model. */
  inputModes?: Readonly<Record<string, InputMode>>;
  /** The character that, typed first into an empty composer, enters its shell mode (text that
   * starts with it is meant for that mode). */
  shellPrefix?: string;
  /** The shell mode refuses or drops a command submitted while a turn runs (opencode drops
   * it without a word; Gemini CLI and Qwen Code say "Shell commands cannot be queued"): Enter
   * on such a command waits until the agent is not busy. */
  shellNeedsIdle?: boolean;
  /** How a submitted prompt shows in the transcript: group 1 is its first row's text;
   * continuation rows are indented. */
  promptEcho?: Pattern;
  /** How a command run from the shell mode shows in the transcript (group 1: the command). */
  shellEcho?: Pattern;
  /** The composer may show a suggestion of the program's own in dim text, the cursor on its
   * first character (Qwen Code's follow-up suggestion): text with the cursor on its first
   * character is read as an empty composer, not a person's draft. (Keys typed replace the
   * suggestion; a real draft there would show mixed with the text, and Enter is then not
   * pressed.) */
  ghostAtCursor?: boolean;
  /** Placeholder texts the composer shows when it is empty. */
  placeholders?: readonly Pattern[];
  /** A composer drawn as a box of rows that all match composerLine (opencode: `┃` rows,
   * one blank row above and below the text), closed by a row matching this (opencode's agent
   * and model row): the composer is the run of composerLine rows just above the last such
   * row, and its text their contents, blank edge rows left out. A transcript drawn in the
   * same box style is told apart by what closes it. Its group 1, where it matched, names the
   * input mode (an inputModes key: opencode's shell mode closes its box with `Shell`). */
  composerClose?: Pattern;
  /** A rule line drawn above the composer (within three rows: Gemini puts hint lines
   * between). */
  ruleLine?: Pattern;
  /** What the program draws at the right end of its rows that is not part of them (Copilot
   * CLI's scrollbar ` ┃`, once the transcript is longer than the screen): removed before a row
   * is read. */
  rowEnd?: Pattern;
  /** Busy markers: any of these on the visible screen means the program is working. */
  busy: readonly Pattern[];
  /** Rows that change while nothing new happens (a spinner glyph and a made-up verb, a
   * counting timer, the program's own notices): the stall watchdog leaves them out, as it does
   * the rows with a busy marker. */
  noise?: readonly Pattern[];
  /** Shown while the program is still starting: its composer may be drawn already, but keys
   * typed into it are not yet taken as they will be (Codex: `Waiting for startup`). */
  starting?: readonly Pattern[];
  /** Rows the program writes into its transcript when a turn ends (Codex: `Worked for 14s •
   * 02:28`, or an error or interruption row). With these, a prompt echo above the composer
   * with no such row after it is a turn still running, though no busy marker shows (Codex
   * hides its `Working` line while the answer streams). */
  turnEnd?: readonly Pattern[];
  /** Footer rows (below the composer) saying work the agent started still runs after its turn
   * (`1 shell · ↓ to manage`): not idle while one shows; group 1 names the work. */
  working?: readonly Pattern[];
  /** Commands of background work that serves (a dev server): never holds "done". */
  services?: readonly Pattern[];
  /** The key that queues a message behind the running turn, where Enter would do something
   * else to it (Codex: Enter steers — it cuts the running request short and resends). */
  queueKey?: string;
  /** Rows that never come below the composer (a transcript row followed by the agent's
   * answer is not the composer). */
  notBelowComposer?: Pattern;
  /** Shown when a submitted message was queued behind the running turn. */
  queued?: Pattern;
  /** How to recognise the program when the pane's command name does not say (`node`). */
  screen?: Pattern;
  /** The pane's foreground command names of this program. */
  commands?: Pattern;
  /** Words of the foreground command line (the executable, or the script an interpreter
   * runs) that name this program: `…/@google/gemini-cli/dist/index.js` under `node`. */
  programs?: readonly Pattern[];
  /** Screens where the program waits for a person: a dialog to allow a tool call, trust a
   * folder, answer a question or approve a plan, or a usage limit. nudge reports them
   * (`blocked`), never types into them, and may answer no (`nudge run`); never yes. */
  dialogs?: readonly Dialog[];
  /** Ways into the program other than its terminal, tried in order before typing a notice
   * (src/doors/; docs/agents.md, "Doors"). */
  doors?: readonly DoorSpec[];
  /** The command that starts the program interactively from a shell (`nudge run --agent`). */
  launch?: string;
  /** Where the program records each turn's reply, read by `nudge ask` and a notice's
   * `{reply}` (src/records/formats.ts); none: it keeps no record nudge can read. */
  replies?: RecordFormat;
  /** How the program is started again into an earlier conversation (`nudge recover`), and
   * where its session id comes from when a run starts. */
  resume?: AgentResume;
  /** How a call from the program's tools and hooks proves the pane it comes from
   * (src/pane/own-pane.ts; docs/agents.md, "Which pane a call comes from"). */
  identity?: AgentIdentity;
  /** A shell's: the programs it runs that wait for their user, told by their screen where the
   * process view cannot say (macOS's ps shows no wait channels): see ProgramWait. */
  waits?: readonly ProgramWait[];
  /** The releases each entry was measured on, by entry (`busy`, `queued`, …), and which of
   * its patterns hold for which: what to look at first when a release changes a screen. */
  measuredOn?: Readonly<Partial<Record<Exclude<keyof Profile, 'measuredOn' | 'name'>, string>>>;
}

/**
 * A program that waits for its user, as its screen shows it: `programs` are patterns on the
 * foreground program's name (any program when there are none); each of `cursorLine` (the text
 * before the cursor on its row), `lastLine` (the screen's last row with text) and
 * `alternateScreen` that is given must hold; `what` is said in the verdict ("its prompt
 * shows").
 */
export interface ProgramWait {
  programs?: readonly Pattern[];
  cursorLine?: Pattern;
  lastLine?: Pattern;
  alternateScreen?: boolean;
  what: string;
}

/** What a person is waited for: to allow a tool call, to trust a folder, to answer the
 * model's question, to approve its plan, a usage limit to reset, or to answer an offer or a
 * first-run screen the program shows before its prompt takes input (Claude Code's "Make auto
 * mode your default permission mode?"). */
export const DIALOG_KINDS = ['permission', 'question', 'trust', 'plan', 'limit', 'offer'] as const;
export type DialogKind = (typeof DIALOG_KINDS)[number];

/** A screen where the program waits for a person, as it shows. */
export interface Dialog {
  kind: DialogKind;
  /** The question row; group 1 is the question. Without `firstOption`: a sentence the
   * program prints after the last prompt (a usage limit), matched across wrapped rows. */
  question: Pattern;
  /** The first option's row, below the question: a dialog is there only with its options (a
   * transcript that quotes the question is not one). */
  firstOption?: Pattern;
  /** The dialog's title row above the question, when the question alone does not say what
   * is asked (Gemini: `? WriteFile  Writing to hello.txt`); group 1 is the title. */
  title?: Pattern;
  /** A usage limit: where its question says when it resets (group 1: `10:15 PM`). */
  resets?: Pattern;
  /** Key groups that answer no (each one tmux call); none: nudge never answers it. */
  denyKeys?: readonly (readonly string[])[];
}

/** An input mode of an agent's composer (shell mode, bash mode). */
export interface InputMode {
  name: string;
  /** Key groups that leave the mode from an empty composer, each one tmux call. */
  leaveKeys: readonly (readonly string[])[];
}

/** A command's base name: `-bash` (a login shell) and `/bin/bash` are `bash`. */
export function baseName(command: string): string {
  return command.replace(/^-/, '').split('/').pop() ?? '';
}
