import {type OutputMark, OutputReader, type PaneView} from './pane-view.js';
import {isShellCommand} from './profile.js';
import {compileRegex, type UntilSpec} from './until.js';
import {
  anyVisibleLine,
  ExitWatcher,
  PromptWatcher,
  RegexWatcher,
  type ScreenWatchOptions,
  StableWatcher,
  shellPromptVisible,
  type Watcher,
} from './watch.js';

/** Everything needed to build the watcher for a condition. */
export interface WatcherSetup {
  stableChecks: number;
  ignore: readonly string[];
  /** Key of the view just before Enter; undefined for `nudge wait` (nothing typed). */
  baselineKey: string | undefined;
  /** Checks without any change after which the reaction gate opens anyway. */
  graceChecks: number;
  /** The pane's foreground command when we started. */
  paneCommand: string;
  /** Where new output starts (regex and exit conditions). */
  mark: OutputMark;
  /** Lines of output searched by regex conditions. */
  lines: number;
  /** The exit sentinel pattern (`--until exit`). */
  exitPattern?: RegExp;
  failPatterns?: readonly RegExp[];
}

/** The idle-prompt test for `--until prompt[:NAME]` on a pane running `command`, or why
 * there is none. */
export function promptTest(
  spec: Extract<UntilSpec, {kind: 'prompt'}>,
  command: string,
): ((view: PaneView) => boolean) | string {
  if (spec.pattern !== undefined)
    return anyVisibleLine(compileRegex(spec.pattern, '--until prompt:'));
  const profile = spec.profile ?? (isShellCommand(command) ? 'shell' : undefined);
  if (profile === 'shell') return shellPromptVisible;
  return `no prompt profile knows "${command}"; use --until prompt:REGEX`;
}

/** Build the watcher for `spec`. Throws (UsageError) on a bad regex or a prompt with no
 * profile for the pane's program. */
export function createWatcher(spec: UntilSpec, s: WatcherSetup): Watcher {
  const screen: ScreenWatchOptions = {
    baselineKey: s.baselineKey,
    graceChecks: s.graceChecks,
    ignore: s.ignore.map((i) => compileRegex(i, '--ignore')),
    shellPane: isShellCommand(s.paneCommand),
  };
  switch (spec.kind) {
    case 'stable':
      return new StableWatcher(s.stableChecks, screen);
    case 'prompt': {
      const test = promptTest(spec, s.paneCommand);
      if (typeof test === 'string') throw new Error(test);
      return new PromptWatcher(test, screen);
    }
    case 'regex':
      return new RegexWatcher(
        new OutputReader(s.mark),
        compileRegex(spec.pattern, '--until regex:'),
        s.failPatterns ?? [],
        s.lines,
      );
    case 'exit':
      if (!s.exitPattern) throw new Error('Internal error: --until exit without a sentinel');
      return new ExitWatcher(new OutputReader(s.mark), s.exitPattern, [], s.lines);
  }
}
