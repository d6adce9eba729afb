/**
 * This process's identity: the one module besides the entries (src/cli.ts, src/main.ts,
 * workers/) and src/process/ that reads `process` (test/unit/repo/architecture.test.ts). Nothing
 * here changes while the process runs.
 */
export const thisProcess = {
  pid: process.pid,
  platform: process.platform,
  arch: process.arch,
  /** Node's version, e.g. "20.19.1". */
  nodeVersion: process.versions.node,
  /** The node binary running this process. */
  execPath: process.execPath,
  /** The user's id, where the platform has one. */
  uid: typeof process.getuid === 'function' ? process.getuid() : undefined,
} as const;
