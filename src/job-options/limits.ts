/** The largest text (UTF-8 bytes) one job may type. Apart from the options' checks
 * (src/job-options/resolve.ts, with zod) so what reads a job's request.json bounded (the
 * store, `nudge jobs`) does not load them. */
export const MAX_TEXT_BYTES = 64 * 1024;
