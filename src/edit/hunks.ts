// Hunks: the unit of review. Computed from the splices a plan makes (each diffed inside by line, so a
// chunk that rewrites ten lines to change one shows one changed line), never from a whole-file diff.
import { diffArrays } from 'diff';
import { hashText } from './hash';
import type { TextLines } from './textFormat';

/** Unchanged lines kept on each side of a hunk, for finding it again in a text that changed elsewhere. */
export const HUNK_CONTEXT = 3;

/** One contiguous change, in a file plan's `before` text. */
export interface Hunk {
  /** Stable: derived from the path, the position and the lines, so a preview and the final plan agree. */
  id: string;
  /** 1-based line of `before` where `oldLines` start; for a pure insertion, the line it goes before. */
  oldStart: number;
  oldLines: string[];
  /** 1-based line of `after` where `newLines` start (with every hunk of the plan applied). */
  newStart: number;
  newLines: string[];
  /** Up to {@link HUNK_CONTEXT} unchanged lines before, never reaching into the previous hunk. */
  contextBefore: string[];
  /** Up to {@link HUNK_CONTEXT} unchanged lines after, never reaching into the next hunk. */
  contextAfter: string[];
}

/** The id of a hunk of `path`; unique within a plan since no two hunks of a file start at the same line. */
export function hunkId(path: string, hunk: Pick<Hunk, 'oldStart' | 'oldLines' | 'newLines'>): string {
  const { oldStart, oldLines, newLines } = hunk;
  return hashText(`${path}\0${oldStart}\0${oldLines.length}\0${oldLines.join('\n')}\0${newLines.join('\n')}`);
}

/** Lines `start`..`start + deleteCount` of a text replaced by `insert` (0-based, in the original lines). */
export interface Splice {
  start: number;
  deleteCount: number;
  insert: readonly string[];
}

interface RawHunk {
  oldIndex: number;
  oldLines: string[];
  newLines: string[];
}

/** Above this many line pairs a splice is one hunk rather than diffed line by line. */
const REFINE_LIMIT = 250_000;

/** The changes inside one splice: unchanged ends cut, the middle diffed by line into separate changes. */
function refine(before: readonly string[], splice: Splice): RawHunk[] {
  const old = before.slice(splice.start, splice.start + splice.deleteCount);
  const fresh = splice.insert;
  let head = 0;
  while (head < old.length && head < fresh.length && old[head] === fresh[head]) head++;
  let tail = 0;
  while (
    tail < old.length - head &&
    tail < fresh.length - head &&
    old[old.length - 1 - tail] === fresh[fresh.length - 1 - tail]
  ) {
    tail++;
  }
  const oldMiddle = old.slice(head, old.length - tail);
  const newMiddle = fresh.slice(head, fresh.length - tail);
  const at = splice.start + head;
  if (oldMiddle.length === 0 && newMiddle.length === 0) return [];
  const pairs = oldMiddle.length * newMiddle.length;
  if (pairs <= 1 || pairs > REFINE_LIMIT) {
    return [{ oldIndex: at, oldLines: oldMiddle, newLines: newMiddle }];
  }
  const raw: RawHunk[] = [];
  let current: RawHunk | undefined;
  let oldIndex = at;
  for (const change of diffArrays(oldMiddle, newMiddle)) {
    if (!change.added && !change.removed) {
      current = undefined;
      oldIndex += change.count;
      continue;
    }
    if (!current) {
      current = { oldIndex, oldLines: [], newLines: [] };
      raw.push(current);
    }
    const target = change.removed ? current.oldLines : current.newLines;
    for (const line of change.value) target.push(line);
    if (change.removed) oldIndex += change.count;
  }
  return raw;
}

/**
 * The text and the hunks that `splices` (sorted, not overlapping; several may insert at one point) make
 * of `before`. Changes that touch are one hunk, as in any diff.
 */
export function spliceHunks(
  path: string,
  before: readonly string[],
  splices: readonly Splice[],
): { after: string[]; hunks: Hunk[] } {
  const raw: RawHunk[] = [];
  for (const change of splices.flatMap((splice) => refine(before, splice))) {
    const last = raw.at(-1);
    if (last && last.oldIndex + last.oldLines.length >= change.oldIndex) {
      for (let k = last.oldIndex + last.oldLines.length; k < change.oldIndex; k++)
        last.oldLines.push(before[k] as string);
      for (const line of change.oldLines) last.oldLines.push(line);
      for (const line of change.newLines) last.newLines.push(line);
    } else {
      raw.push({ oldIndex: change.oldIndex, oldLines: [...change.oldLines], newLines: [...change.newLines] });
    }
  }
  const after: string[] = [];
  let cursor = 0;
  let delta = 0;
  const hunks = raw.map((hunk, i) => {
    for (; cursor < hunk.oldIndex; cursor++) after.push(before[cursor] as string);
    for (const line of hunk.newLines) after.push(line);
    cursor = hunk.oldIndex + hunk.oldLines.length;
    const previousEnd = i > 0 ? (raw[i - 1] as RawHunk).oldIndex + (raw[i - 1] as RawHunk).oldLines.length : 0;
    const nextStart = i + 1 < raw.length ? (raw[i + 1] as RawHunk).oldIndex : before.length;
    const oldStart = hunk.oldIndex + 1;
    const newStart = oldStart + delta;
    delta += hunk.newLines.length - hunk.oldLines.length;
    return {
      id: hunkId(path, { oldStart, oldLines: hunk.oldLines, newLines: hunk.newLines }),
      oldStart,
      oldLines: hunk.oldLines,
      newStart,
      newLines: hunk.newLines,
      contextBefore: before.slice(Math.max(previousEnd, hunk.oldIndex - HUNK_CONTEXT), hunk.oldIndex),
      contextAfter: before.slice(cursor, Math.min(nextStart, cursor + HUNK_CONTEXT)),
    };
  });
  for (; cursor < before.length; cursor++) after.push(before[cursor] as string);
  return { after, hunks };
}

/**
 * Applies hunks at their own positions (`oldStart`) to `text`, whose lines they were computed on. Lines
 * between hunks keep their own endings. Returns undefined if a hunk's old lines are not where it says.
 */
export function applyHunksAt(text: TextLines, hunks: readonly Hunk[]): TextLines | undefined {
  const sorted = [...hunks].sort((a, b) => a.oldStart - b.oldStart);
  const lines: string[] = [];
  const ends: string[] = [];
  let cursor = 0;
  for (const hunk of sorted) {
    const start = hunk.oldStart - 1;
    if (start < cursor || start + hunk.oldLines.length > text.lines.length) return undefined;
    if (hunk.oldLines.some((line, i) => text.lines[start + i] !== line)) return undefined;
    for (; cursor < start; cursor++) {
      lines.push(text.lines[cursor] as string);
      ends.push(text.ends[cursor] ?? '');
    }
    for (const line of hunk.newLines) {
      lines.push(line);
      ends.push('');
    }
    cursor = start + hunk.oldLines.length;
  }
  for (; cursor < text.lines.length; cursor++) {
    lines.push(text.lines[cursor] as string);
    ends.push(text.ends[cursor] ?? '');
  }
  return { format: text.format, lines, ends };
}

/** The same hunks with `newStart` recomputed for applying exactly these (a subset of a plan's). */
export function renumber(hunks: readonly Hunk[]): Hunk[] {
  let delta = 0;
  return [...hunks]
    .sort((a, b) => a.oldStart - b.oldStart)
    .map((hunk) => {
      const newStart = hunk.oldStart + delta;
      delta += hunk.newLines.length - hunk.oldLines.length;
      return { ...hunk, newStart };
    });
}
