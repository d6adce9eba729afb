import type {DIALOG_KINDS, ProfileFile} from './schema.js';

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

/** How nudge reads and types into one program: the output of its profile file's schema
 * (src/agents/schema.ts says what each field means). */
export type Profile = ProfileFile;

/** A program that waits for its user, as its screen shows it (src/agents/schema.ts). */
export type ProgramWait = NonNullable<Profile['waits']>[number];

/** What a person is waited for (src/agents/schema.ts, DIALOG_KINDS). */
export type DialogKind = (typeof DIALOG_KINDS)[number];

/** An input mode of an agent's composer (shell mode, bash mode). */
export type InputMode = NonNullable<Profile['inputModes']>[string];

/** A command's base name: `-bash` (a login shell) and `/bin/bash` are `bash`. */
export function baseName(command: string): string {
  return command.replace(/^-/, '').split('/').pop() ?? '';
}
