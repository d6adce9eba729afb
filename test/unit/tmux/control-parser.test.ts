import {describe, expect, test} from 'vitest';
import {type ControlBlock, ControlParser} from '../../../src/tmux/control-parser.js';

type Event =
  | ['block', ControlBlock]
  | ['output', string]
  | ['pause', string]
  | ['exit', string]
  | ['subscription', string, string, string]
  | ['notification', string];

/** Feed `text` to a parser in pieces of `pieceSize` characters; return what it recognised. */
function parse(text: string, pieceSize = text.length): Event[] {
  const events: Event[] = [];
  const parser = new ControlParser({
    block: (b) => events.push(['block', b]),
    output: (pane) => events.push(['output', pane]),
    pause: (pane) => events.push(['pause', pane]),
    exit: (reason) => events.push(['exit', reason]),
    subscription: (name, pane, value) => events.push(['subscription', name, pane, value]),
    notification: (line) => events.push(['notification', line]),
  });
  for (let i = 0; i < text.length; i += Math.max(1, pieceSize)) {
    parser.push(text.slice(i, i + Math.max(1, pieceSize)));
  }
  return events;
}

const block = (number: string, lines: string[], ok = true, fromClient = true): Event => [
  'block',
  {number, fromClient, ok, lines},
];

describe('ControlParser', () => {
  test("a pane subscription's change: its name, pane and value (spaces and colons kept)", () => {
    const text = [
      '%subscription-changed nudge-23 $1 @2 0 %23 : 1796284930 5,3 120 : x',
      '%subscription-changed all $1 - - - : session-wide',
      '',
    ].join('\n');
    expect(parse(text, 7)).toEqual([
      ['subscription', 'nudge-23', '%23', '1796284930 5,3 120 : x'],
      ['notification', '%subscription-changed all $1 - - - : session-wide'],
    ]);
  });

  test('a subscription line inside a reply block is content', () => {
    const text = [
      '%begin 1 2 1',
      '%subscription-changed nudge-1 $1 @2 0 %1 : 5',
      '%end 1 2 1',
      '',
    ].join('\n');
    expect(parse(text)).toEqual([block('2', ['%subscription-changed nudge-1 $1 @2 0 %1 : 5'])]);
  });

  test('the attach reply (flags 0), notifications, then a command reply', () => {
    const text = [
      '%begin 1795307818 266 0',
      '%end 1795307818 266 0',
      '%session-changed $0 main',
      '%begin 1795307819 271 1',
      'hi',
      '%end 1795307819 271 1',
      '',
    ].join('\n');
    expect(parse(text)).toEqual([
      block('266', [], true, false),
      ['notification', '%session-changed $0 main'],
      block('271', ['hi']),
    ]);
  });

  test('block content is verbatim: %end/%error/%output/%exit lines of a pane are content', () => {
    const content = [
      '%end 1 2 1',
      '%end 1795307819 272 0',
      '%error 1795307819 272',
      '%output %9 hi',
      '%exit',
      '%begin 1795307819 999 1',
      '',
      '  spaced  ',
    ];
    const text = ['%begin 1795307819 272 1', ...content, '%end 1795307819 272 1', ''].join('\n');
    expect(parse(text)).toEqual([block('272', content)]);
  });

  test('only the same time, number and flags close a block', () => {
    const text = [
      '%begin 100 5 1',
      '%end 101 5 1',
      '%end 100 6 1',
      '%end 100 5 0',
      '%error 100 5 1',
      '',
    ].join('\n');
    expect(parse(text)).toEqual([
      block('5', ['%end 101 5 1', '%end 100 6 1', '%end 100 5 0'], false),
    ]);
  });

  test('an %error block carries the message', () => {
    const text = "%begin 7 40 1\ncan't find pane: %99\n%error 7 40 1\n";
    expect(parse(text)).toEqual([block('40', ["can't find pane: %99"], false)]);
  });

  test('a chained line gives one block per command; empty output and one empty line differ', () => {
    const text = [
      '%begin 7 41 1',
      '%end 7 41 1',
      '%begin 7 42 1',
      '',
      '%end 7 42 1',
      '%begin 7 43 1',
      'a',
      'b',
      '%end 7 43 1',
      '',
    ].join('\n');
    expect(parse(text)).toEqual([block('41', []), block('42', ['']), block('43', ['a', 'b'])]);
  });

  test('%output between blocks is recognised with its pane id only', () => {
    const text = [
      '%output %3 \\033[?2004hroot@vm:~# ',
      '%begin 7 44 1',
      'x',
      '%end 7 44 1',
      '%output %12 tick\\015\\012',
      '%extended-output %5 120 : data',
      '%output %4',
      '',
    ].join('\n');
    expect(parse(text)).toEqual([
      ['output', '%3'],
      block('44', ['x']),
      ['output', '%12'],
      ['output', '%5'],
      ['output', '%4'],
    ]);
  });

  test('%pause and %exit, with and without a reason', () => {
    expect(parse('%pause %7\n%exit\n')).toEqual([
      ['pause', '%7'],
      ['exit', ''],
    ]);
    expect(parse('%exit too far behind\n')).toEqual([['exit', 'too far behind']]);
  });

  test('the same events whatever the chunking, and a partial line waits for its newline', () => {
    const text = [
      '%begin 1 1 0',
      '%end 1 1 0',
      '%output %1 é€😀 data',
      '%begin 2 2 1',
      'é€😀 %end 2 2 1',
      '%end 2 2 1',
      '%window-add @3',
      '%exit',
      '',
    ].join('\n');
    const whole = parse(text);
    for (const size of [1, 2, 3, 7, 64])
      expect(parse(text, size), `pieces of ${size}`).toEqual(whole);
    expect(parse('%output %1 no newline yet')).toEqual([]);
  });
});
