// apply_patch → EditPlan. Every section is planned against the snapshots before anything is returned, so
// a patch that fails on its third file yields an error and no plan at all.
import {
  type EditPlan,
  type FilePlan,
  type FileSnapshots,
  createEntry,
  deleteEntry,
  lookup,
  makePlan,
  updateEntry,
} from './editPlan';
import { type EditError, fail } from './errors';
import { resolveChunks } from './patchMatch';
import type { PatchOp, ParsedPatch } from './patchTypes';
import { type Result, ok } from './result';
import { readLines } from './textFormat';

/** Plans every section of `patch` against `files`; the first section that cannot apply is the error. */
export function planPatch(patch: ParsedPatch, files: FileSnapshots): Result<EditPlan, EditError> {
  const entries: FilePlan[] = [];
  for (const op of patch.ops) {
    const entry = planOp(op, files);
    if (!entry.ok) return entry;
    entries.push(entry.value);
  }
  return ok(makePlan(entries));
}

/** The text of an added file: each `+` line ends with a newline. */
function addedText(lines: readonly string[]): string {
  return lines.length === 0 ? '' : `${lines.join('\n')}\n`;
}

/** Plans one section; with `open` (streaming), its last chunk may be left out if it cannot be placed yet. */
export function planOp(op: PatchOp, files: FileSnapshots, open = false): Result<FilePlan, EditError> {
  const snapshot = lookup(files, op.path);
  const place = { path: op.path };
  switch (op.kind) {
    case 'add':
      if (snapshot) {
        return fail(
          'file_exists',
          `${op.path} already exists; change it with *** Update File: ${op.path} (or delete it first).`,
          place,
        );
      }
      return ok(createEntry(op.path, addedText(op.lines)));
    case 'delete':
      if (!snapshot) return fail('file_not_found', `${op.path} does not exist, so it cannot be deleted.`, place);
      return ok(deleteEntry(op.path, snapshot));
    case 'update': {
      if (!snapshot) {
        return fail('file_not_found', `${op.path} does not exist; create it with *** Add File: ${op.path}.`, place);
      }
      if (op.moveTo !== undefined && op.moveTo !== op.path && lookup(files, op.moveTo)) {
        return fail(
          'file_exists',
          `cannot move ${op.path} to ${op.moveTo}: ${op.moveTo} already exists (delete it first, or update it instead).`,
          { path: op.moveTo },
        );
      }
      const { lines, format } = readLines(snapshot.text);
      const resolved = resolveChunks(op.path, op.chunks, lines, open);
      if (!resolved.ok) return resolved;
      const { splices, matches } = resolved.value;
      // As Codex: a file its chunks update ends with a line break, even one that had none (the format has
      // no way to say otherwise). In the plan's lines, which keep the file's format, that is an empty line
      // added at the end, so the hunks, their review and their inverse all show it.
      if (!format.finalNewline && lines.length > 0 && matches.length > 0) {
        splices.push({ start: lines.length, deleteCount: 0, insert: [''] });
      }
      const moveTo = op.moveTo !== undefined && op.moveTo !== op.path ? op.moveTo : undefined;
      return ok(updateEntry(op.path, snapshot, splices, { moveTo, matches }));
    }
  }
}
