import {mkdirSync, writeFileSync} from 'node:fs';
import {connect} from 'node:net';
import {join} from 'node:path';
import {fileURLToPath} from 'node:url';
import {execa} from 'execa';
import {expect} from 'vitest';
import {cleanEnv} from './tmux-server.js';

/** The built CLI entry. */
export const CLI = fileURLToPath(new URL('../../dist/src/cli.js', import.meta.url));
/** The test fixtures directory (small programs that play the program in a pane). */
export const FIXTURES = fileURLToPath(new URL('../fixtures/', import.meta.url));
/** A program of test/fixtures/. */
export const fixture = (name: string): string => join(FIXTURES, name);

/** `nudge submit` (detached) that must be taken (exit 0): the job's id. */
export async function submitJob(args: string[], env: Record<string, string>): Promise<string> {
  const r = await runNudge(args, env);
  expect(r.exitCode, `${r.stdout}\n${r.stderr}`).toBe(0);
  return r.stdout.trim().split(/\s+/)[0] ?? '';
}

/** A command refused as bad usage: exit 2, nothing on stdout, one line on stderr (returned);
 * `what` names the attempt in the assertions' messages. */
export function usageErrorLine(r: NudgeRun, what: string): string {
  const seen = `${what}: exit ${r.exitCode}\nstdout: ${r.stdout}\nstderr: ${r.stderr}`;
  expect(r.exitCode, seen).toBe(2);
  expect(r.stdout, seen).toBe('');
  const lines = r.stderr.trim().split('\n');
  expect(lines, seen).toHaveLength(1);
  return lines[0] ?? '';
}

/** A nudge command's outcome, for an assertion's message. */
export const shown = (r: NudgeRun): string =>
  `exit ${r.exitCode}\nstdout: ${r.stdout}\nstderr: ${r.stderr}`;

/** A person's output (80 columns into a pipe) with each wrapped line joined to the one it
 * goes on from: what a regex of one whole line reads. */
export const unwrapped = (text: string): string => text.replace(/\n {2,}(?=\S)/g, ' ');

/** The process views (src/process/view.ts) a test that reads processes runs through: /proc and
 * ps where /proc exists (NUDGE_PROCESS_VIEW forces each), else ps alone. */
export const PROCESS_VIEWS =
  process.platform === 'linux' ? (['proc', 'ps'] as const) : (['ps'] as const);

/** Flags of submit by name (`typeDelay: '50ms'` is `--type-delay 50ms`; `true` is `--flag`,
 * `false` is `--no-flag`; a list repeats the flag). */
export type SubmitFlags = Record<string, string | number | boolean | readonly string[] | undefined>;

/** The words of `flags`. */
export function flagWords(flags: SubmitFlags): string[] {
  return Object.entries(flags).flatMap(([name, value]) => {
    const flag = `--${name.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`)}`;
    if (value === undefined) return [];
    if (value === true) return [flag];
    if (value === false) return [`--no-${flag.slice(2)}`];
    if (Array.isArray(value)) return value.flatMap((v) => [flag, String(v)]);
    return [flag, String(value)];
  });
}

/**
 * The tests' one builder of a `submit` command line: to pane `pane` of the server at socket
 * path `at` (or on `{host}`, by --host), with quick, test-friendly timings (enter delay 50ms,
 * interval 100ms, two stable checks) unless `flags` gives them, then `flags`, then `-- text`
 * when there is a text. `flags` may be words already (`['--until', 'exit']`).
 */
export function submitArgv(
  at: string | {host: string},
  pane: string,
  flags: SubmitFlags | readonly string[] = {},
  text?: string,
): string[] {
  const quick = {enterDelay: '50ms', interval: '100ms', stableChecks: 2};
  return withTimings(quick, at, pane, flags, text);
}

/** submitArgv with steady timings, for panes that draw (a shell, a spinner): no delays, Enter
 * after 100ms, captures 200ms apart, three alike for stable; each one `flags` gives replaces
 * its default. */
export function submitArgs(
  socket: string,
  pane: string,
  flags: SubmitFlags | readonly string[],
  text?: string,
): string[] {
  const steady = {delay: 0, typeDelay: 0, enterDelay: '100ms', interval: '200ms', stableChecks: 3};
  return withTimings(steady, socket, pane, flags, text);
}

/** A submit command line with the `timings` that `flags` does not give. */
function withTimings(
  timings: SubmitFlags,
  at: string | {host: string},
  pane: string,
  flags: SubmitFlags | readonly string[],
  text: string | undefined,
): string[] {
  const words = Array.isArray(flags) ? [...flags] : flagWords(flags as SubmitFlags);
  const given = words.slice(0, words.includes('--') ? words.indexOf('--') : words.length);
  const defaults = flagWords(timings);
  const kept: string[] = [];
  for (let i = 0; i < defaults.length; i += 2)
    if (!given.includes(defaults[i] ?? '')) kept.push(defaults[i] ?? '', defaults[i + 1] ?? '');
  return [
    'submit',
    ...(typeof at === 'string' ? ['-S', at] : ['--host', at.host]),
    '--pane',
    pane,
    ...kept,
    ...words,
    ...(text === undefined ? [] : ['--', text]),
  ];
}

/** `nudge schedule SCHEDULER` with its own `flags`, then `--`, the flags of the submit it
 * schedules, `--` and the text. */
export function scheduleArgv(
  scheduler: string,
  flags: SubmitFlags,
  submit: SubmitFlags,
  text: string,
): string[] {
  return ['schedule', scheduler, ...flagWords(flags), '--', ...flagWords(submit), '--', text];
}

export interface NudgeRun {
  exitCode: number | undefined;
  stdout: string;
  stderr: string;
  durationMs: number;
}

/** Run the built `nudge` with a clean environment plus `env`. Resolves when its stdout and
 * stderr close (as an agent's Bash tool sees it). */
export async function runNudge(
  args: string[],
  env: Record<string, string>,
  timeoutMs = 60_000,
  /** The working directory (a project's .nudge/agents is read from it). */
  cwd?: string,
): Promise<NudgeRun> {
  const started = Date.now();
  const r = await execa(process.execPath, [CLI, ...args], {
    ...(cwd ? {cwd} : {}),
    env: cleanEnv(env),
    extendEnv: false,
    reject: false,
    timeout: timeoutMs,
    stdin: 'ignore',
  });
  return {
    exitCode: r.exitCode,
    stdout: r.stdout,
    stderr: r.stderr,
    durationMs: Date.now() - started,
  };
}

/**
 * Run the built `nudge` as a child of the program in a pane (test/fixtures/runner.mjs,
 * listening on `socket`): what "nudge called from inside that pane" means, since nudge proves
 * its pane by its process tree and never by `$TMUX_PANE` alone. `env` as runNudge's.
 */
export async function runNudgeIn(
  socket: string,
  args: string[],
  env: Record<string, string>,
  timeoutMs = 60_000,
): Promise<NudgeRun> {
  const started = Date.now();
  const reply = await new Promise<string>((resolve, reject) => {
    const conn = connect(socket);
    let got = '';
    const timer = setTimeout(() => {
      conn.destroy();
      reject(new Error(`nudge ${args.join(' ')} in the pane gave no answer in ${timeoutMs} ms`));
    }, timeoutMs);
    conn.on('data', (d) => {
      got += d;
    });
    conn.on('end', () => {
      clearTimeout(timer);
      resolve(got);
    });
    conn.on('error', (e) => {
      clearTimeout(timer);
      reject(e);
    });
    conn.write(`${JSON.stringify({argv: [process.execPath, CLI, ...args], env: cleanEnv(env)})}\n`);
  });
  const r = JSON.parse(reply) as {exitCode: number | null; stdout: string; stderr: string};
  const trim = (t: string) => t.replace(/\n$/, '');
  return {
    exitCode: r.exitCode ?? undefined,
    stdout: trim(r.stdout),
    stderr: trim(r.stderr),
    durationMs: Date.now() - started,
  };
}

/** `submit -- TEXT` on a test server with submitArgs's quick timings and `extra` flags: the
 * run, and the job id it printed (the first word of stdout; empty when none). */
export async function submitTo(
  socket: string,
  pane: string,
  text: string,
  extra: SubmitFlags | readonly string[],
  env: Record<string, string>,
): Promise<NudgeRun & {id: string}> {
  const r = await runNudge(submitArgs(socket, pane, extra, text), env);
  return {...r, id: r.stdout.trim().split(/\s+/)[0] ?? ''};
}

/** A job of `command` in a shell pane, with no notice, done when the command exits. */
export function submitUntilExit(
  socket: string,
  pane: string,
  command: string,
  env: Record<string, string>,
): Promise<NudgeRun & {id: string}> {
  return submitTo(socket, pane, command, ['--no-notice', '--until', 'exit'], env);
}

/** A folder holding a `nudge` executable that runs the built CLI with this node, for
 * programs that call `nudge` by name (an agent's shell tool, a hook). */
export function nudgeBinDir(dir: string): string {
  const bin = join(dir, 'bin');
  mkdirSync(bin, {recursive: true});
  writeFileSync(join(bin, 'nudge'), `#!/bin/sh\nexec '${process.execPath}' '${CLI}' "$@"\n`, {
    mode: 0o755,
  });
  return bin;
}
