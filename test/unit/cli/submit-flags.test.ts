import {beforeAll, describe, expect, test} from 'vitest';
import {EXIT_CODES} from '../../../src/base/errors.js';
import {camelOf} from '../../../src/base/option-table.js';
import {buildCli} from '../../../src/cli/build-cli.js';
import {parseSubmitFast} from '../../../src/cli/submit-flags.js';
import {SUBMIT_OPTIONS} from '../../../src/job-options/table.js';
import type {SubmitOptions} from '../../../src/verbs/submit.js';
import {offlineContext} from '../../helpers/offline-context.js';

/** What yargs hands to submit for `argv`. */
async function viaYargs(argv: string[]): Promise<SubmitOptions & {json: boolean}> {
  let got: SubmitOptions | undefined;
  const ctx = offlineContext();
  // How the result was printed says whether yargs read --json.
  let printed = '';
  const out = {
    stdout: (line: string) => {
      printed += line;
    },
    stderr: () => {},
    width: 80,
  };
  await buildCli(
    argv,
    ctx,
    out,
    {exitCode: EXIT_CODES.ok},
    {
      submit: async (o) => {
        got = o;
        return {kind: 'queued', job: 'j', pane: '%0', pid: 1, log: '/dev/null'};
      },
    },
  ).parseAsync();
  if (!got) throw new Error('submit was not called');
  return {...got, json: printed.startsWith('{')};
}

/** SubmitOptions fields whose flag has a default (yargs fills it in): the table's rows that
 * give one. */
const DEFAULTED = Object.entries(SUBMIT_OPTIONS)
  .filter(([, spec]) => 'default' in spec)
  .map(([name]) => camelOf(name));

/** Drop undefined values, so "not given" compares equal to "absent". */
const defined = (o: SubmitOptions) =>
  Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined));

describe('the fast submit parser agrees with yargs', () => {
  // What a parsed command loads when it runs (dispatch, the renderer), loaded once before the
  // cases: on a loaded CI machine two cases went past vitest's 5 s.
  beforeAll(async () => {
    await import('../../../src/front/dispatch.js');
    await import('../../../src/render/render.js');
  }, 120_000);
  test.each([
    [['submit', '--pane', '%3', '--', 'npm test']],
    [
      [
        'submit',
        '-t',
        '%3',
        '-S',
        '/tmp/s',
        '--delay',
        '0',
        '--type-delay=0',
        '--',
        '-x',
        ';',
        'Enter',
      ],
    ],
    [['submit', '-L', 'name', '--no-clear', '--no-enter', '--no-notice', '--', 'a']],
    [
      [
        'submit',
        '--notice',
        'done {status}',
        '--until',
        'regex:a b',
        '--ignore',
        'x',
        '--ignore',
        'y',
        '--',
        'echo',
      ],
    ],
    [
      [
        'submit',
        '--wait',
        '--json',
        '--timeout',
        '5m',
        '--stable-checks',
        '4',
        '--lines',
        '20',
        '--notify-pane',
        '%1',
        '--',
        'x',
      ],
    ],
    [['submit', 'two', 'words']],
  ])(
    '%j',
    async (argv) => {
      const fast = parseSubmitFast(argv);
      expect(fast).toBeDefined();
      const slow = defined(await viaYargs(argv));
      const fastDefined = defined(fast!);
      // Whatever the fast path read equals what yargs read; what it left out, yargs filled in
      // with the flag's default (submit applies the same default when a value is absent).
      for (const [key, value] of Object.entries(slow)) {
        if (key in fastDefined) expect(fastDefined[key], key).toEqual(value);
        else expect(DEFAULTED, key).toContain(key);
      }
      for (const key of Object.keys(fastDefined)) expect(slow, key).toHaveProperty(key);
      // Each builds the whole CLI and runs its handler: generous for a loaded machine.
    },
    60_000,
  );

  test.each([
    [['submit', '--help']],
    [['submit', '--bogus', 'x']],
    [['submit', '--delay', '1s', '--delay', '2s', '--', 'x']],
    [['submit', '--typeDelay', '0', '--', 'x']],
    [['jobs']],
  ])('%j goes to yargs', (argv) => {
    expect(parseSubmitFast(argv)).toBeUndefined();
  });
});

test('every SubmitOptions field has a flag: --profile, --when-idle, --idle-timeout, --clear-draft, --draft-wait', () => {
  const o = parseSubmitFast([
    'submit',
    '--profile',
    'claude',
    '--when-idle',
    '--idle-timeout',
    '2m',
    '--clear-draft',
    '--draft-wait',
    '5s',
    '--',
    'x',
  ]);
  expect(o).toMatchObject({
    profile: 'claude',
    whenIdle: true,
    idleTimeout: '2m',
    clearDraft: true,
    draftWait: '5s',
  });
});
