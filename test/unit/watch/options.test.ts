// `watch start`'s input: the assessor command as words or a JSON array (no shell), the
// options given (and only those: an update keeps the rest), the transcript tail's format.
import {describe, expect, it} from 'vitest';
import {resolveWatcherOptions, splitCommand} from '../../../src/watch/options.js';
import {
  appendCapped,
  reportsAhead,
  type TranscriptEntry,
  transcriptTail,
} from '../../../src/watch/record.js';

describe('splitCommand', () => {
  it.each([
    ['python3 assess.py --strict', ['python3', 'assess.py', '--strict']],
    [`node 'my assessor.js' "a \\"b\\" $HOME"`, ['node', 'my assessor.js', 'a "b" $HOME']],
    ['a\\ b c', ['a b', 'c']],
    ["x '' y", ['x', '', 'y']],
    ['["python3","a b.py","$(rm -rf /)"]', ['python3', 'a b.py', '$(rm -rf /)']],
  ])('%s', (line, argv) => {
    expect(splitCommand(line)).toEqual(argv);
  });

  it('an unclosed quote is bad input', () => {
    expect(() => splitCommand('a "b')).toThrow('--assess-cmd has an unclosed " quote.');
  });
});

describe('resolveWatcherOptions', () => {
  it('only what was given, in milliseconds', async () => {
    const r = await resolveWatcherOptions({idleThreshold: '2s', enter: false}, '/', {});
    expect(r).toEqual({
      plan: undefined,
      assessor: undefined,
      given: {idleThresholdMs: 2_000, enter: false},
    });
  });

  it.each([
    [
      {assessCmd: 'a', assessUrl: 'http://x'},
      'Give either --assess-cmd or --assess-url, not both.',
    ],
    [{assessModel: 'm'}, '--assess-model and --assess-key-env need --assess-url.'],
    [{assessUrl: 'ftp://x', assessModel: 'm'}, '--assess-url must be http or https, got ftp:'],
    [
      {assessUrl: 'http://x/v1', assessModel: 'm', assessKeyEnv: 'A B'},
      '--assess-key-env takes the name of an environment variable, got "A B".',
    ],
    [{plan: '  '}, 'The plan is empty; say what the agent should get done.'],
    [{idleThreshold: '0s'}, '--idle-threshold must be more than 0, got "0s".'],
  ])('%j is bad input', async (o, sentence) => {
    await expect(resolveWatcherOptions(o, '/', {})).rejects.toThrow(sentence);
  });
});

describe('the transcript', () => {
  const t = (s: number) => new Date(1_700_000_000_000 + s * 1000).toISOString();
  it('the tail is newest first, [-HH:MM:SS role] text, each cut to 200 characters, at most 30', () => {
    let entries: TranscriptEntry[] = [{t: t(0), role: 'status', text: 'x'.repeat(300)}];
    for (let i = 1; i <= 40; i++)
      entries = appendCapped(entries, {t: t(i), role: 'wait', text: `w${i}\nsecond line`}, 100);
    const tail = transcriptTail(entries, 1_700_000_000_000 + 3_723_000);
    expect(tail).toHaveLength(30);
    expect(tail[0]).toBe('[-01:01:23 wait] w40 ⏎ second line');
    expect(tail[29]).toBe('[-01:01:52 wait] w11 ⏎ second line');
    const long = transcriptTail(entries.slice(0, 1), 1_700_000_000_000);
    expect(long[0]).toBe(`[-00:00:00 status] ${'x'.repeat(199)}…`);
  });
});

describe('reports ahead of one queued while a cycle runs', () => {
  const report = {at: '2026-01-01T00:00:00Z', status: 'x', bashWait: undefined, cwd: '/'};
  it('counts the first report once, taken or not yet taken by a cycle just started', () => {
    // The cycle was launched; it has not taken its report yet.
    expect(reportsAhead({state: 'active', pending: [report]})).toBe(1);
    expect(reportsAhead({state: 'standby', pending: [report]})).toBe(1);
    // It has taken it and is waiting, or spinning, or asking.
    expect(reportsAhead({state: 'wait', pending: []})).toBe(1);
    expect(reportsAhead({state: 'idle_spin', pending: []})).toBe(1);
    expect(reportsAhead({state: 'assess', pending: [report]})).toBe(2);
  });
});
