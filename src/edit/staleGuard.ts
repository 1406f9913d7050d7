// The stale-read guard: a plan is checked against the text the model last read. When the file changed
// since (or nobody can tell), every hunk must be found again exactly, with all its context, in one place
// of the current text; otherwise the edit is refused with a fresh excerpt, so the model re-reads instead
// of overwriting what the user just typed.
import {
  type EditPlan,
  type FilePlan,
  type FileSnapshot,
  type FileSnapshots,
  lookup,
  makePlan,
  updateEntry,
} from './editPlan';
import { type EditError, editError, fail } from './errors';
import { hashText } from './hash';
import type { Splice } from './hunks';
import { locate, locationMessage } from './rebase';
import { type Result, err, ok } from './result';
import { readLines } from './textFormat';

/** What the model last read of a file: the `hashText` of its text, and/or the caller's version of it. */
export interface ReadStamp {
  hash?: string;
  version?: string | number;
}

/** Read stamps by path. A path with none is treated as not known to be fresh. */
export type ReadStamps = ReadonlyMap<string, ReadStamp> | Readonly<Record<string, ReadStamp | undefined>>;

function isFresh(stamp: ReadStamp | undefined, snapshot: FileSnapshot): boolean {
  if (!stamp) return false;
  if (stamp.version !== undefined && snapshot.version !== undefined) return stamp.version === snapshot.version;
  return stamp.hash !== undefined && stamp.hash === hashText(snapshot.text);
}

/** The file's hunks moved onto `current`, or the first that does not fit it exactly and uniquely. */
function rebase(file: FilePlan, current: FileSnapshot): Result<FilePlan, EditError> {
  const lines = readLines(current.text).lines;
  const splices: Splice[] = [];
  for (const hunk of file.hunks) {
    const side = {
      start: hunk.oldStart,
      lines: hunk.oldLines,
      contextBefore: hunk.contextBefore,
      contextAfter: hunk.contextAfter,
    };
    const location = locate(lines, side, true);
    if (!location.ok) {
      return err(
        editError(
          'stale_read',
          `${file.path} changed since it was last read, and ${locationMessage(lines, side, location)}\nRe-read ${file.path} and make the edit again.`,
          { path: file.path, line: hunk.oldStart },
        ),
      );
    }
    splices.push({ start: location.index, deleteCount: hunk.oldLines.length, insert: hunk.newLines });
  }
  splices.sort((a, b) => a.start - b.start);
  if (
    splices.some(
      (splice, i) => i > 0 && splice.start < (splices[i - 1] as Splice).start + (splices[i - 1] as Splice).deleteCount,
    )
  ) {
    return fail(
      'stale_read',
      `${file.path} changed since it was last read so that its hunks now overlap; re-read it and make the edit again.`,
      {
        path: file.path,
      },
    );
  }
  const extra = { matches: file.matches, ...(file.moveTo !== undefined ? { moveTo: file.moveTo } : {}) };
  return ok(updateEntry(file.path, current, splices, extra));
}

/**
 * Checks `plan` against the files as they are now (`current`) and what the model last read (`reads`). A
 * file read fresh and planned on that same text passes as is; otherwise its hunks are re-matched strictly
 * against the current text (the plan is rebased onto it) or the call is refused with `stale_read`. A file
 * to create must still be absent, a file to delete unchanged since it was read.
 */
export function checkStale(plan: EditPlan, current: FileSnapshots, reads: ReadStamps): Result<EditPlan, EditError> {
  const files: FilePlan[] = [];
  for (const file of plan.files) {
    const snapshot = lookup(current, file.path);
    const place = { path: file.path };
    if (file.op === 'create') {
      if (snapshot)
        return fail(
          'file_exists',
          `${file.path} was created since the edit was planned; read it and edit it instead.`,
          place,
        );
      files.push(file);
      continue;
    }
    if (!snapshot) return fail('file_not_found', `${file.path} was deleted since it was last read.`, place);
    if (file.moveTo !== undefined && lookup(current, file.moveTo)) {
      return fail('file_exists', `${file.moveTo} was created since the move was planned.`, { path: file.moveTo });
    }
    const fresh = isFresh(lookup(reads, file.path), snapshot);
    if (fresh && snapshot.text === file.before) {
      files.push(file);
      continue;
    }
    if (file.op === 'delete') {
      return fail('stale_read', `${file.path} changed since it was last read; re-read it before deleting it.`, place);
    }
    const rebased = rebase(file, snapshot);
    if (!rebased.ok) return rebased;
    files.push(rebased.value);
  }
  return ok(makePlan(files));
}
