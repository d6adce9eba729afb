import type {McpServer} from '@modelcontextprotocol/sdk/server/mcp.js';
import {z} from 'zod';
import {HOST_OPTION} from '../base/option-table.js';
import type {CommandContext} from '../commands/context.js';
import {QUEUE_EDIT_OPTIONS, QUEUE_MOVE_OPTIONS} from '../commands/options/queue.js';
import {dispatch} from '../front/dispatch.js';
import {optionsOf, shapeOf} from './schema.js';

/** A tool's answer: the command's typed result as JSON (and as structured content), or for
 * the watcher tools the seed's return string. */
export type ToolResult = {
  content: Array<{type: 'text'; text: string}>;
  structuredContent?: Record<string, unknown>;
  isError?: boolean;
};

/** How createMcpServer runs a tool call and answers with a typed result. */
export interface ToolKit {
  call: <A>(
    tool: string,
    body: (args: A, c: CommandContext) => Promise<ToolResult>,
  ) => (args: A, extra: {signal: AbortSignal}) => Promise<ToolResult>;
  json: (value: object) => ToolResult;
}

const job = z.string().describe('a job id, or HOST:ID');

/** The queue's tools (`nudge queue` and its move, drop and edit): the same command functions
 * as the CLI, each atomic against a worker taking the head. */
export function registerQueueTools(server: McpServer, {call, json}: ToolKit): void {
  server.registerTool(
    'queue',
    {
      title: 'The jobs waiting for panes',
      annotations: {readOnlyHint: true, destructiveHint: false, openWorldHint: false},
      description:
        'Per pane, the job at work (atWork) and the ones waiting, in the order they will type, with each text, policy (queue, or wait for an idle pane) and age.',
      inputSchema: {
        pane: z.string().optional().describe('%N; default: every pane with jobs'),
        ...shapeOf(HOST_OPTION),
      },
    },
    call('queue', async (a: {pane?: string; host?: string}, c) =>
      json(await dispatch('queue', {pane: a.pane, host: a.host}, c)),
    ),
  );
  server.registerTool(
    'queue_move',
    {
      title: 'Move a waiting job',
      annotations: {readOnlyHint: false, destructiveHint: false, openWorldHint: false},
      description:
        'Put a waiting job first, or before or after another waiting job. Refused once the job has taken the pane. Answers the pane’s order now.',
      inputSchema: {job, ...shapeOf(QUEUE_MOVE_OPTIONS)},
    },
    call('queue_move', async (a, c) =>
      json(
        await dispatch('queue-move', {...optionsOf(a, QUEUE_MOVE_OPTIONS), job: String(a.job)}, c),
      ),
    ),
  );
  server.registerTool(
    'queue_drop',
    {
      title: 'Drop a waiting job',
      annotations: {readOnlyHint: false, destructiveHint: true, openWorldHint: false},
      description:
        'Take a waiting job out of its pane’s queue: it ends cancelled and nothing of it is typed. Refused once it has taken the pane (cancel stops it then).',
      inputSchema: {job, ...shapeOf(HOST_OPTION)},
    },
    call('queue_drop', async (a: {job: string; host?: string}, c) =>
      json(await dispatch('queue-drop', {job: a.job, host: a.host}, c)),
    ),
  );
  server.registerTool(
    'queue_edit',
    {
      title: "Edit a waiting job's text",
      annotations: {readOnlyHint: false, destructiveHint: true, openWorldHint: true},
      description: 'Replace the text a waiting job will type. Refused once it has taken the pane.',
      inputSchema: {job, ...shapeOf(QUEUE_EDIT_OPTIONS)},
    },
    call('queue_edit', async (a, c) =>
      json(
        await dispatch('queue-edit', {...optionsOf(a, QUEUE_EDIT_OPTIONS), job: String(a.job)}, c),
      ),
    ),
  );
}
