import {join} from 'node:path';
import type {Readable, Writable} from 'node:stream';
import {McpServer} from '@modelcontextprotocol/sdk/server/mcp.js';
import {StdioServerTransport} from '@modelcontextprotocol/sdk/server/stdio.js';
import {describeError, fileSystemSentence, NudgeError} from '../base/errors.js';
import {createJobLogger, type Logger} from '../base/log.js';
import {ensureStateDir, resolveStateDir} from '../base/paths.js';
import {nudgeVersion} from '../base/version.js';
import type {McpPolicy} from '../declare/define.js';
import {DECLARED} from '../declare/registry.js';
import type {CommandContext} from '../verbs/context.js';
import {registerDeclared, type ToolCall} from './tools.js';

/** How the person started `nudge mcp`: the assessor `watch_me` gives a new watcher (from its
 * flags or environment), and what the tools may do beyond looking and typing. */
export interface McpAssessorDefaults {
  assessCmd?: string | undefined;
  assessUrl?: string | undefined;
  assessModel?: string | undefined;
  assessKeyEnv?: string | undefined;
  /** Offer the tools that run commands (`nudge mcp --allow-exec`): `run`, and look_ma's
   * bash_wait. Without it they are not listed, and a call names the flag. */
  allowExec?: boolean | undefined;
  /** Let `expect` close the pane it watched (`nudge mcp --allow-close`): the tool is then
   * annotated destructive; without it, it only looks and close_pane is refused. */
  allowClose?: boolean | undefined;
}

/**
 * The nudge tools as an MCP server: one tool per declared command that has one (src/declare/),
 * each calling the same verb as the CLI through dispatch and returning its typed result; a
 * NudgeError (bad input, no such pane) becomes a tool error with its sentence. `defaults`
 * supply the assessor of watchers made by `watch_me` and the person's policy.
 */
export function createMcpServer(
  ctx: CommandContext,
  defaults: McpAssessorDefaults,
  log: Logger,
): McpServer {
  const server = new McpServer(
    {name: 'nudge', version: nudgeVersion()},
    {
      instructions:
        'nudge hands work to tmux panes without blocking and wakes you when it is done. The pane defaults to your own, where nudge can prove which it runs in (its process tree; a $TMUX_PANE inherited from a server that several sessions share is refused).',
    },
  );
  const {allowExec, allowClose, ...assess} = defaults;
  const policy: McpPolicy = {
    allowExec: allowExec === true,
    allowClose: allowClose === true,
    assess,
  };
  const call = toolCall(ctx, log);
  for (const d of DECLARED) registerDeclared(server, d, policy, call);
  return server;
}

/** Run one tool call: its own abort signal (the client's cancellation, or the server's end),
 * errors as tool errors, every call logged. */
function toolCall(ctx: CommandContext, log: Logger): ToolCall {
  return (tool, body) => async (args, extra) => {
    const started = ctx.clock.now();
    const c: CommandContext = {...ctx, signal: AbortSignal.any([ctx.signal, extra.signal])};
    try {
      const result = await body(args, c);
      log.info(
        {event: 'tool', tool, ms: ctx.clock.now() - started, isError: result.isError ?? false},
        tool,
      );
      return result;
    } catch (error) {
      const message =
        error instanceof NudgeError
          ? error.message
          : (fileSystemSentence(error)?.message ??
            (extra.signal.aborted
              ? 'Cancelled by the client.'
              : `nudge failed: ${describeError(error)}`));
      log.info({event: 'tool', tool, ms: ctx.clock.now() - started, error: message}, tool);
      return {content: [{type: 'text', text: message}], isError: true};
    }
  };
}

/**
 * `nudge mcp`: serve the tools on stdin/stdout until the client closes stdin. stdout carries
 * only the protocol; the server's log is `mcp.log` in the state directory.
 */
export async function serveMcp(
  ctx: CommandContext,
  stdio: {stdin: NodeJS.ReadableStream | undefined; stdout: NodeJS.WritableStream | undefined},
  defaults: McpAssessorDefaults,
): Promise<void> {
  const stateDir = resolveStateDir(ctx.env);
  await ensureStateDir(stateDir, ctx.env);
  const log = createJobLogger(join(stateDir, 'mcp.log'), {mcp: true});
  const server = createMcpServer(ctx, defaults, log);
  const transport = new StdioServerTransport(
    stdio.stdin as Readable | undefined,
    stdio.stdout as Writable | undefined,
  );
  const closed = new Promise<void>((resolve) => {
    transport.onclose = () => resolve();
    stdio.stdin?.once('end', () => resolve());
    ctx.signal.addEventListener('abort', () => resolve(), {once: true});
  });
  await server.connect(transport);
  log.info({event: 'mcp-started', pane: ctx.env.TMUX_PANE ?? null}, 'nudge mcp started');
  await closed;
  await server.close().catch(() => {});
  log.info({event: 'mcp-exit'}, 'nudge mcp exiting');
}
