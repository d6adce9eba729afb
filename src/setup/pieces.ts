import {
  appendItem,
  type KeyPath,
  missingParents,
  pruneCreated,
  readDocument,
  removeItems,
  sameValue,
  setValue,
  valueAt,
} from './edit.js';
import type {Piece} from './place.js';

// One piece in or out of one file's text: pure, so install.ts keeps only the files, the
// manifest and the order of things.

export type PieceAction = 'add' | 'update' | 'present' | 'conflict' | 'remove' | 'absent';

/** A piece install put in, and the objects along its path that it created. */
export interface RecordedPiece {
  piece: Piece;
  /** Objects along the piece's path that install created. */
  created: KeyPath[];
}

/** The format of the file a piece goes into. */
export function formatOf(piece: Piece): 'json' | 'toml' {
  return piece.kind === 'key' ? piece.format : 'json';
}

/** What putting `piece` into `text` does: the new text and the action. */
export function addPiece(
  piece: Piece,
  text: string | undefined,
  ours: RecordedPiece | undefined,
): {text: string | undefined; action: PieceAction; created: KeyPath[]; note?: string} {
  if (piece.kind === 'file') {
    if (text === undefined) return {text: piece.content, action: 'add', created: []};
    if (text === piece.content) return {text, action: 'present', created: []};
    if (ours) return {text: piece.content, action: 'update', created: []};
    return {
      text,
      action: 'conflict',
      created: [],
      note: `${piece.file} exists and is not nudge's; left as it is`,
    };
  }
  const format = formatOf(piece);
  const doc = readDocument(format, piece.file, text);
  // A parent along the path that holds a value, not a table (opencode's `permission.bash =
  // "allow"`): the person's own setting, left as it is.
  for (let n = 1; n < piece.path.length; n++) {
    const parent = valueAt(doc, piece.path.slice(0, n));
    if (
      parent !== undefined &&
      (typeof parent !== 'object' || parent === null || Array.isArray(parent))
    )
      return {
        text,
        action: 'conflict',
        created: [],
        note: `${piece.path.slice(0, n).join('.')} in ${piece.file} is ${JSON.stringify(parent)}, not a table; left as it is`,
      };
  }
  const created = missingParents(doc, piece.path);
  if (piece.kind === 'key') {
    const current = valueAt(doc, piece.path);
    if (current === undefined)
      return {text: setValue(format, text, piece.path, piece.value), action: 'add', created};
    if (sameValue(current, piece.value)) return {text, action: 'present', created: []};
    if (ours)
      return {
        text: setValue(format, text, piece.path, piece.value),
        action: 'update',
        created: ours.created,
      };
    return {
      text,
      action: 'conflict',
      created: [],
      note: `${piece.path.join('.')} in ${piece.file} is already set (${JSON.stringify(current)}); left as it is — remove it and run install again to use nudge's`,
    };
  }
  return addItem(piece, text, ours, {list: valueAt(doc, piece.path), created});
}

/** What putting an item into the list at `piece.path` does (`list`: what is there now;
 * `created`: the tables its path makes); an older item of nudge's is replaced. */
function addItem(
  piece: Extract<Piece, {kind: 'item'}>,
  text: string | undefined,
  ours: RecordedPiece | undefined,
  {list, created}: {list: unknown; created: KeyPath[]},
): ReturnType<typeof addPiece> {
  const items = Array.isArray(list) ? list : [];
  if (items.some((x) => sameValue(x, piece.value))) return {text, action: 'present', created: []};
  const like =
    piece.like === undefined
      ? undefined
      : new RegExp(piece.like.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'));
  const older = like ? items.find((x) => like.test(JSON.stringify(x))) : undefined;
  if (older !== undefined) {
    if (!ours) {
      return {
        text,
        action: 'conflict',
        created: [],
        note: `${piece.path.join('.')} in ${piece.file} already has one (${JSON.stringify(older)}); left as it is`,
      };
    }
    const old = ours.piece.kind === 'item' ? ours.piece.value : undefined;
    const without = removeItems(text ?? '{}', piece.path, (x) => sameValue(x, old));
    return {
      text: appendItem(without, piece.path, piece.value),
      action: 'update',
      created: ours.created,
    };
  }
  return {
    text: appendItem(text, piece.path, piece.value),
    action: 'add',
    created: Array.isArray(list) ? created : [...created, piece.path],
  };
}

/** `text` without `piece` (undefined: delete the file). */
export function removePiece(
  recorded: RecordedPiece,
  text: string,
): {text: string | undefined; note?: string} {
  const {piece} = recorded;
  if (piece.kind === 'file') {
    return text === piece.content
      ? {text: undefined}
      : {text, note: `${piece.file} was changed since install; left as it is`};
  }
  const format = formatOf(piece);
  let out =
    piece.kind === 'key'
      ? setValue(format, text, piece.path, undefined)
      : removeItems(text, piece.path, (x) => sameValue(x, piece.value));
  out = pruneCreated(format, out, recorded.created);
  return {text: out};
}

export function isEmptyDocument(piece: Piece, text: string): boolean {
  const doc = readDocument(formatOf(piece), piece.file, text);
  return typeof doc === 'object' && doc !== null && Object.keys(doc).length === 0;
}
