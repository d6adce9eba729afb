import {readFileSync} from 'node:fs';
import {basename, dirname, join} from 'node:path';
import type {Pattern} from '../base/pattern.js';
import type {PaneView} from '../tmux/view.js';
import {visibleText} from '../tmux/view.js';
import {findDialog} from './dialogs.js';
import {workingOnScreen} from './idle-screen.js';
import type {Profile} from './profile.js';
import {readComposerState, turnOpen} from './screens.js';
import {realPathOf} from './trust.js';

/** One rule of a profile, as it stands on one screen. */
export interface RuleMatch {
  /** What the rule tells: recognised, composer, draft, mode, busy, turn, starting, queued,
   * dialog. */
  rule: string;
  /** The profile field it comes from. */
  field: string;
  matched: boolean;
  /** The text it matched on screen. */
  text?: string | undefined;
}

/** The first match of any of `patterns` on the visible screen, line by line. */
function firstMatch(patterns: readonly Pattern[], screen: string): string | undefined {
  for (const line of screen.split('\n')) {
    for (const p of patterns) {
      const m = p.exec(line);
      if (m) return m[0];
    }
  }
  return undefined;
}

/**
 * Every rule of `profile` that can be read off one screen, and whether (and on what text)
 * it matched: what `nudge explain` shows, so a screen that drifted points at the field to
 * mend.
 */
export function explainScreen(profile: Profile, view: PaneView, now = Date.now()): RuleMatch[] {
  const screen = visibleText(view);
  const rules: RuleMatch[] = [];
  const add = (rule: string, field: string, text: string | undefined) =>
    rules.push({rule, field, matched: text !== undefined, ...(text === undefined ? {} : {text})});
  if (profile.screen) add('recognised', 'screen', firstMatch([profile.screen], screen));
  const composer = readComposerState(profile, view);
  if (profile.composerLine || profile.kind === 'shell')
    add(
      'composer',
      'composerLine',
      composer ? (view.rows[composer.index] ?? '').trim() : undefined,
    );
  add('draft', 'composerLine', composer?.text ? composer.text : undefined);
  if (profile.inputModes) add('mode', 'inputModes', composer?.mode?.name);
  if (profile.promptEcho)
    add('sent prompt', 'promptEcho', lastEcho(profile.promptEcho, view, composer?.index));
  if (profile.busy.length > 0) add('busy', 'busy', firstMatch(profile.busy, screen));
  if (profile.working?.length) add('work still running', 'working', workingOnScreen(profile, view));
  if (profile.turnEnd?.length)
    add(
      'turn still open',
      'turnEnd',
      turnOpen(profile, view) ? 'a prompt with no turn end after it' : undefined,
    );
  if (profile.starting?.length) add('starting', 'starting', firstMatch(profile.starting, screen));
  if (profile.queued) add('queued', 'queued', firstMatch([profile.queued], screen));
  if (profile.dialogs?.length) {
    const found = findDialog(profile, view, now);
    add(found ? `dialog (${found.kind})` : 'dialog', 'dialogs', found?.question);
  }
  return rules;
}

/** The last transcript row above the composer that reads as a sent prompt. */
function lastEcho(
  echo: Pattern,
  view: PaneView,
  composerIndex: number | undefined,
): string | undefined {
  for (let i = (composerIndex ?? view.rows.length) - 1; i >= 0; i--) {
    const row = (view.rows[i] ?? '').trimEnd();
    if (echo.test(row)) return row.trim();
  }
  return undefined;
}

/**
 * The version of the program a command line runs, from the package.json of its npm package
 * (the nearest one above the executable or script named by the words of `argv` that match
 * the profile's `programs`); undefined when none says.
 */
export function programVersion(profile: Profile, argv: readonly string[]): string | undefined {
  for (const word of argv.slice(0, 2)) {
    if (!word.startsWith('/') || !profile.programs?.some((p) => p.test(word))) continue;
    // A project's node_modules/.bin/claude is a link into the package: its own package.json,
    // never the project's above node_modules (which said "1.0.0").
    const real = realPathOf(word);
    for (let dir = dirname(real); dir !== dirname(dir); dir = dirname(dir)) {
      if (basename(dir) === 'node_modules') break;
      try {
        const pkg = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')) as {
          version?: unknown;
        };
        if (typeof pkg.version === 'string') return pkg.version;
      } catch {
        // no package.json here: look further up
      }
    }
    // A native build named by its version (Claude Code's …/claude/versions/2.1.331).
    const named = /\/(\d+\.\d+\.\d+)$/.exec(real)?.[1];
    if (named) return named;
  }
  return undefined;
}
