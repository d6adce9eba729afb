import {Client} from '@modelcontextprotocol/sdk/client/index.js';
import {StdioClientTransport} from '@modelcontextprotocol/sdk/client/stdio.js';
import {onTestFinished} from 'vitest';
import {CLI, fixture} from './run-nudge.js';
import {cleanEnv} from './tmux-server.js';

/** A client of a real `nudge mcp` (the built CLI) started with `env` and `args`; closed after
 * the test. */
export async function spawnedMcp(
  env: Record<string, string>,
  args: string[] = [],
): Promise<Client> {
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [CLI, 'mcp', ...args],
    env: cleanEnv(env),
    stderr: 'pipe',
  });
  const client = new Client({name: 'test', version: '1'});
  await client.connect(transport);
  onTestFinished(() => client.close());
  return client;
}

/** A client of a real `nudge mcp` started from inside a pane (a child of the runner there,
 * its stdio carried over the runner's socket): as an agent in that pane starts it. */
export async function spawnedMcpIn(
  inside: {socket: string; env: Record<string, string>},
  env: Record<string, string>,
  args: string[] = [],
): Promise<Client> {
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [
      fixture('runner.mjs'),
      '--connect',
      inside.socket,
      '--',
      process.execPath,
      CLI,
      'mcp',
      ...args,
    ],
    env: cleanEnv({...env, ...inside.env}),
    stderr: 'pipe',
  });
  const client = new Client({name: 'test', version: '1'});
  await client.connect(transport);
  onTestFinished(() => client.close());
  return client;
}

/** What a tool call answered: its text, its structured content, whether it is an error. */
export interface ToolAnswer {
  content: Array<{type: string; text: string}>;
  structuredContent?: Record<string, unknown>;
  isError?: boolean;
}

/** Call the tool `name` with `args` (aborted with `signal`, when given): its answer. */
export function callTool(
  client: Client,
  name: string,
  args: Record<string, unknown>,
  signal?: AbortSignal,
): Promise<ToolAnswer> {
  return client.callTool(
    {name, arguments: args},
    undefined,
    signal ? {signal} : undefined,
  ) as Promise<ToolAnswer>;
}
