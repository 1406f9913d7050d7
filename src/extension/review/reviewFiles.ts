import type { DiffFile } from '../../protocol/chatView';
import type { EditedFile } from '../../protocol/edits';

// What a review card shows of an edit, for the card as the call ends and for the review that follows it.

/** A review card's files from what an edit wrote: every hunk applied, each with its own buttons. */
export function reviewFiles(edits: readonly EditedFile[]): DiffFile[] {
  return edits.map((file) => ({
    path: file.path,
    op: file.op,
    ...(file.movedFrom === undefined ? {} : { moveTo: file.path, path: file.movedFrom }),
    hunks: file.hunks,
    pending: false,
    states: Object.fromEntries(file.hunks.map((hunk) => [hunk.id, 'applied' as const])),
  }));
}
