import {resolveJobOptions} from '../../src/job-options/resolve.js';
import type {SubmitOptions} from '../../src/job-options/table.js';
import type {JobRequest} from '../../src/jobs/request.js';

/**
 * A job's request as `nudge submit` records it: its options made by the product's own
 * resolver from flags as a person gives them (`given`), then `exact` for fields no flag sets
 * (or values tests need to state outright).
 */
export function jobRequest(
  o: {
    jobId?: string;
    text?: string;
    pane?: string;
    paneTarget?: string;
    given?: Omit<SubmitOptions, 'text'>;
    exact?: Partial<JobRequest['options']>;
    createdAt?: string;
    server?: JobRequest['server'];
  } = {},
): JobRequest {
  const text = o.text ?? 'npm test';
  return {
    version: 1,
    jobId: o.jobId ?? '0mwr33g3x-k62r',
    createdAt: o.createdAt ?? '2026-11-22T00:00:00.000Z',
    server: o.server ?? {socketPath: '/tmp/fake.sock', pid: 42},
    pane: o.pane ?? '%1',
    paneTarget: o.paneTarget ?? o.pane ?? '%1',
    text,
    options: {
      ...resolveJobOptions({text, ...o.given}, {HOME: '/nonexistent'}),
      notifyPane: null,
      ...o.exact,
    },
  };
}
