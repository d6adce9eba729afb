import {describe, expect, test} from 'vitest';
import {PROFILES} from '../../../src/agents/registry.js';
import {SUBMIT_OPTIONS} from '../../../src/job-options/table.js';
import {OWN_LINE_WAITS, ownLinePace, SHELL_PACE} from '../../../src/pane/own-line.js';

describe("the pace of nudge's own lines", () => {
  const jobPace = {typeDelayMs: 7, enterDelayMs: 900, enter: false, clear: true};

  test('to an agent, one line goes as a burst with the profile’s least pause before Enter', () => {
    expect(ownLinePace(PROFILES.codex!, 'Resume.', jobPace)).toEqual({
      typeDelayMs: 0,
      enterDelayMs: PROFILES.codex!.minEnterDelayMs,
    });
  });

  test('several lines, or a shell, go at the given pace, and nothing else is taken from it', () => {
    expect(ownLinePace(PROFILES.claude!, 'a\nb', jobPace)).toEqual({
      typeDelayMs: 7,
      enterDelayMs: 900,
    });
    expect(ownLinePace(PROFILES.shell, 'Resume.', SHELL_PACE)).toEqual({
      typeDelayMs: 20,
      enterDelayMs: 500,
    });
  });

  test("submit's defaults are the table's notice row and the shell pace", () => {
    const o = SUBMIT_OPTIONS;
    expect([o['lock-timeout'].default, o['draft-wait'].default]).toEqual(['10m', '30s']);
    expect(OWN_LINE_WAITS.notice).toEqual({lockTimeoutMs: 600_000, draftWaitMs: 30_000});
    expect([o['type-delay'].default, o['enter-delay'].default]).toEqual(['20ms', '500ms']);
  });
});
