import {
  type HookMark,
  hookPaneFromEnv,
  type NeedsMark,
  recordHookMark,
  recordNeedsMark,
} from '../agents/hook-marks.js';
import {
  HOOK_KINDS,
  type HookKind,
  NEEDS_PERSON_HOOKS,
  type NeedsHookKind,
  TURN_END_HOOKS,
} from '../agents/registry.js';
import {NudgeError} from '../base/errors.js';
import {ensureStateDir, resolveStateDir} from '../base/paths.js';
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
 * agent finished a turn" for the pane the hook runs in. They print nothing on stdout (Claude
 * reads a hook's stdout as JSON) and exit 0 even when there is nothing to record.
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
  const where = hookPaneFromEnv(ctx.env);
  if (!where) return {recorded: false}; // not inside tmux: nothing to mark
  if (o.kind in NEEDS_PERSON_HOOKS) {
    const needs = NEEDS_PERSON_HOOKS[o.kind as NeedsHookKind](parseJson(await ctx.readStdin()));
    if (!needs) return {recorded: false};
    const mark: NeedsMark = {source: o.kind, ...needs, atMs: ctx.clock.now(), pane: where.pane};
    return record(ctx, () => recordNeedsMark(resolveStateDir(ctx.env), where, mark));
  }
  const kind = o.kind as HookKind;
  // Claude Code passes its JSON on stdin, Codex as the last argument.
  const input = parseJson(kind === 'codex-notify' ? (o.payload ?? '') : await ctx.readStdin());
  const turn = TURN_END_HOOKS[kind](input);
  if (!turn) return {recorded: false};
  const mark: HookMark = {source: kind, atMs: ctx.clock.now(), pane: where.pane, ...turn};
  return record(ctx, () => recordHookMark(resolveStateDir(ctx.env), where, mark));
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
