/**
 * `npm run demo`: nudge end to end against a pane that plays an AI agent.
 *
 * Starts a private tmux server (its own socket in a temp dir, never the default server) whose
 * pane runs test/fixtures/toy-agent.mjs, submits a job into that pane with the real CLI, and
 * prints the pane before and after, the job's state changes and `nudge status`. Everything is
 * printed, so it works without a terminal. The server and the temp dir go away at the end,
 * on failure and on Ctrl-C too. Exits 0 only when the job ended `done`.
 */
import {execFileSync} from 'node:child_process';
import {join} from 'node:path';
import {
  CLI,
  checkPrerequisites,
  cleanEnv,
  FIXTURES,
  makeTempDir,
  onCleanup,
  runCleanup,
  runCli,
  sleep,
  startPrivateTmux,
} from '../test/harness/private-tmux.js';

const TASK = 'refactor the parser and run the tests';
const AGENT_WORK_MS = 3_000;
const NOTICE = '[SYSTEM COMMAND] Command complete. Resume.';
/** Far more than the job needs (~9 s); only a broken build gets near it. */
const JOB_DEADLINE_MS = 60_000;
const TERMINAL = new Set(['done', 'timeout', 'failed', 'cancelled', 'lost']);

const t0 = performance.now();
const elapsed = () => `${((performance.now() - t0) / 1000).toFixed(1).padStart(5)}s`;
const say = (line = '') => process.stdout.write(`${line}\n`);

/** A capture in a frame, so it stands out from the demo's own lines. */
function frame(title: string, screen: string): string {
  const lines = screen.split('\n');
  const width = Math.max(title.length + 4, ...lines.map((l) => l.length)) + 2;
  const top = `┌─ ${title} ${'─'.repeat(width - title.length - 3)}┐`;
  const body = lines.map((l) => `│ ${l.padEnd(width - 1)}│`);
  return [top, ...body, `└${'─'.repeat(width)}┘`].join('\n');
}

/** Shell-style quoting, only for showing the command to a reader (nothing is run by a shell). */
const quote = (arg: string) =>
  /^[\w%./:=@-]+$/.test(arg) ? arg : `'${arg.replace(/'/g, `'\\''`)}'`;

async function main(): Promise<number> {
  checkPrerequisites();
  const dir = makeTempDir('nudge-demo-');
  const home = join(dir, 'home');
  const env = cleanEnv({NUDGE_HOME: home});

  say(`nudge demo: a private tmux server at ${join(dir, 'sock')}, state in ${home}`);
  const agent = [process.execPath, join(FIXTURES, 'toy-agent.mjs'), String(AGENT_WORK_MS)];
  const {server, pane} = await startPrivateTmux(dir, agent, {width: 90, height: 20});
  say(`[${elapsed()}] pane ${pane} runs the toy agent (it "works" ${AGENT_WORK_MS} ms per task)`);
  const before = await server.waitForScreen(pane, /^> ?$/m);
  say();
  say(frame(`pane ${pane}, before`, before));
  say();

  const args = [
    'submit',
    '-S',
    server.socket,
    '--pane',
    pane,
    '--delay',
    '1s',
    '--interval',
    '500ms',
    '--',
    TASK,
  ];
  say(`$ nudge ${args.map(quote).join(' ')}`);
  const submitted = await runCli(args, env);
  if (submitted.exitCode !== 0) {
    say(`nudge submit failed (exit ${submitted.exitCode}):\n${submitted.stderr}`);
    return 1;
  }
  const job = submitted.stdout.trim();
  say(job);
  say(
    `[${elapsed()}] submit returned in ${Math.round(submitted.ms)} ms with job ${job}; the worker carries on alone`,
  );
  let jobEnded = false;
  cleanupCancel(job, env, () => jobEnded);

  // Follow the job the way a script would: `nudge status --json` until a final state.
  let last = '';
  let finalState = '';
  const deadline = Date.now() + JOB_DEADLINE_MS;
  while (Date.now() < deadline) {
    const r = await runCli(['status', job, '--json'], env);
    if (r.exitCode !== 0) {
      say(`nudge status failed (exit ${r.exitCode}): ${r.stderr.trim()}`);
      return 1;
    }
    const status = JSON.parse(r.stdout) as {shown: string; state: string};
    if (status.shown !== last) {
      say(`[${elapsed()}] job state: ${status.shown}`);
      last = status.shown;
    }
    if (TERMINAL.has(status.shown)) {
      finalState = status.shown;
      break;
    }
    await sleep(250);
  }
  jobEnded = finalState !== '';
  if (!jobEnded) say(`[${elapsed()}] the job did not end within ${JOB_DEADLINE_MS / 1000} s`);

  // The notice was typed and Enter pressed; give the agent a moment to echo it.
  if (finalState === 'done') {
    await server
      .waitForScreen(pane, new RegExp(`received: ${escapeRegex(NOTICE)}`), 5_000)
      .catch(() => undefined);
  }
  const after = await server.capture(pane);
  say();
  say(frame(`pane ${pane}, after`, after));
  say('(the toy agent takes the notice as its next task, as a real agent resumes work)');
  say();
  say(`$ nudge status ${job}`);
  const status = await runCli(['status', job], env);
  say(status.stdout.trimEnd());
  if (status.stderr.trim()) say(status.stderr.trimEnd());
  say();

  const checks: Array<[string, boolean]> = [
    ['the job ended "done"', finalState === 'done'],
    ['the task arrived at the agent', after.includes(`received: ${TASK}`)],
    ['the agent worked on it', /done\.\n/.test(after)],
    ['the resume notice arrived at its prompt', after.includes(`> ${NOTICE}`)],
  ];
  for (const [what, ok] of checks) say(`${ok ? 'ok  ' : 'FAIL'} ${what}`);
  const ok = checks.every(([, passed]) => passed);
  say(`[${elapsed()}] ${ok ? 'demo passed' : 'demo FAILED'}; cleaning up the private server`);
  return ok ? 0 : 1;
}

function escapeRegex(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/** On an early exit (error, Ctrl-C), cancel the job so its worker does not outlive the demo's
 * server and temp dir. Registered after the tmux server, so it runs before the server dies. */
function cleanupCancel(job: string, env: Record<string, string>, ended: () => boolean): void {
  onCleanup(`cancel job ${job}`, () => {
    if (ended()) return;
    runCliSync(['cancel', job], env);
  });
}

function runCliSync(args: string[], env: Record<string, string>): void {
  try {
    execFileSync(process.execPath, [CLI, ...args], {env, stdio: 'ignore', timeout: 10_000});
  } catch {
    // best effort: the server is killed next anyway
  }
}

let code = 1;
try {
  code = await main();
} catch (error) {
  process.stderr.write(`demo failed: ${(error as Error).message}\n`);
  code = 1;
} finally {
  runCleanup();
}
process.exit(code);
