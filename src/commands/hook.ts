import {type HookMark, hookPaneFromEnv, recordHookMark} from '../agents/hook-marks.js';
import {EXIT_CODES, type ExitCode, NudgeError} from '../base/errors.js';
import {ensureStateDir, resolveStateDir} from '../base/paths.js';
import type {CommandContext} from './context.js';

/** The hooks nudge understands. */
export const HOOK_KINDS = ['claude-stop', 'codex-notify'] as const;
export type HookKind = (typeof HOOK_KINDS)[number];

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

/**
 * `nudge hook claude-stop` (Claude Code's Stop hook: JSON on stdin) and `nudge hook
 * codex-notify JSON` (Codex's `notify` program: JSON as the last argument) record "this pane's
 * agent finished a turn" for the pane the hook runs in. They print nothing on stdout (Claude
 * reads a hook's stdout as JSON) and exit 0 even when there is nothing to record: a failing
 * Stop hook would block the agent.
 */
export async function runHook(
  o: {kind: string; payload?: string | undefined},
  ctx: CommandContext,
): Promise<ExitCode> {
  if (!(HOOK_KINDS as readonly string[]).includes(o.kind)) {
    throw new NudgeError(
      'bad-usage',
      `Unknown hook ${JSON.stringify(o.kind)}; use ${HOOK_KINDS.join(' or ')}.`,
    );
  }
  const where = hookPaneFromEnv(ctx.env);
  if (!where) return EXIT_CODES.ok; // not inside tmux: nothing to mark
  const kind = o.kind as HookKind;
  let mark: HookMark | undefined;
  if (kind === 'claude-stop') {
    const input = parseJson(await ctx.readStdin());
    mark = {source: kind, atMs: Date.now(), pane: where.pane};
    if (typeof input?.session_id === 'string') mark.session = input.session_id;
  } else {
    const input = parseJson(o.payload ?? '');
    // Codex sends one JSON argument per event; only a finished turn is idle evidence.
    if (input?.type !== 'agent-turn-complete') return EXIT_CODES.ok;
    mark = {source: kind, atMs: Date.now(), pane: where.pane};
    if (typeof input['thread-id'] === 'string') mark.session = input['thread-id'];
  }
  try {
    const stateDir = resolveStateDir(ctx.env);
    await ensureStateDir(stateDir);
    await recordHookMark(stateDir, where, mark);
  } catch (error) {
    ctx.stderr(`nudge hook: could not record the mark (${(error as Error).message})`);
  }
  return EXIT_CODES.ok;
}
