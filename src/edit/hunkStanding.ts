// Which side of a hunk a text holds now: its new lines (still applied), its old lines (taken back — by a
// review's Reject or by the editor's Undo), or neither (someone changed those lines since). A review reads
// this after every change to the file, so its cards and the editor's marks follow what the user did.
import type { Hunk } from './hunks';
import { findLines } from './matchCascade';
import { type TextFormat, readLines, readingsOf } from './textFormat';

export type HunkSide = 'new' | 'old';

/** Where a hunk stands in a text, and (still applied) the 0-based line its new lines start at. */
export type HunkStanding = { side: 'new'; line: number } | { side: 'old'; line: number } | { side: 'neither' };

interface Side {
  start: number;
  lines: readonly string[];
}

interface Fit {
  index: number;
  score: number;
}

/** Context lines that sit where they should around `index`, for `count` lines of the side there. */
function contextScore(lines: readonly string[], hunk: Hunk, index: number, count: number): number {
  let score = 0;
  hunk.contextBefore.forEach((line, i) => {
    if (lines[index - hunk.contextBefore.length + i] === line) score++;
  });
  hunk.contextAfter.forEach((line, i) => {
    if (lines[index + count + i] === line) score++;
  });
  return score;
}

/**
 * The best place for one side: an exact copy of its lines with the most context around it, the nearest
 * to where it was on a tie. An empty side (a pure insertion's old side, a deletion's new one) is placed by
 * its context alone, so it needs some; with no context at all it fits only an empty text.
 */
function bestFit(lines: readonly string[], hunk: Hunk, side: Side): Fit | undefined {
  const context = hunk.contextBefore.length + hunk.contextAfter.length;
  let candidates: number[];
  if (side.lines.length > 0) candidates = findLines(lines, side.lines, 'exact', { from: 0, to: lines.length });
  else if (context > 0) candidates = Array.from({ length: lines.length + 1 }, (_, i) => i);
  else return lines.length === 0 || (lines.length === 1 && lines[0] === '') ? { index: 0, score: 0 } : undefined;
  let best: Fit | undefined;
  for (const index of candidates) {
    const score = contextScore(lines, hunk, index, side.lines.length);
    if (side.lines.length === 0 && score === 0) continue;
    const nearer = best && Math.abs(index - (side.start - 1)) < Math.abs(best.index - (side.start - 1));
    if (!best || score > best.score || (score === best.score && nearer)) best = { index, score };
  }
  return best;
}

/**
 * Which side of `hunk` `text` holds. Both may fit (a line the hunk adds may exist elsewhere): the one with
 * more of its context in place wins, and on a tie `prefer` (what was known before) does.
 */
export function hunkStanding(hunk: Hunk, text: string, format?: TextFormat, prefer: HunkSide = 'new'): HunkStanding {
  const lines = (format ? readingsOf(text, format)[0] : readLines(text))?.lines ?? [];
  const fresh = bestFit(lines, hunk, { start: hunk.newStart, lines: hunk.newLines });
  const old = bestFit(lines, hunk, { start: hunk.oldStart, lines: hunk.oldLines });
  if (!fresh && !old) return { side: 'neither' };
  const side: HunkSide =
    fresh && old
      ? fresh.score === old.score
        ? prefer
        : fresh.score > old.score
          ? 'new'
          : 'old'
      : fresh
        ? 'new'
        : 'old';
  const fit = (side === 'new' ? fresh : old) as Fit;
  return { side, line: fit.index };
}
