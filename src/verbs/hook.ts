import {type HookCall, logHookCall} from '../agents/hook-calls.js';
import {
  type HookMark,
  type NeedsMark,
  recordHookMark,
  recordNeedsMark,
  recordRefusedMark,
} from '../agents/hook-marks.js';
import {
  HOOK_KINDS,
  type HookKind,
  NEEDS_PERSON_HOOKS,
  type NeedsHookKind,
  sharedServers,
  TURN_END_HOOKS,
} from '../agents/registry.js';
import {NudgeError} from '../base/errors.js';
import {ensureStateDir, resolveStateDir} from '../base/paths.js';
import {plainLine} from '../base/sanitize.js';
import {paneTypedWith} from '../jobs/typed-turn.js';
import type {OwnPane} from '../pane/own-pane.js';
import {isTmuxServer} from '../pane/proof.js';
import {ownPane} from '../pane/target.js';
import {insideTmux, type PaneRef, type ServerSpec} from '../tmux/server.js';
import type {CommandContext} from './context.js';

function parseJson(text: string): Record<string, unknown> | undefined {
  try {
    const value: unknown = JSON.parse(text);
    return typeof value === 'object' && value !== null
      ? (value as Record<string, unknown>)
      : undefined;
  } catch {
    return undefined;
  }
}

/** What `nudge hook` did: it never fails (a failing Stop hook would block the agent). */
export interface HookResult {
  recorded: boolean;
  /** Why a mark that should have been recorded was not. */
  warning?: string;
}

/**
 * `nudge hook claude-stop` (Claude Code's Stop hook: JSON on stdin) and `nudge hook
 * codex-notify JSON` (Codex's `notify` program: JSON as the last argument) record "this pane's
 * agent finished a turn" for the pane the hook runs in — proven by the process tree, or, for a
 * hook run outside its pane, by a job that typed the turn's input there; else nothing is
 * marked and the refusal is recorded. They print nothing on stdout (Claude reads a hook's
 * stdout as JSON) and exit 0 even when there is nothing to record.
 */
export async function runHook(
  o: {kind: string; payload?: string | undefined},
  ctx: CommandContext,
): Promise<HookResult> {
  if (!(HOOK_KINDS as readonly string[]).includes(o.kind)) {
    throw new NudgeError(
      'bad-usage',
      `Unknown hook ${JSON.stringify(o.kind)}; use ${HOOK_KINDS.join(' or ')}.`,
    );
  }
  const inside = insideTmux(ctx.env);
  const stateDir = resolveStateDir(ctx.env);
  const atMs = ctx.clock.wall();
  // What the hook reports. Claude Code passes its JSON on stdin, Codex as the last argument.
  const needsKind = o.kind in NEEDS_PERSON_HOOKS ? (o.kind as NeedsHookKind) : undefined;
  const kind = o.kind as HookKind;
  const input = parseJson(kind === 'codex-notify' ? (o.payload ?? '') : await ctx.readStdin());
  const needs = needsKind ? NEEDS_PERSON_HOOKS[needsKind](input) : undefined;
  const turn = needsKind ? undefined : TURN_END_HOOKS[kind](input);
  if (!needs && !turn) return {recorded: false};
  const log = (call: Omit<HookCall, 'atMs' | 'source'>) =>
    logHookCall(stateDir, {atMs, source: o.kind, ...call});
  if (inside?.serverPid === undefined) return withoutTmux(ctx, stateDir, log);
  const {inputs, ...told} = turn ?? {};
  // The pane the hook runs in, proven by the process tree, with or without $TMUX_PANE: that
  // alone may be another pane's (Codex's shared app-server runs every session's notify with
  // the first pane's), or missing (Claude Code started with it stripped). Where it cannot be,
  // a turn nudge typed proves its pane by that (paneTypedWith).
  const claimed: PaneRef = {
    socketPath: inside.socketPath,
    serverPid: inside.serverPid,
    pane: inside.pane ?? '',
  };
  const spec: ServerSpec = {kind: 'socket-path', path: claimed.socketPath};
  // The payload's thread (Codex's notify: `thread-id`) is the call's own, as a tool call's
  // CODEX_THREAD_ID is: under the shared server, the pane whose title shows it.
  const thread = sharedServers().find((s) => s.thread && o.kind.startsWith(`${s.agent}-`))?.thread;
  const caller = thread && told.session ? {...ctx, env: {...ctx.env, [thread]: told.session}} : ctx;
  const own = await ownPane(ctx.tmux(spec), spec, caller, true).catch(
    (error: Error): OwnPane => ({kind: 'unproven', claimed: inside.pane, why: error.message}),
  );
  const typed =
    own.kind !== 'proven' && inputs
      ? await paneTypedWith(stateDir, inputs, atMs).catch(() => undefined)
      : undefined;
  if (own.kind === 'unproven' && own.side && !typed) {
    // A side thread's turn (Codex's, under its shared server): no pane's, so nobody's mark;
    // counted apart, as it is not a call that failed to prove its pane.
    await ensureStateDir(stateDir, ctx.env).catch(() => {});
    await log({proven: false, side: true, why: own.why});
    return {recorded: false, warning: `no mark recorded: ${own.why}`};
  }
  if (own.kind !== 'proven' && !typed) {
    const why = own.kind === 'unproven' ? own.why : 'it runs in no pane';
    // A pane claimed: its refusal is kept there too, where a job waiting on it reads it.
    const r = inside.pane
      ? await record(ctx, () =>
          recordRefusedMark(stateDir, claimed, {source: o.kind, claimed: claimed.pane, why, atMs}),
        )
      : {recorded: false};
    await log({proven: false, pane: inside.pane, why});
    const about = inside.pane ? ` for ${inside.pane}` : '';
    return {
      recorded: false,
      warning: `no mark recorded${about}: ${why}${r.warning ? `; ${r.warning}` : ''}`,
    };
  }
  const where: PaneRef = typed?.where ?? {...claimed, pane: own.kind === 'proven' ? own.pane : ''};
  const written = await writeMark(ctx, stateDir, where, {kind, atMs, needs, told, typed});
  await log({proven: true, pane: where.pane});
  return written;
}

/** The mark a proven hook call writes for its pane: the person is needed, or a turn ended. */
async function writeMark(
  ctx: CommandContext,
  stateDir: string,
  where: PaneRef,
  m: {
    kind: HookKind;
    atMs: number;
    needs: ReturnType<(typeof NEEDS_PERSON_HOOKS)[NeedsHookKind]> | undefined;
    told: Omit<NonNullable<ReturnType<(typeof TURN_END_HOOKS)[HookKind]>>, 'inputs'>;
    typed: {job: string} | undefined;
  },
): Promise<HookResult> {
  if (m.needs) {
    // The payload's words are another program's: kept as plain text (src/base/sanitize.ts).
    const mark: NeedsMark = {
      source: m.kind,
      ...m.needs,
      message: plainLine(m.needs.message),
      atMs: m.atMs,
      pane: where.pane,
    };
    return record(ctx, () => recordNeedsMark(stateDir, where, mark));
  }
  const mark: HookMark = {
    source: m.kind,
    atMs: m.atMs,
    pane: where.pane,
    ...m.told,
    ...(m.typed ? {provenBy: `job ${m.typed.job} typed this turn's input there`} : {}),
  };
  return record(ctx, () => recordHookMark(stateDir, where, mark));
}

/** A hook with no $TMUX: nothing to mark outside tmux; below a tmux server (a launcher
 * stripped it), the call is refused where doctor sees it, not dropped unseen. */
async function withoutTmux(
  ctx: CommandContext,
  stateDir: string,
  log: (call: Omit<HookCall, 'atMs' | 'source'>) => Promise<void>,
): Promise<HookResult> {
  const chain = await ctx.tree.ancestry(ctx.pid).catch(() => []);
  if (!chain.some(isTmuxServer)) return {recorded: false};
  const why = 'it runs in a pane, but $TMUX is unset, so nudge cannot tell which tmux server';
  await ensureStateDir(stateDir, ctx.env).catch(() => {});
  await log({proven: false, why});
  return {recorded: false, warning: `no mark recorded: ${why}`};
}

/** Write a mark into the state dir; a failure is a warning (a hook never fails). */
async function record(ctx: CommandContext, write: () => Promise<void>): Promise<HookResult> {
  try {
    await ensureStateDir(resolveStateDir(ctx.env), ctx.env);
    await write();
    return {recorded: true};
  } catch (error) {
    return {recorded: false, warning: `could not record the mark (${(error as Error).message})`};
  }
}
