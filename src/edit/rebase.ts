// Finding a hunk again in a text that changed elsewhere since it was computed: by its own lines, then by
// its context, then by the distance from where it was. Used to accept or revert one hunk later, and by the
// stale-read guard (which asks for an exact and unique match).
import { type EditError, editError } from './errors';
import { lineList, numbered } from './excerpt';
import { type Hunk, hunkId } from './hunks';
import { findLines } from './matchCascade';
import { type Result, err, ok } from './result';
import { type ReadonlyTextLines, type TextFormat, joinText, readLines, readingsOf } from './textFormat';

/** The lines to find, and where they were expected (1-based). */
interface Side {
  start: number;
  lines: readonly string[];
  contextBefore: readonly string[];
  contextAfter: readonly string[];
}

/** Where a hunk's lines are now (0-based), or why they cannot be placed. */
export type Location =
  { ok: true; index: number } | { ok: false; reason: 'changed' | 'ambiguous'; candidates: number[] };

function contextScore(lines: readonly string[], side: Side, index: number): number {
  let score = 0;
  side.contextBefore.forEach((line, i) => {
    if (lines[index - side.contextBefore.length + i] === line) score++;
  });
  side.contextAfter.forEach((line, i) => {
    if (lines[index + side.lines.length + i] === line) score++;
  });
  return score;
}

/**
 * Locates `side` in `lines`: candidates are exact copies of its lines; the most context wins, then the
 * nearest to where it was. With `strict`, only a unique candidate with all its context counts.
 */
export function locate(lines: readonly string[], side: Side, strict: boolean): Location {
  const candidates =
    side.lines.length > 0
      ? findLines(lines, side.lines, 'exact', { from: 0, to: lines.length })
      : Array.from({ length: lines.length + 1 }, (_, i) => i);
  const full = side.contextBefore.length + side.contextAfter.length;
  const scored = candidates.map((index) => ({ index, score: contextScore(lines, side, index) }));
  const best = scored.reduce((max, c) => Math.max(max, c.score), -1);
  const minimum = strict ? full : side.lines.length === 0 && full > 0 ? 1 : 0;
  const top = scored.filter((c) => c.score === best && c.score >= minimum).map((c) => c.index);
  if (top.length === 0) return { ok: false, reason: 'changed', candidates: [] };
  if (strict)
    return top.length === 1
      ? { ok: true, index: top[0] as number }
      : { ok: false, reason: 'ambiguous', candidates: top };
  const expected = side.start - 1;
  const distance = (index: number) => Math.abs(index - expected);
  const nearest = top.reduce((min, index) => Math.min(min, distance(index)), Infinity);
  const closest = top.filter((index) => distance(index) === nearest);
  return closest.length === 1
    ? { ok: true, index: closest[0] as number }
    : { ok: false, reason: 'ambiguous', candidates: closest };
}

/** The message for a hunk that could not be placed, with the current text around where it was. */
export function locationMessage(lines: readonly string[], side: Side, location: Location & { ok: false }): string {
  const why =
    location.reason === 'changed'
      ? 'its lines changed'
      : `its lines now appear at ${lineList(location.candidates.slice(0, 6), location.candidates.length)}`;
  const from = Math.max(1, side.start - 3);
  const to = side.start + Math.max(side.lines.length, 1) + 2;
  const excerpt = lines.length === 0 ? '(the file is empty)' : numbered(lines, from, to);
  return `the hunk at line ${side.start} no longer fits: ${why}. Current text around line ${side.start}:\n${excerpt}`;
}

/** The hunk that undoes `hunk` (in the text it produced). `path` only feeds the id. */
export function invertHunk(hunk: Hunk, path = ''): Hunk {
  const inverted = {
    oldStart: hunk.newStart,
    oldLines: hunk.newLines,
    newStart: hunk.oldStart,
    newLines: hunk.oldLines,
    contextBefore: hunk.contextBefore,
    contextAfter: hunk.contextAfter,
  };
  return { id: hunkId(path, inverted), ...inverted };
}

/**
 * Applies one hunk to `text`, which may have changed elsewhere since the hunk was computed (rebased by
 * content). Refused (`hunk_conflict`) if its own lines changed or it now fits two places equally well.
 * Pass the plan's `format`: a text whose every line ending was removed no longer shows which one the file
 * uses, nor whether its last line had one.
 */
export function applyHunk(hunk: Hunk, text: string, format?: TextFormat): Result<string, EditError> {
  const side = {
    start: hunk.oldStart,
    lines: hunk.oldLines,
    contextBefore: hunk.contextBefore,
    contextAfter: hunk.contextAfter,
  };
  const readings = format ? readingsOf(text, format) : [readLines(text)];
  let current = readings[0] as ReadonlyTextLines;
  let location = locate(current.lines, side, false);
  for (const other of readings.slice(1)) {
    if (location.ok) break;
    const there = locate(other.lines, side, false);
    if (there.ok) [current, location] = [other, there];
  }
  if (!location.ok) return err(editError('hunk_conflict', locationMessage(current.lines, side, location)));
  const end = location.index + hunk.oldLines.length;
  const lines = current.lines.slice(0, location.index).concat(hunk.newLines, current.lines.slice(end));
  const ends = current.ends.slice(0, location.index).concat(
    hunk.newLines.map(() => ''),
    current.ends.slice(end),
  );
  return ok(joinText({ format: current.format, lines, ends }));
}

/** Undoes one applied hunk in `text` (rebased by content, like {@link applyHunk}). */
export function revertHunk(hunk: Hunk, text: string, format?: TextFormat): Result<string, EditError> {
  return applyHunk(invertHunk(hunk), text, format);
}
