// The MCP tools' arguments come from the same options tables as the CLI's flags: the same
// defaults, the same help, the command's camelCase names on the way in.
import {describe, expect, test} from 'vitest';
import {z} from 'zod';
import {JSON_OPTION, toolArgumentOf} from '../../../src/base/option-table.js';
import {optionsOf, shapeOf} from '../../../src/mcp/schema.js';
import {EXPECT_OPTIONS} from '../../../src/verbs/options/expect.js';
import {SUBMIT_OPTIONS} from '../../../src/verbs/options/submit.js';
import {WAIT_OPTIONS} from '../../../src/verbs/options/wait.js';

describe('shapeOf', () => {
  test("takes the table's MCP arguments, with the CLI's defaults and help", () => {
    const shape = z.object(shapeOf(EXPECT_OPTIONS, new Set()));
    expect(Object.keys(shape.shape).sort()).toEqual(
      [
        'action',
        'fail_pattern',
        'host',
        'include_existing',
        'lines',
        'poll_interval_ms',
        'timeout_ms',
      ].sort(),
    );
    // Digits as text on the CLI, a number in MCP; the default is the same. What the command
    // uses when an argument is absent (implied) is said in its help, and filled by the command.
    expect(shape.parse({})).toEqual({lines: 100, action: 'notify'});
    expect(shape.parse({timeout_ms: 1500}).timeout_ms).toBe(1500);
    expect(shape.shape.timeout_ms?.description).toBe('give up after this many ms (default 60000)');
    expect(() => shape.parse({action: 'explode'})).toThrow();
    expect(shape.shape.lines?.description).toBe(
      'lines from the end of the output searched (default 100)',
    );
  });

  test('a duration takes text or milliseconds', () => {
    const shape = z.object(shapeOf(WAIT_OPTIONS, new Set()));
    expect(shape.parse({timeout: 1500}).timeout).toBe(1500);
    expect(shape.parse({timeout: '2m'}).timeout).toBe('2m');
    expect(shape.parse({}).timeout).toBe('10m');
  });
});

describe('toolArgumentOf', () => {
  test('an option is an argument under its snake_case name, another where its row names one, none where only the CLI takes it', () => {
    expect(toolArgumentOf('idle-timeout', {type: 'string'})).toBe('idle_timeout');
    expect(toolArgumentOf('pane', {type: 'string', mcp: {name: 'pane_id'}})).toBe('pane_id');
    expect(toolArgumentOf('json', JSON_OPTION.json)).toBeUndefined();
  });

  test('an option the tool takes by an argument of its own is not a second argument', () => {
    const table = {notice: {type: 'string'}, wait: {type: 'boolean'}} as const;
    expect(Object.keys(shapeOf(table, new Set(['notice'])))).toEqual(['wait']);
  });
});

describe('optionsOf', () => {
  test('renames the arguments to the options of the command, leaving out what was not given', () => {
    expect(
      optionsOf({notify_pane: '%1', stable_checks: 2, when_idle: true}, SUBMIT_OPTIONS),
    ).toEqual({notifyPane: '%1', stableChecks: 2, whenIdle: true});
    // Options the tool does not take are never read from its arguments.
    expect(optionsOf({'type-delay': '0', typeDelay: '0'}, SUBMIT_OPTIONS)).toEqual({});
  });
});
