// A change between two texts carried onto a third: what an edit streamed into an open editor needs, where the
// user may type while the model writes. The change from `from` to `to` is cut into hunks with their context,
// and each is placed in the third text by its own lines (rebase.ts), so text changed elsewhere stays.
import type { EditError } from './errors';
import { type Hunk, applyHunksAt, spliceHunks } from './hunks';
import { applyHunk } from './rebase';
import { type Result, ok } from './result';
import { joinText, readLines, splitText } from './textFormat';

/** The hunks that turn `from` into `to`, each with up to three lines of context, in `from`'s lines. */
export function changeHunks(from: string, to: string, path = ''): Hunk[] {
  const before = readLines(from).lines;
  const after = readLines(to).lines;
  return spliceHunks(path, before, [{ start: 0, deleteCount: before.length, insert: after }]).hunks;
}

/**
 * `text` with the change from `from` to `to` made where its lines are now: `text` is `from` with changes of
 * its own elsewhere, which stay. Refused (`hunk_conflict`) when a hunk's lines changed in `text`.
 */
export function carryChange(from: string, to: string, text: string): Result<string, EditError> {
  let current = text;
  // From the bottom up, so that each hunk's expected line still holds for the ones above it.
  for (const hunk of changeHunks(from, to).reverse()) {
    const next = applyHunk(hunk, current);
    if (!next.ok) return next;
    current = next.value;
  }
  return ok(current);
}

/** `text` with `hunks` (computed on it, as a preview's are) applied at their own lines; undefined if one misfits. */
export function withHunks(text: string, hunks: readonly Hunk[]): string | undefined {
  const applied = applyHunksAt(splitText(text), hunks);
  return applied ? joinText(applied) : undefined;
}
