import {NudgeError} from '../base/errors.js';
import {JSON_OPTION, SERVER_OPTIONS} from '../base/option-table.js';
import {ASK_OPTIONS} from '../verbs/options/ask.js';
import {EXPECT_OPTIONS} from '../verbs/options/expect.js';
import {SUBMIT_OPTIONS} from '../verbs/options/submit.js';
import {WAIT_OPTIONS} from '../verbs/options/wait.js';
import {ACTS, type AnyDeclaration, defineCommand, type Given, LOOKS} from './define.js';

/** `nudge submit`, `wait` and `expect`: the commands about one pane. */

/** Submit's options from what a front end parsed (yargs, the fast path, the tool): the words
 * are the text, one space between them; `--no-notice` (the tool's no_notice) is no notice. */
export function submitOptionsOf({
  text,
  noNotice,
  notice,
  json: _json,
  ...options
}: Given<typeof SUBMIT_OPTIONS>) {
  const none = noNotice === true || (notice as unknown) === false;
  return {
    ...options,
    notice: none ? (false as const) : (notice as string | undefined),
    text: ((text as string[] | undefined) ?? []).join(' '),
  };
}

export const submit = defineCommand({
  verb: 'submit',
  describe: 'type text into a pane, wait until it is done, type a notice (returns at once)',
  positionals: [
    {
      name: 'text',
      variadic: true,
      describe: 'the text to type (put it after --)',
      mcp: {describe: 'what to type (a command for a shell; "!cmd" runs it in your shell mode)'},
    },
  ],
  options: SUBMIT_OPTIONS,
  examples: [
    ["$0 submit --pane %3 -- 'npm test'", 'type "npm test" into pane %3, then notify it'],
    [
      "$0 submit --pane %4 --notify-pane %1 --until exit -- 'make'",
      'build in %4, wake %1 with the exit status',
    ],
    [
      "$0 submit --host gpu --pane %2 --notify-pane self --until exit -- 'make'",
      'train on the host gpu, wake this pane when it ends',
    ],
  ],
  toOptions: submitOptionsOf,
  render: async () => (await import('../render/render.js')).renderSubmit,
  mcp: {
    title: 'Hand text to a pane',
    annotations: ACTS,
    description:
      'Type text into a tmux pane (yours by default), watch until the work is done, then type a notice into the notify pane. Returns the job id at once; the notice wakes you later.',
    arguments: [{name: 'no_notice', key: 'noNotice', type: 'boolean', describe: 'type no notice'}],
  },
});

export const ask = defineCommand({
  verb: 'ask',
  describe: "type a prompt into an agent's pane, wait for its turn, print its reply",
  positionals: [
    {
      name: 'text',
      variadic: true,
      describe: 'the prompt (put it after --)',
      mcp: {describe: 'the prompt to give the agent'},
    },
  ],
  options: ASK_OPTIONS,
  examples: [
    ["$0 ask --pane %3 -- 'Which tests failed, and why?'", "print the reply of %3's agent"],
    ["$0 ask --pane %3 --json -- 'Summarise your changes'", 'the reply, its timing and tokens'],
  ],
  toOptions: ({text, json: _json, ...options}: Given<typeof ASK_OPTIONS>) => ({
    ...options,
    text: ((text as string[] | undefined) ?? []).join(' '),
  }),
  render: async () => (await import('../render/ask.js')).renderAsk,
  mcp: {
    title: "Ask another pane's agent",
    annotations: ACTS,
    description:
      "Type a prompt into another tmux pane's agent (Claude Code, Codex, Gemini CLI, Qwen Code, opencode started with --port, Pi, Copilot CLI), wait until its turn ends, and answer its final reply as the agent recorded it, with the turn's timing and tokens. A turn that waits for a person answers blocked; an agent that keeps no readable record is refused before anything is typed.",
    // A turn that ended without a reply nudge could read: a tool error with the reason.
    answer: (r) =>
      r.outcome.state === 'done' && !r.reply
        ? {error: `The turn ended, but ${r.why ?? 'no reply was found'}.`, value: r}
        : {value: r},
  },
});

export const wait = defineCommand({
  verb: 'wait',
  describe: 'block until a pane is idle (exit 0) or the timeout passes (exit 124)',
  positionals: [
    {
      // `pane`, so `--pane %1` is still one (yargs takes a positional's name as a flag too).
      name: 'pane',
      key: 'panes',
      variadic: true,
      describe: 'panes: %N or session:window.pane (default $TMUX_PANE); several: see --any',
      mcp: {
        name: 'pane',
        list: true,
        describe: '%N, or a list of them (any/all/count); default: your pane',
      },
    },
  ],
  options: {...SERVER_OPTIONS, ...WAIT_OPTIONS, ...JSON_OPTION},
  examples: [
    ['$0 wait %3 --timeout 2m', 'wait until pane %3 has settled'],
    ['$0 wait %1 %2 %3 --any', 'wait until the first of three agents is idle, and name it'],
  ],
  render: async () => (await import('../render/wait.js')).renderWait,
  mcp: {
    title: 'Wait until a pane is idle',
    annotations: LOOKS,
    description:
      "Block until the pane is idle (stable screen; a running command keeps a shell busy, a program waiting for input is idle) or the timeout. An agent waiting for a person answers blocked, with the kind of dialog, its question and the pane. Answers the verdict and why. Given a list of panes: until the first is idle (any), all are (all, the default), or count of them; answers which were idle, the first, and each pane's verdict.",
  },
});

export const expect = defineCommand({
  verb: 'expect',
  describe: 'block until REGEX shows in the output',
  positionals: [
    {
      name: 'pane',
      required: true,
      describe: 'pane: %N or session:window.pane',
      mcp: {name: 'pane_id', describe: '%N or session:window.pane'},
    },
    {
      name: 'regex',
      key: 'pattern',
      required: true,
      describe: 'a regular expression (RE2: linear time)',
      mcp: {name: 'pattern'},
    },
  ],
  options: {...SERVER_OPTIONS, ...EXPECT_OPTIONS},
  examples: [
    ["$0 expect %3 'listening on port \\d+' --fail-pattern 'Error'", 'wait for a server to start'],
  ],
  render: async () => {
    const {renderExpect} = await import('../render/render.js');
    return renderExpect;
  },
  mcp: {
    title: 'Wait for a pattern in a pane',
    annotations: (policy) => (policy.allowClose ? ACTS : LOOKS),
    description:
      'Block until a regular expression (RE2: linear time) matches output written to the pane after the call (or already there, with include_existing), a fail_pattern shows first, or the timeout; an agent that waits for a person (a permission, a question, a usage limit) ends it as blocked. Answers {status: matched|failed|timeout|blocked, pattern, match, line, duration_ms, output?, blocked?}.',
    police: (options, policy) => {
      if (options.action === 'close_pane' && !policy.allowClose)
        throw new NudgeError(
          'bad-usage',
          'close_pane closes a pane: nudge mcp offers it only when started with --allow-close.',
        );
      return options;
    },
    // The pane closed while waiting: a tool error with the sentence (and the answer).
    answer: (r) => (r.warning ? {error: r.warning, value: r.answer} : {value: r.answer}),
  },
});

/** This file's commands, in the order `--help` lists them. */
export const COMMANDS: readonly AnyDeclaration[] = [submit, ask, wait, expect];
