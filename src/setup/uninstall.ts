import {rm, rmdir} from 'node:fs/promises';
import {dirname} from 'node:path';
import {NudgeError} from '../base/errors.js';
import {pruneCreated} from './edit.js';
import {
  type FilePlan,
  failedWrite,
  type InstallPlan,
  type Manifest,
  type PiecePlan,
  readText,
  sha,
  takeOut,
  writeConfig,
} from './install.js';
import {formatOf, isEmptyDocument} from './pieces.js';

/**
 * Taking nudge out of an agent's files: only what its install record says nudge put there, each file as it was where nothing else changed.
 */

/** What uninstall would do, from the manifest. */
export async function planUninstall(manifest: Manifest): Promise<InstallPlan> {
  const texts = new Map<string, string | undefined>();
  const plans: PiecePlan[] = [];
  const files: FilePlan[] = [];
  for (const [file, record] of Object.entries(manifest.files)) {
    const current = await readText(file);
    const mine = manifest.pieces.filter((r) => r.piece.file === file);
    if (current === undefined) {
      for (const r of mine)
        plans.push({id: r.piece.id, what: r.piece.what, file, action: 'absent'});
      files.push({file, action: 'none'});
      continue;
    }
    if (sha(current) === record.written && record.restorable !== false) {
      // untouched since install: the file as it was, byte for byte
      const original = record.backup === undefined ? undefined : await readText(record.backup);
      if (record.existed && original === undefined) {
        throw new NudgeError(
          'config-write',
          `The backup of ${file} (${record.backup}) is missing; nothing was changed.`,
        );
      }
      texts.set(file, record.existed ? original : undefined);
      for (const r of mine)
        plans.push({id: r.piece.id, what: r.piece.what, file, action: 'remove'});
      files.push({file, action: record.existed ? 'restore' : 'delete'});
      continue;
    }
    let text: string | undefined = current;
    for (const r of mine) {
      if (text === undefined) break;
      text = takeOut(r, text, plans);
    }
    const first = mine[0];
    // A key one piece created may hold another's (two hooks under `hooks`): pruned once all
    // are out, whichever piece made it.
    if (text !== undefined && first && first.piece.kind !== 'file')
      text = pruneCreated(
        formatOf(first.piece),
        text,
        mine.flatMap((r) => r.created),
      );
    if (
      text !== undefined &&
      !record.existed &&
      first &&
      first.piece.kind !== 'file' &&
      isEmptyDocument(first.piece, text)
    )
      text = undefined;
    if (text === current) {
      files.push({file, action: 'none'});
      continue;
    }
    texts.set(file, text);
    files.push({file, action: text === undefined ? 'delete' : 'edit'});
  }
  return {pieces: plans, files, texts, manifest, created: []};
}

/** Carry out an uninstall plan, then forget the install. */
export async function applyUninstall(plan: InstallPlan, manifestPath: string): Promise<void> {
  const manifest = plan.manifest!;
  for (const [file, text] of plan.texts) {
    try {
      if (text === undefined) await rm(file, {force: true});
      else await writeConfig(file, text);
    } catch (error) {
      throw failedWrite(file, error);
    }
  }
  for (const record of Object.values(manifest.files)) {
    for (const dir of [...record.dirs].reverse()) {
      await rmdir(dir).catch(() => undefined); // only when empty
    }
  }
  const exact = plan.files.every((f) => f.action === 'restore' || f.action === 'delete');
  if (exact) {
    for (const record of Object.values(manifest.files)) {
      if (record.backup) await rm(record.backup, {force: true});
    }
    const dirs = new Set(
      Object.values(manifest.files).flatMap((f) => (f.backup ? [dirname(f.backup)] : [])),
    );
    for (const dir of dirs) await rmdir(dir).catch(() => undefined);
  }
  await rm(manifestPath, {force: true});
}
