/**
 * What `nudge --host H CMD` says to `nudge remote` on H, over one ssh session: one request
 * line on stdin (the options, and with them any text to type: never in a remote argv), then
 * messages, one JSON line each, on stdout. The request's stdin stays open: its end tells the
 * remote side that the caller went away (a wait it runs then stops).
 *
 *   → {"nudge":"0.9.0","protocol":1,"command":"submit","options":{...},"asker":{...}}
 *   ← {"hello":{"nudge":"0.9.0","protocol":1,"node":"20.19.2","platform":"linux"}}
 *   ← {"result":{...}}                       the command's typed result, or
 *   ← {"error":{"code":"no-such-pane","message":"..."}}   its one sentence, or
 *   ← {"line":"..."} … {"end":true}          the lines of `logs` (as they come with --follow)
 */
export const REMOTE_PROTOCOL = 1;

export interface RemoteRequest {
  nudge: string;
  protocol: number;
  command: string;
  options: unknown;
  /** Who asks (src/pane/reach.ts WireAsker): the person, or a pane of the caller's host,
   * whose bound the remote side applies. Read fail-closed. */
  asker?: unknown;
}

export interface Hello {
  nudge: string;
  protocol: number;
  node: string;
  platform: string;
}

export type RemoteMessage =
  | {hello: Hello}
  | {result: unknown}
  | {error: {code: string; message: string}}
  | {line: string}
  | {end: true};

/** One message line, or undefined for anything else (a remote shell's greeting, an old
 * nudge's usage text). */
export function parseMessage(line: string): RemoteMessage | undefined {
  if (!line.startsWith('{')) return undefined;
  let value: unknown;
  try {
    value = JSON.parse(line);
  } catch {
    return undefined;
  }
  if (typeof value !== 'object' || value === null) return undefined;
  const v = value as Record<string, unknown>;
  if ('hello' in v && typeof v.hello === 'object' && v.hello !== null) return v as RemoteMessage;
  if ('result' in v) return v as RemoteMessage;
  if ('line' in v && typeof v.line === 'string') return v as RemoteMessage;
  if (v.end === true) return {end: true};
  const e = v.error as Record<string, unknown> | undefined;
  if (e && typeof e.code === 'string' && typeof e.message === 'string')
    return {error: {code: e.code, message: e.message}};
  return undefined;
}

/** The request line, checked (a bad one is answered with an error, never run). */
export function parseRequest(line: string): RemoteRequest | string {
  let value: unknown;
  try {
    value = JSON.parse(line);
  } catch {
    return 'the request is not JSON';
  }
  const v = value as Partial<RemoteRequest> | null;
  if (
    typeof v !== 'object' ||
    v === null ||
    typeof v.nudge !== 'string' ||
    typeof v.protocol !== 'number' ||
    typeof v.command !== 'string' ||
    typeof v.options !== 'object' ||
    v.options === null
  )
    return 'the request is not a nudge request';
  return v as RemoteRequest;
}
