import {expect, test} from 'vitest';
import {jobIdTime} from '../../../src/base/paths.js';
import {JOB_ID_PATTERN, newJobId, textToType} from '../../../src/jobs/request.js';
import {jobRequest} from '../../helpers/job-request.js';

test('job ids sort by creation time and match the pattern', () => {
  const ids = [1_000, 2_000, 1_700_000_000_000, 1_800_000_000_000].map((t) => newJobId(t));
  for (const id of ids) expect(id).toMatch(JOB_ID_PATTERN);
  expect([...ids].sort()).toEqual(ids);
  // And each gives its time back.
  expect(ids.map(jobIdTime)).toEqual([1_000, 2_000, 1_700_000_000_000, 1_800_000_000_000]);
  expect(jobIdTime('-x')).toBeNaN();
});

test('under --until exit the text goes in a group that starts with a space, its sentinel after it', () => {
  const request = jobRequest({text: 'make test', given: {until: 'exit'}});
  const typed = textToType(request);
  expect(typed.startsWith(' { make test\n')).toBe(true);
  expect(textToType(jobRequest({text: 'make test'}))).toBe('make test');
});
