// edit_file → EditPlan. The edits of one call apply together or not at all.
import { type EditPlan, type FileSnapshots, createEntry, lookup, makePlan, updateEntry } from './editPlan';
import { type EditError, fail } from './errors';
import { type EditMemo, type ReplacementsInput, applyEdits, splicesOf, startWorking } from './replacements';
import { type Result, ok } from './result';
import { contentString, readLines } from './textFormat';

/**
 * Plans an edit_file call against `files`. A missing file is created when the first edit's old_string is
 * empty (its new_string is the text); otherwise every old_string must match (uniquely, unless replace_all).
 * With `open` (streaming), the last edit may be left out if it cannot be placed yet.
 */
export function planReplacements(input: ReplacementsInput, files: FileSnapshots): Result<EditPlan, EditError> {
  return planEdits(input, files, false);
}

/** A memo of one file's edits while a call streams (see `applyEdits`), keyed by the text it started from. */
export interface ReplacementsMemo {
  path: string;
  text: string;
  edits: EditMemo;
}

/**
 * `planReplacements`, for previews: with `open` the last edit may be left out while it cannot be placed
 * yet, and `memo` (owned by the caller, updated here) spares re-applying the edits that did not change.
 */
export function planEdits(
  input: ReplacementsInput,
  files: FileSnapshots,
  open: boolean,
  memo?: ReplacementsMemo,
): Result<EditPlan, EditError> {
  const { path, edits } = input;
  if (path.trim() === '') return fail('invalid_edit', 'edit_file needs a path.');
  if (edits.length === 0 && !open)
    return fail('invalid_edit', `${path}: edits is empty; give at least one edit.`, { path });
  const snapshot = lookup(files, path);
  if (!snapshot) {
    const first = edits[0];
    if (!first || first.old_string !== '') {
      return fail(
        'file_not_found',
        `${path} does not exist. To create it, give one edit with an empty old_string and the whole text as new_string.`,
        { path },
      );
    }
    const applied = applyEdits(path, startWorking('', []), edits, open);
    if (!applied.ok) return applied;
    // A new file's line ending is the one its text uses.
    const eol = first.new_string.includes('\r\n') ? '\r\n' : '\n';
    const { content, lines } = applied.value.working;
    const text = lines.join(eol) + (lines.length > 0 && content.endsWith('\n') ? eol : '');
    return ok(makePlan([createEntry(path, text, applied.value.matches)]));
  }
  const before = readLines(snapshot.text);
  if (memo && (memo.path !== path || memo.text !== snapshot.text)) {
    memo.path = path;
    memo.text = snapshot.text;
    memo.edits = { start: startWorking(contentString(before.lines, before.format), before.lines), steps: [] };
  }
  const start = memo?.edits.start ?? startWorking(contentString(before.lines, before.format), before.lines);
  const applied = applyEdits(path, start, edits, open, memo?.edits);
  if (!applied.ok) return applied;
  const splices = splicesOf(applied.value.working, before.lines.length);
  return ok(makePlan([updateEntry(path, snapshot, splices, { matches: applied.value.matches })]));
}
