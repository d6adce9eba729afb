import {createHash} from 'node:crypto';
import {chmod, mkdir, realpath, rm, stat} from 'node:fs/promises';
import {basename, dirname, join} from 'node:path';
import {READ_LIMITS, readFailure, readTextCapped} from '../base/bounded-read.js';
import {NudgeError} from '../base/errors.js';
import {writeFileAtomic} from '../base/fs.js';
import {DIR_MODE} from '../base/paths.js';
import type {InstallAgent} from './agents.js';
import type {KeyPath} from './edit.js';
import {addPiece, type RecordedPiece, removePiece} from './pieces.js';
import type {Piece, Scope} from './place.js';

/**
 * Putting pieces into the user's files and taking them out again. A manifest in the state
 * directory records, per file, whether it existed, a backup of it before the first change, a
 * hash of what install last wrote, and the pieces install added (not those that were already
 * there). Uninstall restores the backup byte for byte when the file is still what install
 * wrote; when the file changed since (the agent or the user edited it), it takes out exactly
 * the recorded pieces and leaves the rest.
 */

export type {PieceAction} from './pieces.js';

import type {PieceAction} from './pieces.js';

export interface PiecePlan {
  id: string;
  what: string;
  file: string;
  action: PieceAction;
  /** Why a piece was left alone. */
  note?: string;
}

export interface FilePlan {
  file: string;
  action: 'create' | 'edit' | 'delete' | 'restore' | 'none';
}

export interface InstallPlan {
  pieces: PiecePlan[];
  files: FilePlan[];
  /** The new text of each file that changes (undefined: delete it). */
  texts: Map<string, string | undefined>;
  manifest: Manifest | undefined;
  /** For each piece (install), the objects along its path that putting it in creates. */
  created: KeyPath[][];
}

interface RecordedFile {
  existed: boolean;
  /** The file as it was before install first changed it. */
  backup?: string;
  /** sha256 of what install last wrote. */
  written: string;
  /** Directories install created for it, deepest last. */
  dirs: string[];
  /** False once someone else changed the file between two installs: the backup is then no
   * longer "the file without nudge's pieces", and uninstall takes the pieces out instead. */
  restorable?: boolean;
}

export interface Manifest {
  version: 1;
  agent: InstallAgent;
  scope: Scope;
  root: string;
  files: Record<string, RecordedFile>;
  pieces: RecordedPiece[];
}

export function sha(text: string): string {
  return createHash('sha256').update(text).digest('hex');
}

export async function readText(file: string): Promise<string | undefined> {
  try {
    return await readTextCapped(file, READ_LIMITS.record);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw new NudgeError('config-write', `${file} ${readFailure(error)}; nothing was changed.`);
  }
}

export async function readManifest(path: string): Promise<Manifest | undefined> {
  const text = await readText(path);
  if (text === undefined) return undefined;
  try {
    return JSON.parse(text) as Manifest;
  } catch {
    throw new NudgeError(
      'config-write',
      `The install record ${path} is damaged; remove it and run install again.`,
    );
  }
}

/** What install would do: each piece's action and each file's new text. */
export async function planInstall(
  pieces: Piece[],
  manifest: Manifest | undefined,
): Promise<InstallPlan> {
  const texts = new Map<string, string | undefined>();
  const before = new Map<string, string | undefined>();
  const plans: PiecePlan[] = [];
  const created: KeyPath[][] = [];
  for (const piece of pieces) {
    if (!before.has(piece.file)) {
      const text = await readText(piece.file);
      before.set(piece.file, text);
      texts.set(piece.file, text);
    }
    const ours = manifest?.pieces.find(
      (r) => r.piece.file === piece.file && r.piece.id === piece.id,
    );
    const r = addPiece(piece, texts.get(piece.file), ours);
    texts.set(piece.file, r.text);
    plans.push({
      id: piece.id,
      what: piece.what,
      file: piece.file,
      action: r.action,
      ...(r.note ? {note: r.note} : {}),
    });
    created.push(r.created);
  }
  // What an earlier install added and this one no longer does (a broader allow rule of an
  // older version, an allow rule given up without --allow) is taken out, as uninstall would.
  const stale = (manifest?.pieces ?? []).filter(
    (r) => !pieces.some((p) => p.file === r.piece.file && p.id === r.piece.id),
  );
  for (const r of stale) {
    const file = r.piece.file;
    if (!before.has(file)) {
      const text = await readText(file);
      before.set(file, text);
      texts.set(file, text);
    }
    const text = texts.get(file);
    if (text === undefined) continue;
    const out = takeOut(r, text, plans);
    texts.set(file, out);
  }
  const files: FilePlan[] = [...texts.keys()].map((file) => ({
    file,
    action:
      texts.get(file) === before.get(file)
        ? 'none'
        : before.get(file) === undefined
          ? 'create'
          : 'edit',
  }));
  for (const f of files) if (f.action === 'none') texts.delete(f.file);
  return {pieces: plans, files, texts, manifest, created};
}

/** Make the directories of `file` (0700 for new ones) and say which were created. */
async function makeDirs(file: string): Promise<string[]> {
  const missing: string[] = [];
  let dir = dirname(file);
  for (;;) {
    try {
      await stat(dir);
      break;
    } catch {
      missing.unshift(dir);
      const up = dirname(dir);
      if (up === dir) break;
      dir = up;
    }
  }
  for (const d of missing) await mkdir(d, {mode: DIR_MODE});
  return missing;
}

/** Write keeping a symlinked config file a symlink, and its mode. */
export async function writeConfig(file: string, text: string): Promise<void> {
  let target = file;
  let mode: number | undefined;
  try {
    target = await realpath(file);
    mode = (await stat(target)).mode & 0o777;
  } catch {
    // a new file: 0600, as the agents create theirs
  }
  await writeFileAtomic(target, text);
  if (mode !== undefined) await chmod(target, mode);
}

export function failedWrite(file: string, error: unknown): NudgeError {
  if (error instanceof NudgeError) return error;
  return new NudgeError(
    'config-write',
    `Cannot write ${file} (${(error as NodeJS.ErrnoException).code ?? (error as Error).message}); what was written before it is recorded, run the command again once it is fixed.`,
  );
}

/** Carry out a plan: back up each file before its first change, write, record. */
export async function applyInstall(
  plan: InstallPlan,
  pieces: Piece[],
  o: {manifestPath: string; backupDir: string; agent: InstallAgent; scope: Scope; root: string},
): Promise<{backups: string[]}> {
  const manifest: Manifest = plan.manifest ?? {
    version: 1,
    agent: o.agent,
    scope: o.scope,
    root: o.root,
    files: {},
    pieces: [],
  };
  const backups: string[] = [];
  await mkdir(o.backupDir, {recursive: true, mode: DIR_MODE});
  const save = () => writeFileAtomic(o.manifestPath, `${JSON.stringify(manifest, null, 2)}\n`);
  for (const [file, text] of plan.texts) {
    if (text === undefined) {
      // A file only nudge had written, whose piece is no longer installed.
      if (manifest.files[file]) await rm(file, {force: true}).catch(() => undefined);
      continue;
    }
    try {
      let record = manifest.files[file];
      if (!record) {
        const original = await readText(file);
        record = {existed: original !== undefined, written: '', dirs: []};
        if (original !== undefined) {
          const backup = join(
            o.backupDir,
            `${Object.keys(manifest.files).length}-${basename(file)}`,
          );
          await writeFileAtomic(backup, original);
          record.backup = backup;
          backups.push(backup);
        }
        record.dirs = await makeDirs(file);
        manifest.files[file] = record;
        await save(); // the backup is recorded before the file changes
      } else {
        const current = await readText(file);
        if (current !== undefined && sha(current) !== record.written) record.restorable = false;
      }
      await writeConfig(file, text);
      record.written = sha(text);
    } catch (error) {
      throw failedWrite(file, error);
    }
  }
  const kept = new Set(pieces.map((p) => `${p.file}\0${p.id}`));
  manifest.pieces = manifest.pieces.filter((r) => kept.has(`${r.piece.file}\0${r.piece.id}`));
  plan.pieces.forEach((p, i) => {
    if (p.action !== 'add' && p.action !== 'update') return;
    const piece = pieces[i]!;
    manifest.pieces = manifest.pieces.filter(
      (r) => !(r.piece.file === piece.file && r.piece.id === piece.id),
    );
    manifest.pieces.push({piece, created: plan.created[i] ?? []});
  });
  await save();
  return {backups};
}

/** Take a recorded piece out of `text` (its file's), noting it in `plans`: removed, or left
 * alone with why. The text after. */
export function takeOut(r: RecordedPiece, text: string, plans: PiecePlan[]): string | undefined {
  const out = removePiece(r, text);
  plans.push({
    id: r.piece.id,
    what: r.piece.what,
    file: r.piece.file,
    action: out.note ? 'conflict' : 'remove',
    ...(out.note ? {note: out.note} : {}),
  });
  return out.text;
}
