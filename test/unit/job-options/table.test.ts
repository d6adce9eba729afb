// The table of `nudge submit`: each row that a job stores reads its own default.
import {expect, test} from 'vitest';
import {camelOf} from '../../../src/base/option-table.js';
import {resolveJobOptions} from '../../../src/job-options/resolve.js';
import {JOB_OPTIONS} from '../../../src/job-options/schema.js';
import {SUBMIT_OPTIONS} from '../../../src/job-options/table.js';

const NONE = {XDG_CONFIG_HOME: '/nonexistent', HOME: '/nonexistent'};

test('each storing row: its default as given is what nothing given makes', () => {
  const none = resolveJobOptions({text: 'x'}, NONE);
  for (const [name, spec] of Object.entries(SUBMIT_OPTIONS)) {
    if (!('job' in spec) || !('default' in spec)) continue;
    const given = resolveJobOptions({text: 'x', [camelOf(name)]: spec.default}, NONE);
    expect(given, name).toEqual(none);
  }
});

test("each row's stored fields are fields of the stored schema, with a reason it says", () => {
  for (const spec of Object.values(SUBMIT_OPTIONS)) {
    if (!('job' in spec)) continue;
    for (const field of Object.keys(spec.job.stored)) {
      const shape = JOB_OPTIONS.shape[field as keyof typeof JOB_OPTIONS.shape];
      expect(shape?.description, field).toBeTypeOf('string');
    }
  }
});

test("--help's defaults are the durations the job gets", () => {
  expect(SUBMIT_OPTIONS.delay.default).toBe('3s');
  expect(SUBMIT_OPTIONS['type-delay'].default).toBe('20ms');
  expect(SUBMIT_OPTIONS['lock-timeout'].default).toBe('10m');
});
