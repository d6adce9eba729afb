import {NudgeError} from '../base/errors.js';

/**
 * Where a person is told of a job's changes, parsed from what `--notify` or the config file
 * says: `cmd:PROGRAM [ARG…]` (run with the event as JSON on stdin; words split on spaces, no
 * shell), `webhook:URL` (a JSON POST), `ntfy:URL` (a topic on an ntfy server), `desktop`
 * (notify-send, or osascript on macOS), `tmux` (a message on every client of the pane's
 * server, the bell, and the pane option `@nudge`).
 */
export type Sink =
  | {kind: 'cmd'; argv: string[]}
  | {kind: 'webhook'; url: string}
  | {kind: 'ntfy'; url: string}
  | {kind: 'desktop'}
  | {kind: 'tmux'};

/** Each kind of sink as `--notify` takes it: one entry per member of the union (the compiler
 * checks), so the help texts and the errors name every kind and no other. */
export const SINK_FORMS = {
  cmd: 'cmd:PROGRAM',
  webhook: 'webhook:URL',
  ntfy: 'ntfy:URL',
  desktop: 'desktop',
  tmux: 'tmux',
} as const satisfies Record<Sink['kind'], string>;

/** The kinds, for a help text: `cmd:PROGRAM, webhook:URL, ntfy:URL, desktop, tmux`. */
export const SINK_LIST = Object.values(SINK_FORMS).join(', ');

/** Parse one sink; a bad one is one sentence (exit 2). */
export function parseSink(spec: string, where = '--notify'): Sink {
  const s = spec.trim();
  if (s === 'desktop' || s === 'tmux') return {kind: s};
  const colon = s.indexOf(':');
  const scheme = colon < 0 ? s : s.slice(0, colon);
  const rest = colon < 0 ? '' : s.slice(colon + 1);
  switch (scheme) {
    case 'cmd': {
      const argv = rest.split(/\s+/).filter(Boolean);
      if (argv.length === 0)
        throw bad(where, spec, 'cmd: needs a program, e.g. cmd:/usr/local/bin/alert');
      return {kind: 'cmd', argv};
    }
    case 'webhook':
    case 'ntfy': {
      let url: URL;
      try {
        url = new URL(rest);
      } catch {
        throw bad(
          where,
          spec,
          `${scheme}: needs an http(s) URL, e.g. ${scheme}:https://example.com/…`,
        );
      }
      if (url.protocol !== 'https:' && url.protocol !== 'http:')
        throw bad(where, spec, `${scheme}: needs an http or https URL, not ${url.protocol}`);
      return {kind: scheme, url: url.href};
    }
    default:
      throw bad(where, spec, `use ${SINK_LIST.replace(/, (?=[^,]*$)/, ' or ')}`);
  }
}

function bad(where: string, spec: string, what: string): NudgeError {
  return new NudgeError(
    'bad-usage',
    `${where} ${JSON.stringify(spec)} is not a sink nudge knows: ${what}.`,
  );
}

/** A sink as it may be shown in a log or a job's events: no URL path or query (webhook URLs
 * often carry their secret there), no command arguments. */
export function describeSink(sink: Sink): string {
  switch (sink.kind) {
    case 'cmd':
      return `cmd:${sink.argv[0] ?? ''}`;
    case 'webhook':
    case 'ntfy':
      return `${sink.kind}:${new URL(sink.url).origin}`;
    default:
      return sink.kind;
  }
}
