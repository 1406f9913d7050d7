import type { DiffFile } from './chatView';
import type { DiffHunk } from './edits';

// A file being written shows only its newest lines on its card (the panel draws it again at each update,
// twenty a second). The host sends just those lines, with a count of what it left out before them: a new
// 50 KB file was otherwise sent whole twenty times a second, through code-server's socket, the workbench and
// the page, each copy parsed and collected. Shared by the host, which cuts, and the page, which draws.

/** Lines of a file being written that its card shows: the newest ones. */
export const STREAMING_TAIL_LINES = 60;

/**
 * How many of a hunk's context-before lines the previous hunk's context-after already shows: neighbours whose
 * context meets are drawn as one block, not with the same lines twice.
 */
export function sharedContext(previous: DiffHunk | undefined, hunk: DiffHunk): number {
  if (!previous) return 0;
  const previousEnd = previous.newStart + previous.newLines.length + previous.contextAfter.length;
  const overlap = previousEnd - (hunk.newStart - hunk.contextBefore.length);
  return Math.max(0, Math.min(overlap, hunk.contextBefore.length));
}

/** Lines hunk `index` of `hunks` draws (its header aside), the context it shares with a neighbour left out. */
export function drawnLines(hunks: readonly DiffHunk[], index: number): number {
  const hunk = hunks[index] as DiffHunk;
  const next = hunks[index + 1];
  return (
    hunk.contextBefore.length -
    sharedContext(hunks[index - 1], hunk) +
    hunk.oldLines.length +
    hunk.newLines.length +
    hunk.contextAfter.length -
    (next ? sharedContext(hunk, next) : 0)
  );
}

/**
 * `hunk` without its first `count` lines in drawn order (context before, removed, added, context after),
 * every line left keeping its numbers in both files.
 */
function withoutFirst(hunk: DiffHunk, count: number): DiffHunk {
  let left = count;
  const take = (lines: readonly string[]) => {
    const dropped = Math.min(left, lines.length);
    left -= dropped;
    return dropped;
  };
  const before = take(hunk.contextBefore);
  const removed = take(hunk.oldLines);
  const added = take(hunk.newLines);
  const after = take(hunk.contextAfter);
  // Past the changed lines, what is left of the context after starts where they ended.
  const pastChanges = after > 0 || (hunk.oldLines.length === removed && hunk.newLines.length === added);
  return {
    ...hunk,
    contextBefore: hunk.contextBefore.slice(before),
    oldStart: hunk.oldStart + removed + (pastChanges ? after : 0),
    oldLines: hunk.oldLines.slice(removed),
    newStart: hunk.newStart + added + (pastChanges ? after : 0),
    newLines: hunk.newLines.slice(added),
    contextAfter: hunk.contextAfter.slice(after),
  };
}

/**
 * What a file being written shows: its last `lines` drawn lines, and `elided`, what came before them (lines
 * drawn, and lines added and removed, for the card's counts). A file that fits is returned as it is.
 */
export function diffTail(file: DiffFile, lines = STREAMING_TAIL_LINES): DiffFile {
  const drawn = file.hunks.map((_hunk, index) => drawnLines(file.hunks, index));
  let hidden = drawn.reduce((sum, n) => sum + n, 0) - lines;
  if (hidden <= 0) return file;
  const elided = { lines: hidden + (file.elided?.lines ?? 0), added: 0, removed: 0 };
  let first = 0;
  while (first < file.hunks.length && hidden >= (drawn[first] as number)) hidden -= drawn[first++] as number;
  for (const hunk of file.hunks.slice(0, first)) {
    elided.added += hunk.newLines.length;
    elided.removed += hunk.oldLines.length;
  }
  const hunks = file.hunks.slice(first);
  const head = hunks[0];
  if (head) {
    // The lines it shares with the hunk before are that hunk's to draw: they go too.
    const cut = withoutFirst(head, sharedContext(file.hunks[first - 1], head) + hidden);
    elided.added += head.newLines.length - cut.newLines.length;
    elided.removed += head.oldLines.length - cut.oldLines.length;
    hunks[0] = cut;
  }
  return {
    ...file,
    hunks,
    elided: {
      lines: elided.lines,
      added: elided.added + (file.elided?.added ?? 0),
      removed: elided.removed + (file.elided?.removed ?? 0),
    },
  };
}
