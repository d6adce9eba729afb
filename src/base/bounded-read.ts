import {closeSync, constants, fstatSync, openSync, readSync} from 'node:fs';
import {open} from 'node:fs/promises';

/**
 * Reading a file a repository, another program or a flag names (docs/security.md, "Bounded
 * input"): opened without blocking (a FIFO no writer holds would hang `open` for ever), taken
 * only when it is a regular file (`/dev/zero`, a FIFO, a socket or a folder are refused before
 * a byte is read), and read to at most `limit` + 1 bytes, so a file too big is known without
 * holding it. One read: what is checked, hashed and parsed are the same bytes.
 */
export class ReadRefused extends Error {
  constructor(
    readonly why: 'not-a-file' | 'too-big',
    /** The sentence's end: "is a FIFO, not a regular file", "is over 64 KiB". */
    readonly detail: string,
  ) {
    super(detail);
    this.name = 'ReadRefused';
  }
}

const FLAGS = constants.O_RDONLY | constants.O_NONBLOCK | (constants.O_NOCTTY ?? 0);

/** What a non-regular file is, for the sentence. */
function kindOf(st: {
  isFIFO(): boolean;
  isCharacterDevice(): boolean;
  isBlockDevice(): boolean;
  isSocket(): boolean;
  isDirectory(): boolean;
}): string {
  if (st.isFIFO()) return 'a FIFO';
  if (st.isCharacterDevice()) return 'a character device';
  if (st.isBlockDevice()) return 'a block device';
  if (st.isSocket()) return 'a socket';
  if (st.isDirectory()) return 'a folder';
  return 'not a regular file';
}

/** A size for a sentence: "64 KiB", "1 MiB". */
export function sizeText(bytes: number): string {
  if (bytes >= 1024 * 1024 && bytes % (1024 * 1024) === 0) return `${bytes / (1024 * 1024)} MiB`;
  if (bytes >= 1024 && bytes % 1024 === 0) return `${bytes / 1024} KiB`;
  return `${bytes} bytes`;
}

function refuseIfNotRegular(st: Parameters<typeof kindOf>[0] & {isFile(): boolean}): void {
  if (!st.isFile()) throw new ReadRefused('not-a-file', `is ${kindOf(st)}, not a regular file`);
}

function tooBig(limit: number): ReadRefused {
  return new ReadRefused('too-big', `is over ${sizeText(limit)}`);
}

/** The bytes of the regular file at `path`, at most `limit`; throws ReadRefused (not a
 * regular file, or over the limit) or the file system's error (ENOENT, EACCES…). */
export function readCappedSync(path: string, limit: number): Buffer {
  const fd = openSync(path, FLAGS);
  try {
    refuseIfNotRegular(fstatSync(fd));
    const buffer = Buffer.alloc(limit + 1);
    let got = 0;
    for (;;) {
      const n = readSync(fd, buffer, got, buffer.length - got, null);
      if (n === 0) break;
      got += n;
      if (got > limit) throw tooBig(limit);
    }
    return buffer.subarray(0, got);
  } finally {
    closeSync(fd);
  }
}

/** readCappedSync, without blocking the event loop. */
export async function readCapped(path: string, limit: number): Promise<Buffer> {
  const handle = await open(path, FLAGS);
  try {
    refuseIfNotRegular(await handle.stat());
    const buffer = Buffer.alloc(limit + 1);
    let got = 0;
    for (;;) {
      const {bytesRead} = await handle.read(buffer, got, buffer.length - got, null);
      if (bytesRead === 0) break;
      got += bytesRead;
      if (got > limit) throw tooBig(limit);
    }
    return buffer.subarray(0, got);
  } finally {
    await handle.close();
  }
}

/** readCappedSync as UTF-8 text. */
export function readTextCappedSync(path: string, limit: number): string {
  return readCappedSync(path, limit).toString('utf8');
}

/** readCapped as UTF-8 text. */
export async function readTextCapped(path: string, limit: number): Promise<string> {
  return (await readCapped(path, limit)).toString('utf8');
}

/** Why a capped read failed, as the end of a sentence ("is a FIFO, not a regular file",
 * "cannot be read (ENOENT)"). */
export function readFailure(error: unknown): string {
  if (error instanceof ReadRefused) return error.detail;
  return `cannot be read (${(error as NodeJS.ErrnoException).code ?? String(error)})`;
}

/** How much of a file nudge reads from places a repository or another program controls. */
export const READ_LIMITS = {
  /** A profile file (`.nudge/agents/*.toml`, the person's own folder). */
  profile: 256 * 1024,
  /** config.toml, the trust store, a schedule or watcher record. */
  config: 1024 * 1024,
  /** A record another program writes (a hook payload's file, a session record). */
  record: 4 * 1024 * 1024,
} as const;
